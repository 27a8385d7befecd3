/**
 * num_predict of extraction calls, planned from the text each call carries (extract/replyBudget.ts): the request
 * Ollama receives carries the planned limit, and a reply longer than the plan is cut by the server at that limit and
 * still recovered (one retry with a larger limit), never dropped.
 */
import { describe, expect, it } from 'vitest';
import type { ChunkNode } from '../../../shared/types';
import { extractUnit, MIN_EXTRACTION_REPLY_TOKENS, planExtractionReplyTokens } from '../../../electron/engine/extract';
import { documentFromPages } from '../../helpers/documents';
import { harness } from '../llm/helpers';
import { promptBlocks } from '../../fixtures/plantedFindings';
import { FINDINGS_TABLE, faithfulTableModel } from '../../fixtures/findingsTable';

const MODEL = 'qwen3:8b';
const CAP = 2048;

function wholeDocument(pageTexts: string[]) {
  const doc = documentFromPages(pageTexts, 'reply-budget.txt');
  const chunk: ChunkNode = {
    index: 1,
    parentIndex: 0,
    title: 'all',
    section: { level: 1, path: [] },
    start: 0,
    end: doc.text.length,
    pageStart: 1,
    pageEnd: pageTexts.length,
    tokenEstimate: 0,
    origin: 'page',
    isLeaf: true,
    overlapBefore: 0,
  };
  return { doc, chunk };
}

const sentence = 'The review sampled change tickets and compared each with its approval record in the register. ';
const numPredictOf = (req: { options: Record<string, unknown> }) => req.options.num_predict as number;

describe('extraction num_predict planned from the text of the call', () => {
  it('a short leaf gets the floor, a longer text more, a unit the cap: each request carries its plan', async () => {
    const h = await harness({ responder: () => JSON.stringify({ findings: [], summary: 'Nothing found.' }) });
    try {
      const sizes = [1, 12, 200].map((n) => wholeDocument([sentence.repeat(n)]));
      // Planned from each text's estimate with the same estimator the engine uses, as it stands before the call (each reply calibrates it).
      const planned: number[] = [];
      for (const { doc, chunk } of sizes) {
        planned.push(planExtractionReplyTokens(h.client.estimator.estimateText(doc.text, MODEL), CAP));
        await extractUnit({ llm: h.client }, { doc, chunk, model: MODEL, numCtx: 16384, replyTokens: CAP, cache: false });
      }
      const sent = h.sim.requests.map(numPredictOf);
      expect(sent).toHaveLength(3);
      expect(sent).toEqual(planned);
      expect(sent[0]).toBe(MIN_EXTRACTION_REPLY_TOKENS);
      expect(sent[1]).toBeGreaterThan(MIN_EXTRACTION_REPLY_TOKENS);
      expect(sent[1]).toBeLessThan(CAP);
      expect(sent[2]).toBe(CAP);
    } finally {
      await h.close();
    }
  });

  it('a reply longer than the plan is cut by the server at the planned limit; its complete findings are kept and the text after them is asked next', async () => {
    const h = await harness({ responder: faithfulTableModel });
    try {
      const { doc, chunk } = wholeDocument([FINDINGS_TABLE]);
      const r = await extractUnit({ llm: h.client }, { doc, chunk, model: MODEL, numCtx: 8192, replyTokens: CAP, cache: false });
      const sent = h.sim.requests.map(numPredictOf);
      // The plan for this short text is the floor; the reply (8 findings) is longer, so the server cut it there.
      expect(sent[0]).toBe(MIN_EXTRACTION_REPLY_TOKENS);
      const rows = h.rows().map((row) => [row.outcome, row.done_reason]);
      // Every call is logged as what it was: cut replies used as they are, the last one ended by the model itself.
      expect(rows.at(-1)).toEqual(['ok', 'stop']);
      expect(rows.slice(0, -1).every(([outcome, reason]) => outcome === 'ok' && reason === 'length')).toBe(true);
      expect(rows.length).toBeGreaterThanOrEqual(2);
      // Never the same text twice: each continuation starts where the last complete finding's evidence ended.
      const second = promptBlocks(h.sim.requests[1]!).chunk!;
      expect(second.includes('F-1 ')).toBe(false);
      expect(r.findings.map((f) => f.id)).toEqual(Array.from({ length: 8 }, (_, i) => `F-${i + 1}`));
      expect(r.calls).toBe(rows.length);
    } finally {
      await h.close();
    }
  });
});
