/**
 * How a run, a file or a document is worded (shared/runOutcome.ts), for the trial rows it answers (2026-11-28):
 * a document analysed but for a few parts is "Done with problems" with the pages as ranges, never a red "Failed"
 * (row 9), and a file its run never started says why instead of a plain "Queued" (row 6).
 */
import { describe, expect, it } from 'vitest';
import type { ErrorInfo } from '../../../shared/errors';
import { describeProblems, notStartedOutcome, outcomeOf, problemsOf, shownStatus } from '../../../shared/runOutcome';

/** The error the engine records for a document whose analysis failed in some chunks (documentPipeline.analyzeDocument). */
const partial: ErrorInfo = {
  code: 'LLM_INVALID_REPLY',
  message: '8 of 463 chunks could not be analysed (pages 83-87, 90-92): the reply was cut at the length limit.',
  details: { failedChunks: [301, 302, 303, 304, 305, 306, 307, 312], failedPages: [83, 84, 85, 86, 87, 90, 91, 92] },
};

describe('a document analysed but for some parts', () => {
  it('is shown done, with its parts and their pages as ranges', () => {
    expect(shownStatus('failed', partial)).toBe('done');
    const problems = problemsOf([{ status: 'failed', error: partial }]);
    expect(problems.failedFiles).toBe(0);
    expect(outcomeOf(shownStatus('failed', partial), problems)).toEqual({
      label: 'Done with problems',
      tone: 'warn',
      problems: '8 parts not analysed (pp. 83-87, 90-92)',
    });
  });

  it('counts a run of such files and of files that failed as a whole apart', () => {
    const whole: ErrorInfo = { code: 'PDF_ENCRYPTED', message: 'The file needs a password.' };
    const problems = problemsOf([
      { status: 'failed', error: partial },
      { status: 'failed', error: whole },
      { status: 'done', error: null },
    ]);
    expect(describeProblems(problems)).toBe('1 file failed, 8 parts not analysed (pp. 83-87, 90-92)');
    expect(shownStatus('failed', whole)).toBe('failed');
  });

  it('names one page as "p."', () => {
    expect(describeProblems({ failedFiles: 0, pagesWithoutText: 0, picturePages: [], unreadablePages: 0, failedChunks: 2, failedChunkPages: [7, 7] })).toBe(
      '2 parts not analysed (p. 7)',
    );
  });
});

describe('a file its run never started', () => {
  it.each([
    ['paused', 'Not started: run paused'],
    ['cancelled', 'Not started: run cancelled'],
    ['failed', 'Not started: run stopped'],
  ] as const)('in a %s run reads "%s"', (run, label) => {
    expect(notStartedOutcome('queued', run)).toEqual({ label, tone: 'idle', problems: null });
  });

  it('is plainly queued while its run works, and any other file keeps its own status', () => {
    expect(notStartedOutcome('queued', 'running')).toBeNull();
    expect(notStartedOutcome('done', 'cancelled')).toBeNull();
  });
});
