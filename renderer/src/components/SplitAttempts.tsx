import type { SplitAttemptView } from '../../../shared/contract';
import { plainSplitProblem } from '../../../shared/plainWords';
import { useOpenPart } from '../store';

const NONE: SplitAttemptView[] = [];

const OUTCOMES: Record<SplitAttemptView['outcome'], string> = {
  accepted: 'Accepted',
  validation_failed: 'Validation failed',
  review_failed: 'Review failed',
  invalid_reply: 'Invalid reply',
  fallback: 'Fell back to a deterministic split',
};

/** Expected against actual around the first difference; the differing tails are highlighted. */
export function DiffView({ expected, actual }: { expected: string; actual: string }) {
  let same = 0;
  while (same < expected.length && same < actual.length && expected[same] === actual[same]) same++;
  const show = (s: string) => s.replace(/\n/g, '⏎\n');
  return (
    <div className="diff" role="group" aria-label="First difference">
      <div className="diff__side">
        <div className="diff__label">Expected (document)</div>
        <pre>
          {show(expected.slice(0, same))}
          <mark className="diff__del">{show(expected.slice(same)) || '∅'}</mark>
        </pre>
      </div>
      <div className="diff__side">
        <div className="diff__label">Actual (joined chapters)</div>
        <pre>
          {show(actual.slice(0, same))}
          <mark className="diff__ins">{show(actual.slice(same)) || '∅'}</mark>
        </pre>
      </div>
    </div>
  );
}

export function SplitAttemptCard({ attempt }: { attempt: SplitAttemptView }) {
  // Accepted attempts carry the validator's notes (a tiny chapter merged into its neighbour): not errors.
  const notes = attempt.validationErrors.filter((e) => e.startsWith('note: ')).map((e) => e.slice('note: '.length));
  const errors = attempt.validationErrors.filter((e) => !e.startsWith('note: '));
  return (
    <article
      className={`attempt attempt--${attempt.outcome}`}
      data-testid="split-attempt"
      aria-label={`Attempt ${attempt.attempt}: ${OUTCOMES[attempt.outcome]}`}
    >
      <h4>
        Attempt {attempt.attempt} <span className={`badge badge--${attempt.outcome === 'accepted' ? 'done' : 'failed'}`}>{OUTCOMES[attempt.outcome]}</span>
      </h4>
      {attempt.chapters.length > 0 ? (
        <ol className="chapters" aria-label="Proposed chapters">
          {attempt.chapters.map((c) => (
            <li key={c.chapterIndex}>
              {c.chapterTitle} <span className="muted">(from line {c.chapterStartLineNumber})</span>
            </li>
          ))}
        </ol>
      ) : null}
      {attempt.review ? (
        <p>
          <strong>
            Review {attempt.review.passes ? 'passed' : 'failed'}
            {attempt.review.comments.trim() ? ':' : '.'}
          </strong>{' '}
          {attempt.review.comments}
        </p>
      ) : null}
      {errors.length > 0 ? (
        <ul className="validation-errors" aria-label="Validation errors">
          {errors.map((e, i) => (
            <li key={i}>{plainSplitProblem(e)}</li>
          ))}
        </ul>
      ) : null}
      {notes.length > 0 ? (
        <ul className="validation-notes" aria-label="Validation notes">
          {notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      ) : null}
      {attempt.diff ? (
        <>
          <p className="muted">First difference at offset {attempt.diff.offset.toLocaleString()}</p>
          <DiffView expected={attempt.diff.expectedContext} actual={attempt.diff.actualContext} />
        </>
      ) : null}
    </article>
  );
}

/** Every LLM tree-split attempt of the open document, grouped by node. */
export function SplitAttempts() {
  const attempts = useOpenPart('splits', (s) => s.attempts, NONE);
  const error = useOpenPart('splits', (s) => s.error, null);
  const byNode = new Map<string, SplitAttemptView[]>();
  for (const a of attempts) byNode.set(a.nodeKey, [...(byNode.get(a.nodeKey) ?? []), a]);
  return (
    <section aria-labelledby="split-title" className="panel" data-testid="split-attempts">
      <h2 id="split-title">Tree-split validation</h2>
      {error ? <p role="alert">{error}</p> : null}
      {attempts.length === 0 ? (
        <p className="empty">
          No LLM tree split was needed for this document (or it was analysed in rules-only mode). Attempts, review comments and diffs appear here when it runs.
        </p>
      ) : (
        [...byNode.entries()].map(([key, list]) => (
          <details key={key} open={list.some((a) => a.outcome !== 'accepted')} className="split-node">
            <summary>
              {list[0]!.nodePath.join(' › ') || 'Document'} — {list.length} attempt{list.length === 1 ? '' : 's'}
            </summary>
            {list.map((a) => (
              <SplitAttemptCard key={a.id} attempt={a} />
            ))}
          </details>
        ))
      )}
    </section>
  );
}
