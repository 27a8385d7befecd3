export { DEFAULT_ID_PATTERNS, type IdPattern } from './patterns';
export { findIdMentions, validatePatterns } from './findMentions';
export { normalizeForIds, normalizeId } from './normalize';
export { idFamily, isReferenceId } from './references';
