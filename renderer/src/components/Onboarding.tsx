import { useState } from 'react';
import { invoke } from '../api';
import { useDocumentsStore } from '../stores/useDocumentsStore';
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
      await importAndCheck([new File([bytes], sample.data.name, { type: 'application/pdf' })], () => undefined);
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
              `Found Ollama ${status.version ?? ''} at ${status.host}.`
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
              `The analysis will use ${model}${chosen ? '' : ' (chosen automatically)'}.`
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
          <div>
            <strong>Try it.</strong> Drop your own PDF below, or{' '}
            <button type="button" className="button button--small button--primary" disabled={busy} onClick={() => void trySample()}>
              {busy ? 'Adding the sample…' : 'Try a sample document'}
            </button>
          </div>
        </li>
      </ol>
    </section>
  );
}
