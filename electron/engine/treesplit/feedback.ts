/** What a rejected attempt tells the next one, and the clipping every prompt line of the tree split uses. */
import type { ProposedChapter } from '../../../shared/treesplit';
import type { TextDiff } from '../../../shared/types';

/** Feedback is clipped to this, and its room is reserved when the windows are planned, so their bounds never move. */
export const FEEDBACK_MAX_CHARS = 1200;

export function clipText(s: string, chars: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= chars ? t : `${t.slice(0, chars).trimEnd()}…`;
}

/** What the next attempt is told: the previous starts, the errors, the diff and the review comments. */
export function feedbackText(
  attempt: number,
  maxAttempts: number,
  previous: readonly ProposedChapter[],
  errors: readonly string[],
  diff: TextDiff | null,
  reviewComments: string | null,
): string {
  const lines = [`Attempt ${attempt + 1} of ${maxAttempts}. Your previous proposal (attempt ${attempt}) was rejected.`];
  if (previous.length > 0) {
    const starts = previous
      .slice(0, 60)
      .map((c) => c.chapterStartLineNumber)
      .join(', ');
    lines.push(`Its chapter start lines were: ${starts}${previous.length > 60 ? ', ...' : ''}.`);
  }
  if (errors.length > 0) lines.push('Problems:', ...errors.slice(0, 10).map((e) => `- ${e}`));
  if (diff)
    lines.push(
      `First difference between the text and the joined chapters: expected "${clipText(diff.expectedContext, 160)}" but got "${clipText(diff.actualContext, 160)}".`,
    );
  if (reviewComments !== null) lines.push(`Reviewer comments: ${clipText(reviewComments, 1500) || '(none)'}`);
  lines.push('Propose a corrected split.');
  return lines.join('\n');
}
