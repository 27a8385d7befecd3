export { DEFAULT_ID_PATTERNS, type IdPattern } from '../../../shared/idPatterns';
