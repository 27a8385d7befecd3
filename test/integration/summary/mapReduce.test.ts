import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarizeDocument } from '../../../electron/engine/summary';
import { planSummaryReplyTokens, SUMMARY_MAP_SENTENCES, SUMMARY_REDUCE_SENTENCES } from '../../../electron/engine/summary';
import { saveSummary, getSummary } from '../../../electron/engine/summary';
import { createRun, saveDocument } from '../../../electron/engine/store';
import { plantedDocument, promptBlocks } from '../../fixtures/plantedFindings';
import { harness, type Harness } from '../llm/helpers';

/** Each chunk summary carries a marker; the simulated model keeps every marker it sees, so the final text proves coverage. */
const markers = Array.from({ length: 14 }, (_, i) => `MARK${String(i + 1).padStart(2, '0')}`);
const chunkSummaries = markers.map(
  (m, i) =>
    `Chunk ${i + 1} (${m}) describes the deployment records, the change log and the incident register, and notes one open observation about access reviews.`,
);

describe('summarizeDocument (simulator)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({
      responder: (req) => {
        const { chunk } = promptBlocks(req);
        const found = (chunk ?? '').match(/MARK\d\d/g) ?? [];
        return `Covers ${found.join(' ')}.`;
      },
    });
  });
  afterAll(async () => h?.close());

  it('appends the chunk summaries in order when they fit the budget (no call)', async () => {
    const before = h.sim.counters.chatRequests;
    const r = await summarizeDocument(
      { llm: h.client },
      { chunkSummaries: chunkSummaries.slice(0, 3), reduceModel: 'qwen3:8b', numCtx: 8192, budgetTokens: 4000 },
    );
    expect(r).toMatchObject({ levels: 0, chunkCount: 3, calls: 0 });
    expect(r.text).toBe(chunkSummaries.slice(0, 3).join('\n\n'));
    expect(h.sim.counters.chatRequests).toBe(before);
  });

  it('map-reduces with a small budget: levels >= 2, map on the map model, every chunk summary reaches the reduce', async () => {
    const start = h.sim.requests.length;
    const r = await summarizeDocument({ llm: h.client }, { chunkSummaries, mapModel: 'llama3.1:8b', reduceModel: 'qwen3:8b', numCtx: 8192, budgetTokens: 150 });
    expect(r.levels).toBeGreaterThanOrEqual(2);
    expect(r.chunkCount).toBe(14);
    const requests = h.sim.requests.slice(start);
    const reduce = requests.at(-1)!;
    expect(reduce.model).toBe('qwen3:8b');
    expect(requests.slice(0, -1).every((q) => q.model === 'llama3.1:8b')).toBe(true);
    // Level 1 saw every chunk summary once, in order.
    const level1 = requests.slice(0, r.mapLevels[0]!.length).flatMap((q) => promptBlocks(q).chunk!.match(/MARK\d\d/g)!);
    expect(level1).toEqual(markers);
    for (const m of markers) expect(promptBlocks(reduce).chunk).toContain(m);
    expect(r.text).toBe(`Covers ${markers.join(' ')}.`);
    expect(r.calls).toBe(requests.length);
    // num_predict planned from the sentences each call asks for, not the client's 2,048 default.
    expect(requests.slice(0, -1).every((q) => q.options.num_predict === planSummaryReplyTokens(SUMMARY_MAP_SENTENCES))).toBe(true);
    expect(reduce.options.num_predict).toBe(planSummaryReplyTokens(SUMMARY_REDUCE_SENTENCES));
    expect(planSummaryReplyTokens(SUMMARY_REDUCE_SENTENCES)).toBeLessThan(2048);
  });

  it('stores the summary with its chunk count and levels', () => {
    const doc = plantedDocument();
    const documentId = saveDocument(h.db, doc, '2024-01-01T00:00:00Z').document.id;
    const runId = createRun(h.db, 'analyze', {}, [doc.filePath], '2024-01-01T00:00:00Z');
    saveSummary(h.db, { runId, documentId, text: 'final', chunkCount: 14, levels: 2, model: 'qwen3:8b', mapLevels: [['a', 'b']] });
    saveSummary(h.db, { runId, documentId, text: 'final 2', chunkCount: 14, levels: 2, model: 'qwen3:8b' });
    expect(getSummary(h.db, runId, documentId)).toEqual({ text: 'final 2', chunkCount: 14, levels: 2, model: 'qwen3:8b', ungroundedIds: [] });
  });
});
