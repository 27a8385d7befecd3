import { useMemo } from 'react';
import { onlyListedNote, type CheckPlace, type CompletenessVerdict } from '../../../shared/completeness';
import { picturePagesNote, placesToCheckOf, summarizeVerdict, verdictHeadline } from '../../../shared/runOutcome';
import { store, useOpenPart, useStore } from '../store';
import { printedSeverityWords, severityHeading } from '../severityWords';
import { TableHead } from './TableHead';
import { useOpenReview } from './triage/useOpenReview';

const STATUS_BADGE: Record<CompletenessVerdict['status'], string> = {
  complete: 'badge badge--done',
  check: 'badge badge--failed',
  'no-stated-totals': 'badge badge--paused',
};

/** Shows the chunk that holds a page: the place to check, in the document's own text. */
function openPage(documentId: number, page: number) {
  void store().doc.show(documentId, 'document', { page });
}

function PageLink({ documentId, page }: { documentId: number; page: number | null }) {
  if (page === null) return null;
  return (
    <>
      <button type="button" className="link" data-testid="completeness-page" onClick={() => openPage(documentId, page)}>
        p. {page}
      </button>
      {': '}
    </>
  );
}

function statedText(verdict: CompletenessVerdict, severity: string | null): string {
  const counts = verdict.stated.filter((c) => c.severity !== null && c.severity === severity);
  return counts.length === 0 ? '—' : counts.map((c) => `${c.label} ${c.count}`).join(' + ');
}

const NO_PAGES: number[] = [];

/**
 * The open document's completeness verdict: "Complete" only when every check
 * agrees, "Check these N places" with a link to each place's page, or the
 * neutral "No stated totals to check against".
 */
export function CompletenessPanel() {
  const documentId = useStore((s) => s.doc.openId);
  const view = useOpenPart('completeness', (c) => c.view, null);
  const error = useOpenPart('completeness', (c) => c.error, null);
  // Pages OCR found no words on hold only pictures: noted in the one quiet sentence, never a place to check.
  const picturePages = useOpenPart('health', (h) => h.health?.picturePages ?? NO_PAGES, NO_PAGES);
  // The document's words for the scale's severities ("Major" for High), read from its findings as the queue shows them.
  const reviewed = useOpenReview((r) => r.view?.findings ?? null, null);
  const printedWords = useMemo(() => printedSeverityWords(reviewed ?? []), [reviewed]);

  if (documentId === null) return null;
  const verdict = view?.verdict ?? null;
  const summary = verdict ? summarizeVerdict(verdict, picturePages) : null;
  const places = verdict ? placesToCheckOf(verdict, picturePages) : [];
  // The verdict leaves these pages out of its places already; the note names them, as the report does.
  const picturesNote = verdict ? picturePagesNote(picturePages) : null;
  return (
    <section aria-labelledby="completeness-title" className="panel completeness" data-testid="completeness" data-status={summary?.status ?? 'none'}>
      <h2 id="completeness-title">
        Completeness{view?.runId ? ` (run #${view.runId})` : ''}{' '}
        {summary ? (
          <span className={STATUS_BADGE[summary.status]} data-testid="completeness-headline">
            {verdictHeadline(summary)}
          </span>
        ) : null}
      </h2>
      {error ? <p role="alert">{error}</p> : null}
      {view && !verdict ? <p className="empty">Not checked yet: a full analysis compares the findings with what the document states.</p> : null}
      {verdict ? (
        <>
          <table className="table table--compact" data-testid="completeness-tallies">
            <TableHead columns={['Severity', 'Stated', 'Listed', 'Found']} />
            <tbody>
              {verdict.tallies.map((t) => (
                <tr key={t.severity ?? 'off-scale'} data-severity={t.severity ?? 'off-scale'}>
                  <th scope="row">{t.severity === null ? 'off the scale' : severityHeading(t.severity, printedWords)}</th>
                  <td>{statedText(verdict, t.severity)}</td>
                  <td>{t.listed ?? '—'}</td>
                  <td>
                    {t.found}
                    {t.onlyListed ? `, and ${t.onlyListed} only listed` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {onlyListedNote(verdict) ? (
            <p className="muted" data-testid="completeness-only-listed">
              {onlyListedNote(verdict)}
            </p>
          ) : null}
          {verdict.stated.length > 0 ? (
            <p className="muted">
              Stated on <PageLink documentId={documentId} page={verdict.stated[0]!.page} />
              {verdict.stated.map((c) => `“${c.text}”`).join(', ')}
              {verdict.usedLlm ? ' (read by the language model; each quote found in the document)' : ''}
            </p>
          ) : null}
          {places.length > 0 ? (
            <ol className="completeness__places" data-testid="completeness-places">
              {places.map((place: CheckPlace, i) => (
                <li key={i} data-kind={place.kind}>
                  <PageLink documentId={documentId} page={place.page} />
                  {place.message}
                </li>
              ))}
            </ol>
          ) : null}
          {picturesNote ? (
            <p className="muted" data-testid="completeness-pictures">
              {picturesNote}
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
