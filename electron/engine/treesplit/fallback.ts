/**
 * The deterministic fallback of the tree split: a node the model could not split (or one only a little over the leaf
 * budget) is cut by the pages or sentences splitter, whichever first partitions it exactly.
 */
import { AppError, ErrorCode } from '../../../shared/errors';
import type { ChunkOrigin, ExtractedDocument } from '../../../shared/types';
import { buildChunkTree, validateLeaves, type ChunkingOptions } from '../chunking';

export interface FallbackPiece {
  start: number;
  end: number;
  title: string;
  origin: ChunkOrigin;
  overlapBefore: number;
}

/** The range as a document of its own, for the deterministic splitter. */
function subDocument(doc: ExtractedDocument, start: number, end: number): ExtractedDocument {
  const pages = doc.pages.map((p) => ({ ...p, start: Math.max(p.start, start) - start, end: Math.min(p.end, end) - start })).filter((p) => p.end > p.start);
  const lines = doc.lines.filter((l) => l.start >= start && l.end <= end).map((l) => ({ ...l, start: l.start - start, end: l.end - start }));
  return { ...doc, text: doc.text.slice(start, end), pages, lines, outline: [], pageCount: pages.length };
}

function fallbackOptions(leafTokens: number, estimateTokens: (t: string) => number): Partial<ChunkingOptions> {
  const maxChars = Math.max(64, Math.floor(leafTokens * 3.5));
  const preferredChars = Math.max(32, Math.floor(maxChars * 0.75));
  const minChars = Math.max(1, Math.min(500, Math.floor(preferredChars / 3)));
  const maxTokens = Math.max(3, leafTokens);
  const preferredTokens = Math.max(2, Math.floor(maxTokens * 0.75));
  return {
    estimateTokens,
    maxChars,
    preferredChars,
    minChars,
    maxTokens,
    preferredTokens,
    minTokens: Math.max(1, Math.min(preferredTokens, Math.floor(maxTokens / 4))),
    overlapChars: 0,
    pageMaxChars: Math.max(1, Math.min(4000, maxChars - 3)),
    pageOverlapChars: 0,
  };
}

/** Pages when the range spans several, else sentences; whichever first partitions the range exactly. */
export function deterministicLeaves(
  doc: ExtractedDocument,
  start: number,
  end: number,
  leafTokens: number,
  estimateTokens: (t: string) => number,
): { strategy: 'pages' | 'sentences'; pieces: FallbackPiece[] } {
  const sub = subDocument(doc, start, end);
  const strategies: ('pages' | 'sentences')[] = sub.pages.length > 1 ? ['pages', 'sentences'] : ['sentences'];
  for (const strategy of strategies) {
    try {
      const tree = buildChunkTree(sub, { ...fallbackOptions(leafTokens, estimateTokens), strategy });
      const leaves = tree.nodes.filter((n) => n.isLeaf);
      if (leaves.length === 0 || !validateLeaves(sub.text, leaves).ok) continue;
      return {
        strategy,
        pieces: leaves.map((l) => ({ start: l.start + start, end: l.end + start, title: l.title, origin: l.origin, overlapBefore: l.overlapBefore })),
      };
    } catch {
      // try the next strategy
    }
  }
  throw new AppError(ErrorCode.SPLIT_VALIDATION_FAILED, `The deterministic splitter could not partition [${start}, ${end}) either.`);
}
