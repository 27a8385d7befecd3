/** Deterministic chunking: hierarchy rules, heading detection, splitters, greedy merge, the chunk tree and its validator. */
export { buildChunkTree, documentTitle, FRONT_MATTER_TITLE, type ChunkTree } from './tree';
export { resolveChunkingOptions, defaultEstimateTokens, CHARS_PER_TOKEN, type ChunkingOptions, type ChunkStrategy } from './options';
export { isParentChild, findCommonPrefix, mergeSections, rootSection } from './hierarchy';
export {
  detectHeadings,
  parseNumbering,
  isPageNumberLine,
  bodyFontSize,
  type HeadingCandidate,
  type HeadingAnalysis,
  type HeadingKind,
  type LineRejection,
} from './headings';
export {
  splitRange,
  chunkPages,
  greedyMerge,
  mergeAllSections,
  type TextPiece,
  type SizeLimit,
  type SplitOptions,
  type PageChunk,
  type MergeCandidate,
  type MergedLeaf,
  type MergeOptions,
} from './splitters';
export {
  validateLeaves,
  validateTree,
  firstDifference,
  leavesOf,
  type LeafValidation,
  type TreeValidation,
  type TextDiff,
  type DiffOptions,
  type LeafRange,
} from './validate';
