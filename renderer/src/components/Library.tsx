import type { DocumentSummary, RunProgressPayload, RunView } from '../../../shared/contract';
import { outcomeOf, picturePagesNote, problemsOf } from '../../../shared/runOutcome';
import { formatWhen } from '../format';
import { useAppStore } from '../stores/useAppStore';
import { useDocumentsStore } from '../stores/useDocumentsStore';
import { useReviewStore } from '../stores/useReviewStore';
import { useRunsStore } from '../stores/useRunsStore';
import { useTreeStore } from '../stores/useTreeStore';
import { PHASES } from './RunView';
import { StatusBadge } from './StatusBadge';
import { TableHead } from './TableHead';

/** Findings a run reports so far for the document it is working on (merged and counted when it ends). */
function findingsSoFar(documentId: number, progress: Record<number, RunProgressPayload>): number | null {
  for (const payload of Object.values(progress)) {
    const current = payload.inputs.find((i) => i.status === 'running');
    if ((payload.event.documentId ?? current?.documentId) === documentId && payload.event.findings !== undefined) return payload.event.findings;
  }
  return null;
}

/** The document's outcome in its last run, with what that run left out of it (pages without text...) and what its completeness verdict asks to check. */
function documentOutcome(d: DocumentSummary, runs: readonly RunView[]) {
  const input = runs.find((r) => r.id === d.lastRun?.runId)?.inputs.find((i) => i.documentId === d.id);
  const problems = problemsOf([{ status: 'done', warnings: input?.warnings ?? [] }]);
  return { ...outcomeOf(d.status, problems, d.verdict), pictures: d.status === 'done' ? picturePagesNote(problems.picturePages) : null };
}

/** Every stored document: pages, status in its last run, findings, last run. */
export function Library() {
  const documents = useDocumentsStore((s) => s.documents);
  const loaded = useDocumentsStore((s) => s.loaded);
  const error = useDocumentsStore((s) => s.error);
  const runs = useRunsStore((s) => s.runs);
  const progress = useRunsStore((s) => s.progress);
  const importing = useDocumentsStore((s) => s.importing);
  // Files a run is still reading: listed at once with their state, before they become documents.
  const pending = runs.flatMap((r) =>
    r.status === 'running' || r.status === 'queued' || r.active
      ? r.inputs.filter((i) => (i.status === 'running' || i.status === 'queued') && (i.documentId === null || !documents.some((d) => d.id === i.documentId))).map((i) => ({ run: r.id, input: i }))
      : [],
  );
  const open = (id: number) => {
    void useTreeStore.getState().open(id);
    useAppStore.getState().openDocument('library');
  };
  const review = (id: number) => {
    void useReviewStore.getState().load(id);
    useAppStore.getState().setView('findings');
  };
  return (
    <section aria-labelledby="library-title" className="panel">
      <h2 id="library-title">Document library</h2>
      {error ? <p role="alert">{error}</p> : null}
      {loaded && documents.length === 0 && pending.length === 0 && !importing ? (
        <p className="empty">No documents yet. Drop PDFs above to analyse them.</p>
      ) : (
        <table className="table" data-testid="library">
          <TableHead columns={['Document', 'Pages', 'Status', 'Findings', 'Last run', { hidden: 'Actions' }]} />
          <tbody>
            {pending.map(({ run, input }) => (
              <tr key={`pending-${run}-${input.ordinal}`} data-document={input.fileName} data-pending="true">
                <th scope="row" className="cell-name">
                  {input.fileName}
                </th>
                <td>—</td>
                <td>
                  {input.status === 'queued' ? (
                    // The run card's word and badge for a file not started yet.
                    <StatusBadge status="queued" />
                  ) : (
                    <span className="badge badge--busy" data-status={input.status}>
                      <span aria-hidden="true">↻ </span>
                      {input.progress?.phase === 'ocr' ? PHASES.ocr : PHASES.ingest}
                    </span>
                  )}
                </td>
                <td>—</td>
                <td>#{run}, now</td>
                <td />
              </tr>
            ))}
            {documents.map((d) => {
              const outcome = documentOutcome(d, runs);
              return (
                <tr key={d.id} data-document={d.fileName}>
                  <th scope="row" className="cell-name">
                    {d.fileName}
                  </th>
                  <td>{d.pageCount}</td>
                  <td>
                    <StatusBadge status={d.status} outcome={outcome} />
                    {outcome.problems ? <div className="cell-note">{outcome.problems}</div> : null}
                    {outcome.pictures ? <div className="cell-note muted">{outcome.pictures}</div> : null}
                  </td>
                  <td>
                    {findingsSoFar(d.id, progress) !== null ? (
                      <span data-testid="findings-so-far">{findingsSoFar(d.id, progress)} so far</span>
                    ) : d.findingsCount === null ? (
                      <span title="Findings appear after a full analysis">—</span>
                    ) : (
                      <>
                        {d.findingsCount}
                        {/* Beside "5 of 12 stated findings found": the rest are rows of the document's own list whose sections the model reported nothing for. */}
                        {(d.listedOnlyCount ?? 0) > 0 ? <div className="cell-note" data-testid="listed-only" title="Known only from a row of the document's own list of findings: the model reported nothing for its section">{d.listedOnlyCount} only listed</div> : null}
                      </>
                    )}
                  </td>
                  <td className="cell-when">
                    {d.lastRun ? (
                      <>
                        #{d.lastRun.runId}, <span className="cell-when__at">{formatWhen(d.lastRun.at)}</span>
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="cell-actions">
                    <button type="button" className="button button--small" onClick={() => review(d.id)} aria-label={`Findings of ${d.fileName}`}>
                      Findings
                    </button>{' '}
                    <button type="button" className="button button--small" onClick={() => open(d.id)} aria-label={`Open ${d.fileName}`}>
                      Open
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
