import type { RunProgressPayload, RunView as Run } from '../../../shared/contract';
import type { RunPhase } from '../../../shared/pipeline';
import { combineVerdicts, notStartedOutcome, outcomeOf, picturePagesNote, problemsOf, shownStatus } from '../../../shared/runOutcome';
import { formatWhen, plural, timeLeftText } from '../format';
import { store, useStore } from '../store';
import { ErrorNote } from './ErrorNote';
import { ProgressBar } from './ProgressBar';
import { ExportControl } from './ExportControl';
import { StatusBadge } from './StatusBadge';
import { Sentence } from './Sentence';

/** Errors the user fixes outside the run (start Ollama, pull a model, free memory), then resumes. */
const FIXABLE = new Set(['OLLAMA_UNREACHABLE', 'MODEL_NOT_FOUND', 'NO_MODEL_INSTALLED', 'LLM_OUT_OF_MEMORY', 'LLM_TRANSIENT', 'LLM_TIMEOUT']);

/** A run's phases in the user's words, shared with the library's row of a file being read. */
export const PHASES: Record<RunPhase, string> = {
  ingest: 'Reading pages',
  // Not "scanned": OCR also reads a born-digital page whose text layer is unusable, or a picture-only cover (trial row 12).
  ocr: 'Reading pages without usable text (OCR)',
  rules: 'Finding ID mentions',
  tree: 'Building the chunk tree',
  extract: 'Extracting findings',
  merge: 'Merging findings',
  completeness: 'Checking completeness',
  summary: 'Summarising',
  done: 'Finished',
};

/** A phase in words; a merge says how many findings it merges (on a long document it can take minutes). */
export function phaseText(phase: string | undefined, findings?: number): string {
  if (!phase) return 'Starting';
  if (phase === 'merge' && findings !== undefined && findings > 0) return `Merging ${plural(findings, 'finding')}`;
  return PHASES[phase as RunPhase] ?? phase;
}

function RunCard({ run, progress }: { run: Run; progress: RunProgressPayload | undefined }) {
  const control = store().runs.control;
  const running = run.active || run.status === 'running';
  // Resume continues what is unfinished and tries again what failed (a server outage, a full disk), even in a finished run.
  const unfinished = run.status !== 'done' && run.inputs.some((i) => i.status !== 'done' && i.status !== 'failed');
  const resumable = !run.active && (unfinished || run.inputs.some((i) => i.status === 'failed'));
  // Between events (a paused or stopped run) the bar is what the inputs report: finished ones whole, the others by the progress they kept.
  const finishedShare =
    run.inputs.length === 0
      ? 1
      : run.inputs.reduce((sum, i) => sum + (i.status === 'done' || i.status === 'failed' ? 1 : (i.progress?.fraction ?? 0)), 0) / run.inputs.length;
  const overall = progress?.overall ?? (run.status === 'done' ? 1 : finishedShare);
  // The run's phase is the phase of the file being worked on; the last event counts only when it is about that file.
  const current = run.inputs.find((i) => i.status === 'running');
  const event = progress?.event && progress.event.ordinal === current?.ordinal ? progress.event : undefined;
  const phase = current?.progress?.phase ?? current?.phase ?? event?.phase;
  const titleId = `run-${run.id}-title`;
  const outcome = outcomeOf(run.status, problemsOf(run.inputs), combineVerdicts(run.inputs.map((i) => i.verdict)));
  return (
    <article className="run" aria-labelledby={titleId} data-testid={`run-${run.id}`} data-status={run.status}>
      <header className="run__header">
        <h3 id={titleId}>
          Run #{run.id} <span className="muted">({run.mode === 'full' ? 'full analysis' : run.mode})</span>
        </h3>
        <StatusBadge status={run.status} outcome={outcome} />
        <div className="run__actions">
          {running ? (
            <>
              <button type="button" className="button button--small" onClick={() => void control(run.id, 'pause')}>
                Pause
              </button>
              <button type="button" className="button button--small button--danger" onClick={() => void control(run.id, 'cancel')}>
                Cancel
              </button>
            </>
          ) : null}
          {run.status === 'paused' && !run.active ? (
            // A paused run can be given up too: cancelling keeps what it did, and it stays resumable.
            <button type="button" className="button button--small button--danger" onClick={() => void control(run.id, 'cancel')}>
              Cancel
            </button>
          ) : null}
          {resumable ? (
            <button type="button" className="button button--small button--primary" onClick={() => void control(run.id, 'resume')}>
              Resume
            </button>
          ) : null}
        </div>
      </header>
      <ProgressBar value={overall} label={`Run #${run.id} overall progress`} />
      {run.status === 'paused' && !run.active && !run.error ? (
        <p data-testid="run-paused-note">
          <strong>Paused by you.</strong> Resume continues where it stopped.
        </p>
      ) : null}
      {outcome.problems ? (
        <p className="warning" data-testid="run-problems">
          {/* Only a finished run is "Done with problems"; before that they are what it has met so far, not why it stopped. */}
          <strong>{run.status === 'done' ? outcome.label : 'So far'}:</strong> {outcome.problems}.
        </p>
      ) : null}
      {run.status === 'done' ? <ExportControl runId={run.id} label={`Export run #${run.id}`} /> : null}
      <p className="run__facts" aria-live="off">
        {running && (event || current) ? (
          <>
            <span>
              {current ? `${current.fileName}${current.progress?.endpoint ? ` (on ${current.progress.endpoint})` : ''}: ` : ''}
              <span data-testid="run-phase">{phaseText(phase, event?.findings)}</span>
            </span>
            {event && event.phase === 'extract' && event.total > 0 ? (
              <span>
                {/* The engine counts chunks finished; the one being analysed is the next. */}
                chunk {Math.min(event.current + 1, event.total)} of {event.total}
              </span>
            ) : null}
            {current?.progress?.findings !== undefined ? <span>{plural(current.progress.findings, 'finding')} so far</span> : null}
            {progress && progress.overall < 1 ? <span data-testid="run-eta">{timeLeftText(progress.etaSeconds)}</span> : null}
            {progress?.tokensPerSecond ? <span>{progress.tokensPerSecond.toFixed(1)} tokens/s</span> : null}
          </>
        ) : (
          <span>
            {Math.round(overall * 100)}% · {plural(run.inputs.length, 'file')}
            {run.finishedAt ? ` · ended ${formatWhen(run.finishedAt)}` : run.startedAt ? ` · started ${formatWhen(run.startedAt)}` : ''}
          </span>
        )}
      </p>
      {run.error ? (
        <div role="alert" data-testid="run-error">
          <ErrorNote error={run.error} context="The run stopped" />
          {FIXABLE.has(run.error.code) && resumable ? (
            <p className="run__fix">
              <span>Fix this, then resume the run: it continues where it stopped.</span>
              <button type="button" className="link" onClick={() => store().nav.setView('settings')}>
                Open the settings
              </button>
            </p>
          ) : null}
        </div>
      ) : null}
      <ul className="run__inputs" aria-label={`Files of run #${run.id}`}>
        {run.inputs.map((input) => {
          const p = input.progress;
          // A paused or cancelled file keeps the share it had done (the host sends it as its progress fraction).
          const value =
            input.status === 'done' || input.status === 'failed'
              ? 1
              : p
                ? (p.fraction ?? (p.total > 0 ? p.current / p.total : input.status === 'running' ? null : 0))
                : input.status === 'running'
                  ? null
                  : 0;
          return (
            <li key={input.ordinal} className="run-input" data-testid="run-input" data-file={input.fileName} data-status={input.status}>
              <div className="run-input__head">
                <span className="run-input__name">{input.fileName}</span>
                <StatusBadge
                  status={input.status}
                  outcome={
                    notStartedOutcome(input.status, run.active ? 'running' : run.status) ??
                    outcomeOf(
                      shownStatus(input.status, input.error),
                      problemsOf([{ status: 'done', warnings: input.warnings, error: input.error }]),
                      input.verdict,
                    )
                  }
                />
                {/* In a pool, several files run at once on different endpoints: each says where its text goes. */}
                {input.status === 'running' && p?.endpoint ? (
                  <span className="muted" data-testid="run-input-endpoint">
                    on {p.endpoint}
                  </span>
                ) : null}
                <span className="muted">
                  {input.status === 'running'
                    ? p
                      ? p.message
                      : 'Starting…'
                    : input.phase && input.status !== 'done' && input.status !== 'queued'
                      ? `at: ${PHASES[input.phase] ?? input.phase}`
                      : ''}
                </span>
              </div>
              <ProgressBar small value={value} label={`${input.fileName} progress`} />
              {input.error ? <ErrorNote error={input.error} context={input.fileName} /> : null}
              {input.warnings.map((w, i) =>
                w.details?.picturesOnly === true ? (
                  // Nothing was lost on a picture-only page: the one quiet sentence, not a warning.
                  <p key={i} className="muted" data-code={w.code}>
                    {picturePagesNote(Array.isArray(w.details.pages) ? (w.details.pages as number[]) : [])}
                  </p>
                ) : (
                  <p key={i} className="warning" data-code={w.code}>
                    <Sentence text={w.message} />
                  </p>
                ),
              )}
            </li>
          );
        })}
      </ul>
    </article>
  );
}

/** Runs, newest first: overall and per-file progress, phase, ETA, tokens/s, and the controls. */
export function RunList({ limit = 20, title = 'Runs' }: { limit?: number; title?: string }) {
  const runs = useStore((s) => s.runs.runs);
  const progress = useStore((s) => s.runs.progress);
  const actionError = useStore((s) => s.runs.actionError);
  return (
    <section aria-labelledby="runs-title" className="panel runs">
      <h2 id="runs-title">{title}</h2>
      {actionError ? <p role="alert">{actionError}</p> : null}
      {runs.length === 0 ? (
        <>
          <p className="empty">No runs yet. Add documents in the Library to start one.</p>
          <p className="hint" data-testid="runs-next-step">
            When a run ends, Findings lists what it found beside each finding's source page, ready for review (<kbd>c</kbd> confirm, <kbd>r</kbd> reject), and
            Ask answers questions about your documents with citations you can open.
          </p>
        </>
      ) : null}
      {runs.slice(0, limit).map((run) => (
        <RunCard key={run.id} run={run} progress={progress[run.id]} />
      ))}
      {runs.length > limit ? (
        <p className="muted">
          {plural(runs.length - limit, 'older run')} not shown{' '}
          <button type="button" className="link" onClick={() => store().nav.setView('runs')}>
            Show all runs
          </button>
        </p>
      ) : null}
    </section>
  );
}
