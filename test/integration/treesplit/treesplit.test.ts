import { afterEach, describe, expect, it } from 'vitest';
import { validateLeaves, validateTree } from '../../../electron/engine/chunking';
import { completeListEntries } from '../../../electron/engine/llm';
import { listSplitAttempts, splitTreeWithLlm, type TreeSplitInput } from '../../../electron/engine/treesplit';
import type { ExtractedDocument } from '../../../shared/types';
import type { Responder, SimChatRequest } from '../../ollama-sim/index';
import { harness, type Harness } from '../llm/helpers';
import { chapters, isReview, isSplit, makeDoc, PASS, plausibleSplit, shownLines, storeDoc, userText } from './helpers';

const MODEL = 'llama3.1:8b';
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Scripted split replies in order (then `then`), plausible reviews that pass. */
function scripted(splits: ((req: SimChatRequest) => string)[], review: Responder = () => PASS, then = plausibleSplit): Responder {
  let i = 0;
  return (req) => (isReview(req) ? review(req) : (splits[i++] ?? then)(req));
}

async function run(doc: ExtractedDocument, extra: Partial<TreeSplitInput> = {}, options: TreeSplitInput['options'] = {}) {
  const documentId = storeDoc(h!.db, doc);
  const progress: string[] = [];
  const result = await splitTreeWithLlm(
    { llm: h!.client, db: h!.db },
    { doc, documentId, model: MODEL, numCtx: 8192, options: { leafTokens: 2000, ...options }, onProgress: (e) => progress.push(e.message), ...extra },
  );
  const valid = validateTree(result.nodes, doc.pages);
  expect(valid).toEqual({ ok: true });
  expect(
    validateLeaves(
      doc.text,
      result.nodes.filter((n) => n.isLeaf),
    ),
  ).toEqual({ ok: true });
  return { result, documentId, progress, attempts: listSplitAttempts(h!.db, { documentId }) };
}

/** 6 titled sections of about 600 tokens each: one split at the root, no recursion with leafTokens 2000. */
const smallDoc = () => makeDoc({ sections: 6, paragraphsPerSection: 5 });

describe('LLM tree split against the simulator', () => {
  it('accepts a valid split: chapters with level, path, pages, offsets, origin llm; attempt and review stored', async () => {
    h = await harness({ responder: scripted([]) });
    const doc = smallDoc();
    const { result, attempts, progress } = await run(doc);
    const chaptersNodes = result.nodes.filter((n) => n.parentIndex === 0);
    expect(chaptersNodes).toHaveLength(6);
    expect(chaptersNodes[0]).toMatchObject({
      title: 'Topic 1 audit matters',
      section: { level: 1, path: ['Topic 1 audit matters'] },
      origin: 'llm',
      isLeaf: true,
      start: 0,
      pageStart: 1,
    });
    expect(chaptersNodes.at(-1)!.pageEnd).toBe(doc.pageCount);
    expect(result.nodes[0]).toMatchObject({ section: { level: 0, path: [] }, origin: 'root', start: 0, end: doc.text.length });
    expect(result).toMatchObject({ attempts: 1, fallbacks: [], llmCalls: 2 });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, outcome: 'accepted', review: { passes: true }, nodeKey: `0-${doc.text.length}` });
    expect(attempts[0]!.llmCallIds).toHaveLength(2);
    expect(progress).toContain('tree split: node 1/1, attempt 1/20, accepted 6 chapters');
    // The review saw only the starts with their surroundings, not the whole text.
    const review = h.sim.requests.find(isReview)!;
    expect(shownLines(review).length).toBeLessThanOrEqual(6 * 7);
  });

  const invalid: [string, (req: SimChatRequest) => string, RegExp][] = [
    ['not increasing', () => chapters([1, 60, 40]), /chapter "Chapter 3" starts at line 40, not after the previous chapter's line 60/],
    ['an empty chapter', () => chapters([1, 2, 3, 40]), /chapter 2 .* is empty/],
  ];
  for (const [name, reply, message] of invalid) {
    it(`counts ${name} as a failed attempt and tells the next attempt what failed`, async () => {
      h = await harness({ responder: scripted([reply]) });
      const { result, attempts, progress } = await run(smallDoc());
      expect(attempts.map((a) => a.outcome)).toEqual(['validation_failed', 'accepted']);
      expect(attempts[0]!.validationErrors.join('\n')).toMatch(message);
      expect(result.attempts).toBe(2);
      expect(progress.some((p) => /^tree split: node 1\/1, attempt 1\/20, validation failed: /.test(p) && message.test(p))).toBe(true);
      const secondSplit = h.sim.requests.filter(isSplit)[1]!;
      expect(userText(secondSplit)).toMatch(message);
      expect(userText(secondSplit)).toContain('Attempt 2 of 20');
    });
  }

  it('merges a tiny chapter into its neighbour instead of failing', async () => {
    // Line 1 is the title and line 2 blank: a 2-line first chapter is under the minimum and joins the next one.
    h = await harness({ responder: scripted([() => chapters([1, 3, 28, 56, 83, 111, 138])]) });
    const { result, attempts } = await run(smallDoc(), {}, { minChapterChars: 200 });
    expect(attempts.map((a) => a.outcome)).toEqual(['accepted']);
    expect(attempts[0]!.validationErrors.join('\n')).toMatch(/shorter than 200 characters: merged into/);
    const top = result.nodes.filter((n) => n.parentIndex === 0);
    expect(top).toHaveLength(6);
    expect(top[0]).toMatchObject({ start: 0, title: 'Chapter 2' });
  });

  it('refuses a split with one chapter covering everything (no progress)', async () => {
    h = await harness({ responder: scripted([() => chapters([1])]) });
    const { attempts } = await run(smallDoc());
    expect(attempts[0]).toMatchObject({ outcome: 'validation_failed' });
    expect(attempts[0]!.validationErrors[0]).toMatch(/no progress/);
  });

  it('keeps the complete chapters of a cut JSON reply and asks only for the lines after the last of them', async () => {
    h = await harness({ responder: scripted([]), faults: [{ fault: { kind: 'cutJson' }, onRequest: 0 }] });
    const { attempts } = await run(smallDoc());
    expect(attempts.map((a) => a.outcome)).toEqual(['accepted']);
    // No retry with a larger limit: the cut reply is used, then one request for the rest.
    expect(h.rows("purpose = 'split'").map((r) => [r.outcome, r.done_reason])).toEqual([
      ['ok', 'length'],
      ['ok', 'stop'],
    ]);
    const [cutRequest, restRequest] = h.sim.requests.filter(isSplit);
    // What the cut reply wrote whole (the simulator keeps the first half of the plausible reply).
    const whole = plausibleSplit(cutRequest!);
    const written = completeListEntries(whole.slice(0, Math.floor(whole.length / 2)), 'chapters').entries.map((e) =>
      e.parsed ? (e.value as { line: number }).line : NaN,
    );
    expect(written.length).toBeGreaterThanOrEqual(2);
    const accepted = attempts[0]!.chapters.map((c) => c.chapterStartLineNumber);
    for (const line of written) expect(accepted).toContain(line);
    // The second request starts at the first line shown after the last complete chapter, and shows nothing before it.
    const last = written.at(-1)!;
    const nextShown = shownLines(cutRequest!).find(([n]) => n > last)!;
    expect(shownLines(restRequest!)[0]![1]).toBe(nextShown[1]);
    expect(userText(restRequest!)).not.toContain(shownLines(cutRequest!).find(([n]) => n === last)![1]);
    expect(attempts[0]!.validationErrors).toContain(
      `note: part 1: the reply was cut at the length limit after ${written.length} complete chapters; the lines from ${nextShown[0]} on were asked for on their own`,
    );
  });

  it('asks a window again in halves, for top-level chapters, when its reply was cut before a chapter past the first line', async () => {
    h = await harness({ responder: scripted([]), faults: [{ fault: { kind: 'cutJson', keepChars: 30 }, onRequest: 0 }] });
    const { attempts } = await run(makeDoc({ sections: 6, paragraphsPerSection: 5, name: 'other.txt' }));
    expect(attempts.map((a) => a.outcome)).toEqual(['invalid_reply', 'accepted']);
    expect(attempts[0]!.validationErrors[0]).toMatch(
      /^invalid reply: The reply was cut at the length limit before it listed a chapter past the first line shown/,
    );
    expect(attempts[0]!.llmCallIds).toHaveLength(1);
    const later = h.sim.requests.filter(isSplit).slice(1);
    expect(later.length).toBeGreaterThanOrEqual(1);
    for (const request of later) expect(userText(request)).toContain('only the top-level sections');
  });

  it('reads JSON wrapped in code fences', async () => {
    h = await harness({ responder: scripted([]), faults: [{ fault: { kind: 'codeFences' }, times: 2 }] });
    const { attempts } = await run(smallDoc());
    expect(attempts.map((a) => a.outcome)).toEqual(['accepted']);
  });

  it('retries after a failing review and feeds its comments back', async () => {
    let reviews = 0;
    const review = () => (reviews++ === 0 ? JSON.stringify({ passes: false, comments: 'Chapter 3 starts inside a paragraph about the ledger.' }) : PASS);
    h = await harness({ responder: scripted([], review) });
    const { attempts, progress } = await run(smallDoc());
    expect(attempts.map((a) => a.outcome)).toEqual(['review_failed', 'accepted']);
    expect(attempts[0]!.review).toEqual({ passes: false, comments: 'Chapter 3 starts inside a paragraph about the ledger.' });
    expect(progress).toContain('tree split: node 1/1, attempt 1/20, review failed: Chapter 3 starts inside a paragraph about the ledger.');
    expect(userText(h.sim.requests.filter(isSplit)[1]!)).toContain('Reviewer comments: Chapter 3 starts inside a paragraph');
  });

  it('does not treat a failing review that says "passes" as a pass', async () => {
    const review = () => JSON.stringify({ passes: false, comments: 'The split passes most checks, but chapter 2 passes through a sentence: it fails.' });
    h = await harness({ responder: scripted([], review) });
    const { result, attempts } = await run(smallDoc(), {}, { maxAttempts: 3 });
    // The same split with the same failing review twice in a row: the model will not converge, so the node falls back.
    expect(attempts.map((a) => a.outcome)).toEqual(['review_failed', 'review_failed', 'fallback']);
    expect(result.fallbacks).toHaveLength(1);
    expect(result.nodes.filter((n) => n.origin === 'llm')).toHaveLength(0);
  });

  it('falls back to the deterministic splitter after maxAttempts, with a bounded number of calls and the reason', async () => {
    h = await harness({ responder: () => chapters([1, 50, 20]) });
    const doc = smallDoc();
    // The early stop for a model repeating itself is off here: this test is about the attempt bound.
    const { result, attempts, progress } = await run(doc, {}, { maxAttempts: 5, leafTokens: 600, maxIdenticalFailures: 0 });
    expect(attempts).toHaveLength(6);
    expect(attempts.slice(0, 5).every((a) => a.outcome === 'validation_failed')).toBe(true);
    expect(attempts[5]).toMatchObject({ outcome: 'fallback', attempt: 6 });
    expect(result.fallbacks).toEqual([
      {
        node: doc.fileName,
        reason: expect.stringMatching(
          /no valid split after 5 attempts \(last: validation failed: chapter "Chapter 3" starts at line 20, not after the previous chapter's line 50/,
        ),
      },
    ]);
    expect(h.sim.counters.chatRequests).toBeLessThanOrEqual(5 * 2);
    expect(result.llmCalls).toBeLessThanOrEqual(10);
    const leaves = result.nodes.filter((n) => n.isLeaf);
    expect(leaves.length).toBeGreaterThan(1);
    expect(leaves.every((n) => n.origin === 'page' || n.origin === 'sentence')).toBe(true);
    expect(progress.at(-1)).toMatch(/^tree split: node 1\/1, fallback to the (pages|sentences) splitter: no valid split after 5 attempts/);
  });

  it('gives up early when the model repeats the same rejected split despite the feedback', async () => {
    h = await harness({ responder: () => chapters([1, 50, 20]) });
    const doc = smallDoc();
    const { result, attempts } = await run(doc, {}, { maxAttempts: 20, leafTokens: 600 });
    // Two identical rejections, then the fallback: not twenty.
    expect(attempts.map((a) => a.outcome)).toEqual(['validation_failed', 'validation_failed', 'fallback']);
    expect(result.fallbacks).toEqual([{ node: doc.fileName, reason: expect.stringMatching(/same rejected answer 2 times in a row/) }]);
    expect(h.sim.counters.chatRequests).toBe(2);
  });

  it('splits a document larger than the context into windows without truncating any prompt', async () => {
    h = await harness({ responder: scripted([]) });
    const doc = makeDoc({ sections: 1, paragraphsPerSection: 260, linesPerParagraph: 5, titles: false });
    const numCtx = 2048;
    const { result, attempts } = await run(doc, { numCtx }, { leafTokens: 6000, viewTokenRatio: 0.6 });
    const splitRequests = h.sim.requests.filter(isSplit);
    expect(splitRequests.length).toBeGreaterThan(2);
    expect(h.rows("purpose = 'split'").some((r) => String(r.chunk_ref).includes('#2'))).toBe(true);
    for (const r of h.sim.requests) {
      expect(r.truncated).toBe(false);
      expect(r.promptTokens).toBeLessThanOrEqual(numCtx);
    }
    expect(h.sim.counters.truncations).toBe(0);
    // Reconciled: one accepted proposal for the root, strictly increasing starts, no duplicates.
    const root = attempts.find((a) => a.nodeKey === `0-${doc.text.length}` && a.outcome === 'accepted')!;
    const starts = root.chapters.map((c) => c.chapterStartLineNumber);
    expect(starts[0]).toBe(1);
    expect(starts.every((s, i) => i === 0 || s > starts[i - 1]!)).toBe(true);
    expect(result.fallbacks).toEqual([]);
  });

  it('splits a long chapter again (recursion), with deeper paths', async () => {
    // Root: a short first chapter and one long chapter; the long one is split again by the plausible model.
    const doc = makeDoc({ sections: 2, paragraphsPerSection: 30, titles: true });
    const second = doc.text.split('\n').findIndex((l) => l.startsWith('Topic 2')) + 1;
    h = await harness({ responder: scripted([() => chapters([1, second])]) });
    const { result, progress } = await run(doc, {}, { leafTokens: 1200 });
    const deep = result.nodes.filter((n) => n.section.level === 2);
    expect(deep.length).toBeGreaterThanOrEqual(2);
    expect(deep.every((n) => n.origin === 'llm' && n.section.path.length === 2)).toBe(true);
    expect(result.nodes.filter((n) => n.isLeaf).every((n) => n.tokenEstimate <= 1200)).toBe(true);
    expect(progress.some((p) => p.startsWith('tree split: node 2/3'))).toBe(true);
  });

  it('respects the depth limit with a deterministic fallback', async () => {
    h = await harness({ responder: scripted([]) });
    const doc = makeDoc({ sections: 1, paragraphsPerSection: 40, titles: false });
    const { result } = await run(doc, {}, { leafTokens: 300, maxDepth: 1, maxChaptersPerCall: 3 });
    expect(result.fallbacks.length).toBeGreaterThan(0);
    expect(result.fallbacks.every((f) => /depth limit 1/.test(f.reason))).toBe(true);
  });

  it('counts non-blank lines when the line limit is set', async () => {
    h = await harness({ responder: scripted([]) });
    const doc = smallDoc();
    const { result } = await run(doc, {}, { leafLineLimit: 15, leafTokens: 5000 });
    const leaves = result.nodes.filter((n) => n.isLeaf);
    for (const leaf of leaves) {
      const nonBlank = doc.text
        .slice(leaf.start, leaf.end)
        .split('\n')
        .filter((l) => l.trim() !== '').length;
      expect(nonBlank).toBeLessThanOrEqual(15);
    }
  });
});
