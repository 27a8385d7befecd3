import { modelLabel } from '../../../shared/simulator';
import { useState } from 'react';
import { store, useStore } from '../store';

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
      <button type="button" className="link" onClick={() => void store().ollama.check()}>
        Check again
      </button>
    </>
  );
}

/** First run: is Ollama there, is a model pulled, and a sample document to try the whole flow on. */
export function Onboarding() {
  const documents = useStore((s) => s.library.documents);
  const loaded = useStore((s) => s.library.loaded);
  const status = useStore((s) => s.ollama.status);
  const chosen = useStore((s) => s.settings.settings?.models.extract ?? null);
  const [busy, setBusy] = useState(false);
  if (!loaded || documents.length > 0) return null;
  const model = chosen ?? status?.automatic?.extract ?? null;
  const modelReady = status?.reachable === true && (chosen ? status.models.some((m) => m.name === chosen) : model !== null);

  const trySample = async () => {
    setBusy(true);
    await store().library.trySample();
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
