import type { DocumentSummary, RunInputView, RunProgressPayload, RunView } from '../../../shared/contract';
import { notStartedOutcome, outcomeOf, picturePagesNote, problemsOf, shownStatus } from '../../../shared/runOutcome';
import { plural, formatWhen } from '../format';
import { store, useStore } from '../store';
import { PHASES } from './RunView';
import { StatusBadge } from './StatusBadge';
import { TableHead } from './TableHead';

/** Findings a run reports so far for a document it is working on (merged and counted when it ends): that file's own count. */
function findingsSoFar(documentId: number, progress: Record<number, RunProgressPayload>): number | null {
  for (const payload of Object.values(progress)) {
    const input = payload.inputs.find((i) => i.status === 'running' && i.documentId === documentId);
    if (input?.progress?.findings !== undefined) return input.progress.findings;
  }
  return null;
}

/** The document's outcome in its last run, with what that run left out of it (pages without text...) and what its completeness verdict asks to check. */
function documentOutcome(d: DocumentSummary, runs: readonly RunView[]) {
  const input = runs.find((r) => r.id === d.lastRun?.runId)?.inputs.find((i) => i.documentId === d.id);
  const problems = problemsOf([{ status: 'done', warnings: input?.warnings ?? [], error: d.error }]);
  const notStarted = notStartedOutcome(d.status, d.lastRun?.status);
  const status = shownStatus(d.status, d.error);
  return { ...(notStarted ?? outcomeOf(status, problems, d.verdict)), pictures: status === 'done' ? picturePagesNote(problems.picturePages) : null };
}

/**
 * Files of a run that are not documents yet: listed at once with their state, and kept while their run is paused
 * or after it was cancelled ("Not started: run cancelled"), so a file added is never missing from the library.
 */
function pendingFiles(runs: readonly RunView[], documents: readonly DocumentSummary[]): { run: RunView; input: RunInputView }[] {
  return runs.flatMap((run) =>
    run.status === 'done' && !run.active
      ? []
      : run.inputs
          .filter((i) => i.status !== 'done' && i.status !== 'failed' && (i.documentId === null || !documents.some((d) => d.id === i.documentId)))
          // A file a later run has read since is that run's document now.
          .filter((i) => !documents.some((d) => d.fileName === i.fileName && (d.lastRun?.runId ?? 0) > run.id))
          .map((input) => ({ run, input })),
  );
}

function PendingStatus({ run, input }: { run: RunView; input: RunInputView }) {
  const notStarted = notStartedOutcome(input.status, run.active ? 'running' : run.status);
  if (notStarted) return <StatusBadge status={input.status} outcome={notStarted} />;
  if (input.status === 'queued') return <StatusBadge status="queued" />;
  if (input.status === 'paused' || input.status === 'cancelled') {
    return (
      <StatusBadge
        status={input.status}
        outcome={{
          label: `${input.status === 'paused' ? 'Paused' : 'Cancelled'} while ${(PHASES[input.phase ?? 'ingest'] ?? 'reading').toLowerCase()}`,
          tone: 'warn',
          problems: null,
        }}
      />
    );
  }
  return (
    <span className="badge badge--busy" data-status={input.status}>
      <span aria-hidden="true">↻ </span>
      {input.progress?.phase === 'ocr' ? PHASES.ocr : PHASES.ingest}
    </span>
  );
}

/** The Findings cell: merged findings, or what a run has reported so far (running, paused or cancelled part-way). */
function FindingsCell({ d, progress }: { d: DocumentSummary; progress: Record<number, RunProgressPayload> }) {
  const live = findingsSoFar(d.id, progress);
  const soFar = live ?? d.arrivingCount ?? null;
  if (soFar !== null && (live !== null || d.status !== 'done')) {
    const stopped = d.status === 'paused' || d.status === 'cancelled';
    return (
      <span
        data-testid="findings-so-far"
        title={
          stopped
            ? `Reported before the run was ${d.status}; they join the review when it is resumed and finishes`
            : 'Reported so far; they join the review when the run finishes'
        }
      >
        {soFar} so far
        {stopped ? <div className="cell-note"> run {d.status}</div> : null}
      </span>
    );
  }
  if (d.findingsCount === null) return <span title="Findings appear after a full analysis">—</span>;
  return (
    <>
      {d.findingsCount}
      {/* Beside "5 of 12 stated findings found": the rest are rows of the document's own list whose sections the model reported nothing for. */}
      {(d.listedOnlyCount ?? 0) > 0 ? (
        <div
          className="cell-note"
          data-testid="listed-only"
          title="Known only from a row of the document's own list of findings: the model reported nothing for its section"
        >
          {d.listedOnlyCount} only listed
        </div>
      ) : null}
    </>
  );
}

/** Every stored document: pages, status in its last run, findings, last run; and every file a run still holds. */
export function Library() {
  const documents = useStore((s) => s.library.documents);
  const loaded = useStore((s) => s.library.loaded);
  const error = useStore((s) => s.library.error);
  const runs = useStore((s) => s.runs.runs);
  const progress = useStore((s) => s.runs.progress);
  const importing = useStore((s) => s.library.importing);
  const pending = pendingFiles(runs, documents);
  return (
    <section aria-labelledby="library-title" className="panel">
      <h2 id="library-title">Document library</h2>
      {error ? <p role="alert">{error}</p> : null}
      {loaded && documents.length === 0 && pending.length === 0 && !importing ? (
        <p className="empty">No documents yet. Drop PDFs above to analyse them.</p>
      ) : (
        <table className="table library-table" data-testid="library">
          <TableHead columns={['Document', 'Pages', 'Status', 'Findings', 'Last run', { hidden: 'Actions' }]} />
          <tbody>
            {pending.map(({ run, input }) => (
              <tr key={`pending-${run.id}-${input.ordinal}`} data-document={input.fileName} data-pending="true">
                <th scope="row" className="cell-name">
                  {input.fileName}
                </th>
                <td>—</td>
                <td>
                  <PendingStatus run={run} input={input} />
                </td>
                <td>—</td>
                <td>
                  #{run.id}
                  {run.active || run.status === 'running' ? ', now' : ''}
                </td>
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
                    <FindingsCell d={d} progress={progress} />
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
                    <button
                      type="button"
                      className="button button--small"
                      onClick={() => void store().doc.show(d.id, 'findings')}
                      aria-label={`Findings of ${d.fileName}`}
                    >
                      Findings
                    </button>{' '}
                    <button
                      type="button"
                      className="button button--small"
                      onClick={() => void store().doc.show(d.id, 'document')}
                      aria-label={`Open ${d.fileName}`}
                    >
                      Open
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {pending.some(({ input }) => input.status === 'queued') ? (
        <p className="hint">{plural(pending.length, 'file')} not read yet: each becomes a document when its run reads it.</p>
      ) : null}
    </section>
  );
}
