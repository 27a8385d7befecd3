import { useEffect, useState } from 'react';
import { modelLabel } from '../../../shared/simulator';
import { formatDuration, plural, timeLeftText } from '../format';
import { useAppStore } from '../stores/useAppStore';
import { useOllamaStore } from '../stores/useOllamaStore';
import { useRunsStore } from '../stores/useRunsStore';
import { useSettingsStore } from '../stores/useSettingsStore';

const CHECK_EVERY_MS = 30_000;

/** Which model the extraction uses: the chosen one, or what "Automatic" resolves to on this Ollama. */
function extractModel(chosen: string | null | undefined, automatic: string | null | undefined): string {
  if (chosen) return chosen;
  return automatic ? `Automatic → ${automatic}` : 'Automatic (no model installed)';
}

/** Ollama (host, model, reachable or not), the active run, its elapsed time and whole-run ETA, always in view. */
export function StatusBar() {
  const status = useOllamaStore((s) => s.status);
  const settings = useSettingsStore((s) => s.settings);
  const runs = useRunsStore((s) => s.runs);
  const progress = useRunsStore((s) => s.progress);
  const receivedAt = useRunsStore((s) => s.receivedAt);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    void useOllamaStore.getState().check();
    if (!useSettingsStore.getState().settings) void useSettingsStore.getState().load();
    const checker = setInterval(() => void useOllamaStore.getState().check(), CHECK_EVERY_MS);
    const clock = setInterval(() => setNow(Date.now()), 1000);
    return () => {
      clearInterval(checker);
      clearInterval(clock);
    };
  }, []);

  const active = runs.find((r) => r.active || r.status === 'running');
  // A paused run is not in progress, but it is not gone either: the bar says so until it is resumed or cancelled.
  const paused = active ? undefined : runs.find((r) => r.status === 'paused');
  const payload = active ? progress[active.id] : undefined;
  // Working time of this execution only (the host's figure, ticking between its events): a pause is never counted.
  const elapsed = payload?.elapsedSeconds != null ? payload.elapsedSeconds + Math.max(0, now - (receivedAt[payload.runId] ?? now)) / 1000 : null;
  // Several at once in a pool of endpoints: each file with the endpoint it is on (from its own progress).
  const running = (payload?.inputs ?? active?.inputs ?? []).filter((i) => i.status === 'running');
  const findings = payload?.event.findings;

  return (
    <footer className="statusbar" aria-label="Status">
      <button
        type="button"
        className={`statusbar__ollama statusbar__ollama--${status === null ? 'checking' : status.reachable ? 'ok' : 'down'}`}
        data-testid="status-ollama"
        data-reachable={status === null ? '' : String(status.reachable)}
        onClick={() => useAppStore.getState().setView('settings')}
        title="Open the Ollama settings"
      >
        <span aria-hidden="true">{status === null ? '…' : status.reachable ? '●' : '✕'} </span>
        {status === null
          ? 'Checking Ollama…'
          : status.reachable
            ? `Ollama ${status.version ?? ''} at ${status.host}${status.simulator ? ` (${status.simulator})` : ''}`
            : `Ollama not reachable at ${status.host}`}
      </button>
      {status?.reachable ? <span data-testid="status-model">Model: {modelLabel(extractModel(settings?.models.extract, status.automatic?.extract), status.simulator)}</span> : null}
      {status && !status.reachable ? <span className="statusbar__hint">Start it with <code>ollama serve</code></span> : null}
      <span className="statusbar__run" data-testid="status-run" aria-live="off">
        {active ? (
          <>
            <button type="button" className="link" onClick={() => useAppStore.getState().setView('runs')}>
              Run #{active.id}
            </button>
            {running.length > 0 ? ` · ${running.map((i) => `${i.fileName}${i.progress?.endpoint ? ` on ${i.progress.endpoint}` : ''}`).join(', ')}` : ''}
            {payload ? ` · ${Math.round(payload.overall * 100)}%` : ''}
            {findings !== undefined ? ` · ${plural(findings, 'finding')} so far` : ''}
            {elapsed !== null ? ` · ${formatDuration(elapsed)} elapsed${payload?.resumed ? ' since resuming' : ''}` : ''}
            {payload && payload.overall < 1 ? ` · ${timeLeftText(payload.etaSeconds)}` : ''}
          </>
        ) : paused ? (
          <>
            <button type="button" className="link" onClick={() => useAppStore.getState().setView('runs')}>
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
