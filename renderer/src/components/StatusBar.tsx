import { useEffect, useState } from 'react';
import type { RunProgressPayload, RunView } from '../../../shared/contract';
import { modelLabel } from '../../../shared/simulator';
import { formatDuration, plural, timeLeftText } from '../format';
import { store, useStore, type Store } from '../store';
import { phaseText } from './RunView';

const CHECK_EVERY_MS = 30_000;

/** Which model the extraction uses: the chosen one, or what "Automatic" resolves to on this Ollama. */
function extractModel(chosen: string | null | undefined, automatic: string | null | undefined): string {
  if (chosen) return chosen;
  return automatic ? `Automatic → ${automatic}` : 'Automatic (no model installed)';
}

/**
 * What the engine is busy with, when a command has waited for it: "merging 680 findings of report-a.pdf", from the
 * runs' latest progress; null when no run says (the command is simply slow).
 */
export function busyWith(runs: readonly RunView[], progress: Record<number, RunProgressPayload>): string | null {
  for (const run of runs) {
    const payload = progress[run.id];
    if (!payload) continue;
    const current =
      payload.inputs.find((i) => i.status === 'running' && i.ordinal === payload.event.ordinal) ?? payload.inputs.find((i) => i.status === 'running');
    if (!current) continue;
    const phase = current.progress?.phase ?? payload.event.phase;
    const findings = payload.event.ordinal === current.ordinal ? payload.event.findings : undefined;
    return `${phaseText(phase, findings).toLowerCase()} in ${current.fileName}`;
  }
  return null;
}

/** The sentence shown while commands wait for the engine ("Waiting for the engine (12 s): it is merging 680 findings in x.pdf…"). */
function WaitingNote({ now }: { now: number }) {
  const oldest = useStore((s) => s.host.waiting[0]);
  const busy = useStore((s) => busyWith(s.runs.runs, s.runs.progress));
  if (!oldest) return null;
  return (
    <span className="statusbar__waiting" role="status" data-testid="status-waiting">
      Waiting for the engine ({formatDuration((now - oldest.since) / 1000)}){busy ? `: it is ${busy}` : ''}. Your last action is applied as soon as it answers.
    </span>
  );
}

/** The runs in progress in a few words: one run in full, several as "2 runs: #2 report-c.pdf 40%, #3 notes.pdf 10%". */
function RunsNote({
  active,
  progress,
  now,
  receivedAt,
}: {
  active: RunView[];
  progress: Store['runs']['progress'];
  now: number;
  receivedAt: Record<number, number>;
}) {
  if (active.length > 1) {
    return (
      <>
        {`${active.length} runs: `}
        {active.map((run, i) => {
          const payload = progress[run.id];
          const files = (payload?.inputs ?? run.inputs).filter((input) => input.status === 'running').map((input) => input.fileName);
          return (
            <span key={run.id}>
              {i > 0 ? ', ' : ''}
              <button type="button" className="link" onClick={() => store().nav.setView('runs')}>
                #{run.id}
              </button>
              {files.length > 0 ? ` ${files.join(', ')}` : ''}
              {payload ? ` ${Math.round(payload.overall * 100)}%` : ''}
            </span>
          );
        })}
      </>
    );
  }
  const run = active[0]!;
  const payload = progress[run.id];
  // Working time of this execution only (the host's figure, ticking between its events): a pause is never counted.
  const elapsed = payload?.elapsedSeconds != null ? payload.elapsedSeconds + Math.max(0, now - (receivedAt[payload.runId] ?? now)) / 1000 : null;
  // Several at once in a pool of endpoints: each file with the endpoint it is on (from its own progress).
  const running = (payload?.inputs ?? run.inputs).filter((i) => i.status === 'running');
  // Each file's own count, added up: in a pool the events of several files interleave, and one file's count never
  // stands for the run's (it made "55 so far" fall to 45 and rise again).
  const counted = running.filter((i) => i.progress?.findings !== undefined);
  const findings = counted.length > 0 ? counted.reduce((sum, i) => sum + i.progress!.findings!, 0) : undefined;
  return (
    <>
      <button type="button" className="link" onClick={() => store().nav.setView('runs')}>
        Run #{run.id}
      </button>
      {running.length > 0 ? ` · ${running.map((i) => `${i.fileName}${i.progress?.endpoint ? ` on ${i.progress.endpoint}` : ''}`).join(', ')}` : ''}
      {payload ? ` · ${Math.round(payload.overall * 100)}%` : ''}
      {findings !== undefined ? ` · ${plural(findings, 'finding')} so far` : ''}
      {elapsed !== null ? ` · ${formatDuration(elapsed)} elapsed${payload?.resumed ? ' since resuming' : ''}` : ''}
      {payload && payload.overall < 1 ? ` · ${timeLeftText(payload.etaSeconds)}` : ''}
    </>
  );
}

/** Ollama (host, model, reachable or not), the runs in progress, their elapsed time and ETA, and a wait for the engine, always in view. */
export function StatusBar() {
  const status = useStore((s) => s.ollama.status);
  const settings = useStore((s) => s.settings.settings);
  const runs = useStore((s) => s.runs.runs);
  const progress = useStore((s) => s.runs.progress);
  const receivedAt = useStore((s) => s.runs.receivedAt);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    void store().ollama.check();
    if (!store().settings.settings) void store().settings.load();
    const checker = setInterval(() => void store().ollama.check(), CHECK_EVERY_MS);
    const clock = setInterval(() => setNow(Date.now()), 1000);
    return () => {
      clearInterval(checker);
      clearInterval(clock);
    };
  }, []);

  const active = runs.filter((r) => r.active || r.status === 'running');
  // A paused run is not in progress, but it is not gone either: the bar says so until it is resumed or cancelled.
  const paused = active.length > 0 ? undefined : runs.find((r) => r.status === 'paused');

  return (
    <footer className="statusbar" aria-label="Status">
      <button
        type="button"
        className={`statusbar__ollama statusbar__ollama--${status === null ? 'checking' : status.reachable ? 'ok' : 'down'}`}
        data-testid="status-ollama"
        data-reachable={status === null ? '' : String(status.reachable)}
        onClick={() => store().nav.setView('settings')}
        title="Open the Ollama settings"
      >
        <span aria-hidden="true">{status === null ? '…' : status.reachable ? '●' : '✕'} </span>
        {status === null
          ? 'Checking Ollama…'
          : status.reachable
            ? `Ollama ${status.version ?? ''} at ${status.host}${status.simulator ? ` (${status.simulator})` : ''}`
            : `Ollama not reachable at ${status.host}`}
      </button>
      {status?.reachable ? (
        <span data-testid="status-model">Model: {modelLabel(extractModel(settings?.models.extract, status.automatic?.extract), status.simulator)}</span>
      ) : null}
      {status && !status.reachable ? (
        <span className="statusbar__hint">
          Start it with <code>ollama serve</code>
        </span>
      ) : null}
      <WaitingNote now={now} />
      <span className="statusbar__run" data-testid="status-run" aria-live="off">
        {active.length > 0 ? (
          <RunsNote active={active} progress={progress} now={now} receivedAt={receivedAt} />
        ) : paused ? (
          <>
            <button type="button" className="link" onClick={() => store().nav.setView('runs')}>
              Run #{paused.id}
            </button>
            {' paused'}
          </>
        ) : (
          'No run in progress'
        )}
      </span>
    </footer>
  );
}
