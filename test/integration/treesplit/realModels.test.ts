/**
 * The tree split against simulator models that behave like real local models
 * (modelModes.ts): windows are retried alone with their own feedback and keep
 * their bounds, starts outside a window are dropped with a note, a cut reply
 * is never asked for again as it was, and a repeated failure stops early.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { validateLeaves, validateTree } from '../../../electron/engine/chunking';
import { listSplitAttempts, splitTreeWithLlm, type TreeSplitInput } from '../../../electron/engine/treesplit';
import type { ExtractedDocument } from '../../../shared/types';
import type { Responder, SimChatRequest } from '../../ollama-sim/index';
import { harness, type Harness } from '../llm/helpers';
import { chapters, isReview, isSplit, makeDoc, PASS, plausibleSplit, shownLines, storeDoc, userText, windowRange } from './helpers';
import { everyHeadingSplit, restartNumberingSplit } from './modelModes';

const MODEL = 'llama3.1:8b';
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const withReview =
  (split: (req: SimChatRequest) => string): Responder =>
  (req) =>
    isReview(req) ? PASS : split(req);

async function run(doc: ExtractedDocument, extra: Partial<TreeSplitInput> = {}, options: TreeSplitInput['options'] = {}) {
  const documentId = storeDoc(h!.db, doc);
  const result = await splitTreeWithLlm(
    { llm: h!.client, db: h!.db },
    { doc, documentId, model: MODEL, numCtx: 8192, options: { leafTokens: 2000, ...options }, ...extra },
  );
  expect(validateTree(result.nodes, doc.pages)).toEqual({ ok: true });
  expect(
    validateLeaves(
      doc.text,
      result.nodes.filter((n) => n.isLeaf),
    ),
  ).toEqual({ ok: true });
  return { result, attempts: listSplitAttempts(h!.db, { documentId }) };
}

/** Long enough for several windows at num_ctx 2048 (the same shape as treesplit.test.ts's window test). */
const windowedDoc = () => makeDoc({ sections: 1, paragraphsPerSection: 260, linesPerParagraph: 5, titles: false });
const WINDOWED = { numCtx: 2048 } as const;
const WINDOWED_OPTIONS = { leafTokens: 6000, viewTokenRatio: 0.6 } as const;
const partOf = (req: SimChatRequest): number => Number(/Part (\d+) of \d+/.exec(userText(req))?.[1] ?? 1);

describe('tree split with real-model behaviours', () => {
  it('numbers each window from 1, so a model that restarts numbering in each window cuts where the plausible model does; its start past the window is dropped with a note', async () => {
    h = await harness({ responder: withReview(plausibleSplit) });
    const reference = await run(windowedDoc(), WINDOWED, WINDOWED_OPTIONS);
    await h.close();

    h = await harness({ responder: withReview(restartNumberingSplit) });
    const { result, attempts } = await run(windowedDoc(), WINDOWED, WINDOWED_OPTIONS);
    const parts = h.sim.requests.filter(isSplit);
    expect(parts.length).toBeGreaterThan(2);
    // Every part shows its lines from 1 (the first part starts at the node's first line anyway).
    for (const req of parts) expect(shownLines(req)[0]![0]).toBe(1);
    expect(result.fallbacks).toEqual([]);
    expect(attempts.filter((a) => a.outcome !== 'accepted')).toEqual([]);
    expect(result.nodes.map((n) => [n.start, n.end])).toEqual(reference.result.nodes.map((n) => [n.start, n.end]));
    const notes = attempts[0]!.validationErrors.filter((e) =>
      /^note: chapter "Continued" starts at line \d+, outside lines \d+-\d+ of this part: dropped$/.test(e),
    );
    expect(notes.length).toBe(parts.length);
  });

  it('drops a start outside a single view with a note, and makes the text before the first start a chapter of its own', async () => {
    const doc = makeDoc({ sections: 6, paragraphsPerSection: 5 });
    const starts = doc.text.split('\n').flatMap((l, i) => (l.startsWith('Topic ') ? [i + 1] : []));
    h = await harness({ responder: withReview(() => chapters([...starts.slice(1), 99999])) });
    const { result, attempts } = await run(doc);
    expect(attempts.map((a) => a.outcome)).toEqual(['accepted']);
    expect(attempts[0]!.validationErrors).toContain(
      'note: chapter "Chapter 6" starts at line 99999, outside lines 1-' + doc.text.split('\n').length + ': dropped',
    );
    expect(attempts[0]!.validationErrors).toContain(
      'note: no chapter started at the first line (1): the text before the first start became chapter "Topic 1 audit matters"',
    );
    expect(result.nodes.filter((n) => n.parentIndex === 0).map((n) => n.title)).toEqual([
      'Topic 1 audit matters',
      'Chapter 1',
      'Chapter 2',
      'Chapter 3',
      'Chapter 4',
      'Chapter 5',
    ]);
  });

  it('asks only the failed window again, with its own feedback and the same lines shown', async () => {
    let partTwoAnswers = 0;
    const responder = withReview((req) =>
      partOf(req) === 2 && partTwoAnswers++ === 0 ? chapters([40, 20].map((n) => n + (windowRange(req)?.[0] ?? 0))) : plausibleSplit(req),
    );
    h = await harness({ responder });
    const { result, attempts } = await run(windowedDoc(), WINDOWED, WINDOWED_OPTIONS);
    const root = attempts.filter((a) => a.nodePath.length === 0);
    expect(root.map((a) => a.outcome)).toEqual(['validation_failed', 'accepted']);
    expect(root[0]!.validationErrors[0]).toMatch(/^part 2: chapter "Chapter 2" starts at line \d+, not after the previous chapter's line \d+/);
    const splits = h.sim.requests.filter(isSplit);
    const windows = Math.max(...splits.map(partOf));
    expect(windows).toBeGreaterThan(2);
    // First attempt: every window; second attempt: part 2 alone, showing exactly the lines it showed before.
    expect(splits).toHaveLength(windows + 1);
    const [first, again] = splits.filter((r) => partOf(r) === 2);
    expect(shownLines(again!)).toEqual(shownLines(first!));
    expect(userText(again!)).toContain('Your previous proposal (attempt 1) was rejected.');
    expect(userText(again!)).toMatch(/not after the previous chapter's line/);
    expect(result.fallbacks).toEqual([]);
  });

  it('stops after the same failure twice in a row in one window, with the deterministic fallback', async () => {
    const responder = withReview((req) => (partOf(req) === 2 ? chapters([40, 20].map((n) => n + (windowRange(req)?.[0] ?? 0))) : plausibleSplit(req)));
    h = await harness({ responder });
    const doc = windowedDoc();
    const { result, attempts } = await run(doc, WINDOWED, WINDOWED_OPTIONS);
    expect(attempts.map((a) => a.outcome)).toEqual(['validation_failed', 'validation_failed', 'fallback']);
    expect(result.fallbacks).toEqual([
      { node: doc.fileName, reason: expect.stringMatching(/same rejected answer 2 times in a row \(last: validation failed: part 2: /) },
    ]);
    const windows = Math.max(...h.sim.requests.filter(isSplit).map(partOf));
    expect(h.sim.requests.filter(isSplit)).toHaveLength(windows + 1);
  });

  it('never throws a cut reply away nor repeats a request: the lines after its last complete chapter are asked on their own', async () => {
    h = await harness({ responder: withReview(everyHeadingSplit) });
    // 120 short headings: the every-heading model's list does not fit 256 reply tokens.
    const doc = makeDoc({ sections: 120, paragraphsPerSection: 1, linesPerParagraph: 3 });
    const { result, attempts } = await run(doc, {}, { splitNumPredict: 256, leafTokens: 4000 });
    const calls = h.rows("purpose = 'split'");
    expect(calls[0]).toMatchObject({ outcome: 'ok', done_reason: 'length' });
    expect(calls.filter((c) => c.done_reason === 'length').length).toBeGreaterThan(2);
    // No retry with a larger limit, no failed call: every reply, cut or not, was used.
    expect(calls.every((c) => c.outcome === 'ok' && JSON.parse(String(c.options_json)).num_predict === 256)).toBe(true);
    const prompts = h.sim.requests.filter(isSplit).map((r) => r.prompt);
    expect(new Set(prompts).size).toBe(prompts.length);
    expect(result.fallbacks).toEqual([]);
    const accepted = attempts.find((a) => a.outcome === 'accepted')!;
    expect(accepted.attempt).toBe(1);
    const continued = accepted.validationErrors.filter((e) =>
      /^note: part \d+: the reply was cut at the length limit after \d+ complete chapters; the lines from \d+ on were asked for on their own$/.test(e),
    );
    expect(continued.length).toBe(calls.filter((c) => c.done_reason === 'length').length);
    expect(
      accepted.validationErrors.some((e) =>
        /^note: (part \d+: )?\d+ chapters proposed where about \d+ were asked for: kept the \d+ starts that cut the text most evenly$/.test(e),
      ),
    ).toBe(true);
  });
});
