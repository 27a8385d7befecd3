export { sha256, stableHash, stableStringify } from './hash';
export { cancelledError, StopRequest, stopKindOf, throwIfAborted, type StopKind } from './abort';
export { addStageTime, stageTimes, timeStage, STAGES as PROFILE_STAGES, type Stage as ProfileStage } from './stageProfile';
export { writeOutputFile } from './outputFile';
export { caseFoldedAscii, wordSequenceMatches, type WordSequenceOptions } from './wordSequence';
export { nextTurn, runInSlices, runToEnd, SLICE_MS, type Steps } from './slices';
