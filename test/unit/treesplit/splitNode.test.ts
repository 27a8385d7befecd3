import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors';
import { splitOneNode, type AttemptRecord } from '../../../electron/engine/treesplit/splitNode';
import { useTempDir } from '../../helpers/tempDir';
import { sectionedDoc, splitContext, wholeNode, type ScriptedCall } from './splitContextFixture';

const tempDir = useTempDir('treesplit-node-');

/** Start lines of the "Section N overview" headings in a sectionedDoc of 4 lines a section: 1, 7, 13, ... */
const headings = (n: number) => Array.from({ length: n }, (_, i) => ({ line: 1 + i * 7, title: `Section ${i + 1}` }));

async function run(reply: (call: ScriptedCall, n: number) => unknown, options = {}) {
  const doc = sectionedDoc(4, 4);
  const { ctx, calls } = splitContext(tempDir(), doc, reply, { minChapterChars: 10, ...options });
  const records: AttemptRecord[] = [];
  const progress: string[] = [];
  const outcome = await splitOneNode(
    ctx,
    wholeNode(doc),
    (_, m) => progress.push(m),
    (a) => records.push(a),
  );
  return { outcome, calls, records, progress, ctx };
}

describe('splitOneNode', () => {
  it('accepts a valid split after its review passes, recording one accepted attempt', async () => {
    const r = await run((c) => (c.purpose === 'split' ? { chapters: headings(4) } : { passes: true, comments: '' }));
    expect(r.outcome.ok).toBe(true);
    if (r.outcome.ok) expect(r.outcome.chapters.map((c) => c.startLine)).toEqual([1, 8, 15, 22]);
    expect(r.calls.map((c) => c.purpose)).toEqual(['split', 'review']);
    expect(r.records.map((a) => a.outcome)).toEqual(['accepted']);
    expect(r.progress.at(-1)).toBe('accepted 4 chapters');
  });
  it('sends a failed review back with its comments and accepts the corrected answer', async () => {
    const r = await run((c, n) => {
      if (c.purpose === 'review') return n === 2 ? { passes: false, comments: 'chapter 2 starts mid-paragraph' } : { passes: true, comments: '' };
      return {
        chapters:
          n === 1
            ? [
                { line: 1, title: 'A' },
                { line: 10, title: 'B' },
              ]
            : headings(4),
      };
    });
    expect(r.outcome.ok).toBe(true);
    expect(r.records.map((a) => a.outcome)).toEqual(['review_failed', 'accepted']);
    expect(r.calls[2]!.user).toMatch(/Reviewer comments: chapter 2 starts mid-paragraph/);
  });
  it('gives up early when the model repeats the same rejected answer', async () => {
    const r = await run(
      (c) =>
        c.purpose === 'split'
          ? {
              chapters: [
                { line: 3, title: 'late' },
                { line: 3, title: 'same' },
              ],
            }
          : { passes: true, comments: '' },
      { maxIdenticalFailures: 2 },
    );
    expect(r.outcome.ok).toBe(false);
    if (!r.outcome.ok) {
      expect(r.outcome.reason).toMatch(/^the model returned the same rejected answer 2 times in a row/);
      expect(r.outcome.attemptsMade).toBe(2);
    }
    expect(r.records.map((a) => a.outcome)).toEqual(['validation_failed', 'validation_failed']);
  });
  it('counts an invalid reply as an attempt and rethrows what is not a reply problem', async () => {
    const invalid = await run((c, n) =>
      n === 1 ? new AppError(ErrorCode.LLM_INVALID_REPLY, 'not JSON') : c.purpose === 'split' ? { chapters: headings(4) } : { passes: true, comments: '' },
    );
    expect(invalid.outcome.ok).toBe(true);
    expect(invalid.records.map((a) => a.outcome)).toEqual(['invalid_reply', 'accepted']);
    expect(invalid.ctx.stats.attempts).toBe(2);
    await expect(run(() => new AppError(ErrorCode.OLLAMA_UNREACHABLE, 'down'))).rejects.toMatchObject({ code: ErrorCode.OLLAMA_UNREACHABLE });
  });
});
