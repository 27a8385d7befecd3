export { sha256, stableHash, stableStringify } from './hash';
export { cancelledError, StopRequest, stopKindOf, throwIfAborted, type StopKind } from './abort';
