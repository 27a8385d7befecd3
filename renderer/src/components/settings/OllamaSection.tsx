import { plural } from '../../format';
import { store, useStore } from '../../store';
import { Sentence } from '../Sentence';

let hostTimer: ReturnType<typeof setTimeout> | undefined;

/** The Ollama host, checked live as it is typed (the latest answer counts), with what to do when it is not right. */
export function OllamaSection({ id }: { id: string }) {
  const host = useStore((s) => s.settings.draft?.ollamaHost ?? '');
  const status = useStore((s) => s.settings.status);
  const checking = useStore((s) => s.settings.checking);
  const settings = store().settings;
  return (
    <section className="panel">
      <h2 id={`${id}-title`}>Ollama</h2>
      <div className="field">
        <label htmlFor={`${id}-host`}>Ollama host</label>
        <input
          id={`${id}-host`}
          type="text"
          inputMode="url"
          placeholder="http://127.0.0.1:11434"
          value={host}
          aria-describedby={`${id}-host-status`}
          onChange={(event) => {
            const typed = event.currentTarget.value;
            settings.edit({ ollamaHost: typed });
            clearTimeout(hostTimer);
            hostTimer = setTimeout(() => void store().settings.check(typed), 400);
          }}
        />
      </div>
      <div
        id={`${id}-host-status`}
        role="status"
        aria-live="polite"
        className={`connection connection--${checking ? 'checking' : status?.reachable ? (status.guidance.length > 0 ? 'warn' : 'ok') : 'down'}`}
        data-testid="connection-status"
      >
        {checking && !status ? 'Checking…' : null}
        {status ? (
          <>
            <p className="connection__headline">
              {status.reachable
                ? `Connected to Ollama ${status.version ?? ''} at ${status.host}${status.simulator ? ` (${status.simulator}: its models answer from scripts, not as language models)` : ''}: ${plural(status.models.length, 'model')} installed.`
                : `Not connected: ${status.error?.message ?? 'Ollama does not answer.'}`}
              {checking ? ' (checking again…)' : ''}
            </p>
            {status.guidance.length > 0 ? (
              <ul className="guidance">
                {status.guidance.map((g) => (
                  <li key={g}>
                    <Sentence text={g} />
                  </li>
                ))}
              </ul>
            ) : null}
          </>
        ) : null}
      </div>
      <button type="button" className="button button--small" onClick={() => void settings.check(host)}>
        Check again
      </button>
    </section>
  );
}
