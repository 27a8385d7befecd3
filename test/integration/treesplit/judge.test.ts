import { afterEach, describe, expect, it } from 'vitest';
import { collectFacts, judgeStrategy, listJudgeDecisions, latestJudgeDecision } from '../../../electron/engine/judge';
import { harness, type Harness } from '../llm/helpers';
import { isJudge, makeDoc, storeDoc, userText } from './helpers';

const MODEL = 'llama3.1:8b';
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const reply = (o: Record<string, unknown>) =>
  JSON.stringify({ strategy: 'llm-tree', targetChunkTokens: 900, overlapChars: 100, justification: 'No headings; prose with topic changes.', ...o });

describe('chunking judge against the simulator', () => {
  it('stores a valid decision with the sample and facts it was given, and clamps parameters', async () => {
    h = await harness({ responder: () => reply({ targetChunkTokens: 999999, overlapChars: -5 }) });
    const doc = makeDoc({ sections: 1, paragraphsPerSection: 200, titles: false });
    const documentId = storeDoc(h.db, doc);
    const d = await judgeStrategy({ llm: h.client, db: h.db }, { doc, documentId, model: MODEL, numCtx: 4096 });
    expect(d).toMatchObject({
      source: 'llm',
      strategy: 'llm-tree',
      cached: false,
      fallbackReason: null,
      targetChunkTokens: 8192,
      overlapChars: 0,
      justification: 'No headings; prose with topic changes.',
    });
    expect(d.llmCallIds).toHaveLength(1);
    const req = h.sim.requests.find(isJudge)!;
    const user = userText(req);
    expect(user).toContain(`pages: ${doc.pageCount}`);
    expect(user).toContain('outline: none');
    expect(user).toContain('[middle]');
    // About 5000 characters of sample, not the whole document.
    expect(user.length).toBeLessThan(6500);
    expect(latestJudgeDecision(h.db, documentId)).toMatchObject({ id: d.id, strategy: 'llm-tree', source: 'llm' });
  });

  it('falls back deterministically on an invalid reply and stores the reason', async () => {
    h = await harness({ responder: () => JSON.stringify({ strategy: 'magic', targetChunkTokens: 'big' }) });
    const doc = makeDoc({ sections: 1, paragraphsPerSection: 40, titles: false });
    const documentId = storeDoc(h.db, doc);
    const d = await judgeStrategy({ llm: h.client, db: h.db }, { doc, documentId, model: MODEL, numCtx: 4096 });
    expect(d.source).toBe('fallback');
    expect(d.strategy).toBe('pages');
    expect(d.fallbackReason).toMatch(/^LLM_INVALID_REPLY: /);
    expect(d.llmCallIds.length).toBeGreaterThanOrEqual(1);
    const stored = listJudgeDecisions(h.db, documentId);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ source: 'fallback', fallbackReason: d.fallbackReason });
  });

  it('prefers the outline in the fallback when one is present', async () => {
    h = await harness({ responder: () => 'not json at all' });
    const doc = makeDoc({ sections: 4, paragraphsPerSection: 10 });
    doc.outline = [
      { title: 'Topic 1', level: 1, page: 1 },
      { title: 'Topic 3', level: 1, page: 2 },
    ];
    const documentId = storeDoc(h.db, doc);
    expect(collectFacts(doc)).toMatchObject({ outlinePresent: true, outlineEntriesResolved: 2, textLayerCoverage: 1 });
    const d = await judgeStrategy({ llm: h.client, db: h.db }, { doc, documentId, model: MODEL, numCtx: 4096 });
    expect(d).toMatchObject({ source: 'fallback', strategy: 'outline' });
  });

  it('serves the second decision from the cache without a new request; other settings ask again', async () => {
    h = await harness({ responder: () => reply({}) });
    const doc = makeDoc({ sections: 1, paragraphsPerSection: 60, titles: false });
    const documentId = storeDoc(h.db, doc);
    const first = await judgeStrategy({ llm: h.client, db: h.db }, { doc, documentId, model: MODEL, numCtx: 4096 });
    const requests = h.sim.counters.chatRequests;
    const second = await judgeStrategy({ llm: h.client, db: h.db }, { doc, documentId, model: MODEL, numCtx: 4096 });
    expect(h.sim.counters.chatRequests).toBe(requests);
    expect(second).toMatchObject({ cached: true, source: 'llm', strategy: first.strategy, settingsHash: first.settingsHash });
    // Other settings are another cache key: a new decision (the identical prompt may still be served by the LLM response cache).
    const third = await judgeStrategy({ llm: h.client, db: h.db }, { doc, documentId, model: MODEL, numCtx: 4096, settings: { leafTokens: 500 } });
    expect(third.cached).toBe(false);
    expect(third.settingsHash).not.toBe(first.settingsHash);
    expect(h.rows("purpose = 'judge'").map((r) => r.outcome)).toEqual(['ok', 'cached']);
  });

  it('records an override and a disabled judge without any LLM call', async () => {
    h = await harness({ responder: () => reply({}) });
    const doc = makeDoc({ sections: 1, paragraphsPerSection: 20, titles: false });
    const documentId = storeDoc(h.db, doc);
    const o = await judgeStrategy({ llm: h.client, db: h.db }, { doc, documentId, model: MODEL, numCtx: 4096, override: 'sentences' });
    expect(o).toMatchObject({ source: 'override', strategy: 'sentences', llmCallIds: [] });
    const d = await judgeStrategy({ llm: h.client, db: h.db }, { doc, documentId, model: MODEL, numCtx: 4096, disabled: true });
    expect(d).toMatchObject({ source: 'disabled', strategy: 'pages' });
    expect(h.sim.counters.chatRequests).toBe(0);
    expect(listJudgeDecisions(h.db, documentId).map((x) => x.source)).toEqual(['override', 'disabled']);
  });
});
