import { modelLabel } from '../../../shared/simulator';
import { useState } from 'react';
import { invoke } from '../api';
import { useAppStore } from '../stores/useAppStore';
import { useDocumentsStore } from '../stores/useDocumentsStore';
import { useReviewStore } from '../stores/useReviewStore';
import { useRunsStore } from '../stores/useRunsStore';
import { useOllamaStore } from '../stores/useOllamaStore';
import { useSettingsStore } from '../stores/useSettingsStore';
import { importAndCheck } from './DropZone';

const PULL = 'ollama pull qwen3:8b';

function CopyCommand({ command }: { command: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="command">
      <code>{command}</code>{' '}
      <button
        type="button"
        className="button button--small"
        onClick={() =>
          void navigator.clipboard
            ?.writeText(command)
            .then(() => setCopied(true))
            .catch(() => setCopied(false))
        }
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}

/** A command to run, and a way to check again once it has run. */
function ToDo({ command }: { command: string }) {
  return (
    <>
      <CopyCommand command={command} />{' '}
      <button type="button" className="link" onClick={() => void useOllamaStore.getState().check()}>
        Check again
      </button>
    </>
  );
}

/**
 * Once the sample's run is done, the user lands on its first finding (beside its source page), as the welcome
 * promises, instead of being left on the library. Lives outside the component: the welcome steps are gone by then.
 */
function followToFirstFinding(runId: number): void {
  const stop = useRunsStore.subscribe((state) => {
    const run = state.runs.find((r) => r.id === runId);
    if (!run || run.active || (run.status !== 'done' && run.status !== 'failed' && run.status !== 'cancelled')) return;
    stop();
    const documentId = run.inputs.find((i) => i.documentId !== null)?.documentId;
    if (run.status !== 'done' || documentId === undefined || documentId === null) return;
    void useReviewStore
      .getState()
      .load(documentId)
      .then(() => {
        const first = useReviewStore.getState().view?.findings[0];
        if (first) useReviewStore.getState().setActive(first.id);
        useAppStore.getState().setView('findings');
      });
  });
}

/** First run: is Ollama there, is a model pulled, and a sample document to try the whole flow on. */
export function Onboarding() {
  const documents = useDocumentsStore((s) => s.documents);
  const loaded = useDocumentsStore((s) => s.loaded);
  const status = useOllamaStore((s) => s.status);
  const chosen = useSettingsStore((s) => s.settings?.models.extract ?? null);
  const [busy, setBusy] = useState(false);
  if (!loaded || documents.length > 0) return null;
  const model = chosen ?? status?.automatic?.extract ?? null;
  const modelReady = status?.reachable === true && (chosen ? status.models.some((m) => m.name === chosen) : model !== null);

  const trySample = async () => {
    setBusy(true);
    const sample = await invoke('documents.sample', {});
    if (sample.ok) {
      const bytes = Uint8Array.from(atob(sample.data.bytes), (c) => c.charCodeAt(0));
      const imported = await importAndCheck([new File([bytes], sample.data.name, { type: 'application/pdf' })], () => undefined);
      if (imported?.runId) followToFirstFinding(imported.runId);
    }
    setBusy(false);
  };

  return (
    <section className="panel onboarding" aria-labelledby="onboarding-title" data-testid="onboarding">
      <h2 id="onboarding-title">Welcome: three steps to your first audit</h2>
      <ol className="steps">
        <li className={status?.reachable ? 'step step--done' : 'step'}>
          <span aria-hidden="true" className="step__mark">
            {status?.reachable ? '✓' : '1'}
          </span>
          <div>
            <strong>Ollama runs on this computer.</strong>{' '}
            {status === null ? (
              'Checking…'
            ) : status.reachable ? (
              `Found Ollama ${status.version ?? ''} at ${status.host}${status.simulator ? ` (${status.simulator}, not a language model)` : ''}.`
            ) : (
              <>
                Not found at {status.host}. Start it: <ToDo command="ollama serve" />
              </>
            )}
          </div>
        </li>
        <li className={modelReady ? 'step step--done' : 'step'}>
          <span aria-hidden="true" className="step__mark">
            {modelReady ? '✓' : '2'}
          </span>
          <div>
            <strong>A model is pulled.</strong>{' '}
            {modelReady ? (
              `The analysis will use ${modelLabel(model ?? '', status?.simulator)}${chosen ? '' : ' (chosen automatically)'}.`
            ) : (
              <>
                Pull the recommended model (about 5 GB, once): <ToDo command={PULL} />
              </>
            )}
          </div>
        </li>
        <li className="step">
          <span aria-hidden="true" className="step__mark">
            3
          </span>
          <div className="step__action" data-testid="onboarding-try">
            <strong>Try it.</strong> Drop your own PDF, text or Markdown file below, or{' '}
            <button type="button" className="button button--small button--primary" disabled={busy} onClick={() => void trySample()}>
              {busy ? 'Adding the sample…' : 'Try a sample document'}
            </button>
          </div>
        </li>
      </ol>
    </section>
  );
}
