/**
 * Settings › Inference (issue 29): the endpoints a run sends its model calls to, each with a live check. Empty
 * list: the one Ollama of the section above. An OpenAI-compatible server (llama-server, vLLM, LM Studio, LocalAI)
 * gets its context size and an API key; the key goes to the operating system's keychain (Electron safeStorage)
 * at once and is never shown again nor kept in the settings. Where no keychain keeps it safely (a Linux without a
 * keyring, where Electron would fall back to a built-in password: shared/keyStorage.ts) the page says so, stores
 * nothing, and takes the key from an environment variable of the app instead. Plain http to another machine is
 * flagged: document text would travel unencrypted.
 */
import { useEffect, useId, useState } from 'react';
import { envKeyRef, envVariableOf, type KeyStorageStatus } from '../../../shared/keyStorage';
import { ENDPOINT_KINDS, endpointLabel, plainHttpWarning, type EndpointKind, type EndpointSettings } from '../../../shared/endpoints';
import { endpointCheckKey, endpointCheckOf, store, useStore } from '../store';
import { ErrorNote } from './ErrorNote';

const KIND_LABELS: Record<EndpointKind, string> = { ollama: 'Ollama (native API)', openai: 'OpenAI-compatible (llama-server, vLLM, LM Studio, LocalAI)' };

function newKeyRef(): string {
  return `endpoint-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

function EndpointRow({
  endpoint,
  index,
  update,
  remove,
  keyStorage,
}: {
  endpoint: EndpointSettings;
  index: number;
  update: (patch: Partial<EndpointSettings>) => void;
  remove: () => void;
  keyStorage: KeyStorageStatus | null;
}) {
  const id = useId();
  const checkKey = endpointCheckKey(endpoint);
  // The checks as stored, then this row's (a selector must not build a new object each time it runs).
  const checks = useStore((s) => s.settings.endpointChecks);
  const checked = endpointCheckOf(checks, endpoint);
  const status = checked?.status ?? null;
  const checking = checked?.checking ?? false;
  const [key, setKey] = useState('');
  const [keyNote, setKeyNote] = useState<string | null>(null);
  const [variable, setVariable] = useState('');
  const keyVariable = endpoint.keyRef ? envVariableOf(endpoint.keyRef) : null;
  const canStore = keyStorage?.canStore ?? true;
  const hasUrl = endpoint.url.trim() !== '';
  // A key typed and not stored yet is what the user means: the check uses it (it is kept only once stored).
  const check = () => (hasUrl ? store().settings.checkEndpoint(endpoint, key) : Promise.resolve());
  // The live check: whenever what it depends on changes (and once on opening); a new endpoint waits for its URL.
  useEffect(() => {
    if (!hasUrl) return;
    const timer = setTimeout(() => void store().settings.checkEndpoint(endpoint), 400);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [checkKey, hasUrl]);
  const saveKey = async () => {
    const keyRef = endpoint.keyRef ?? newKeyRef();
    const result = await store().settings.storeEndpointKey(keyRef, key);
    if ('error' in result) {
      setKeyNote(result.error.message);
      return;
    }
    setKey('');
    setKeyNote(result.stored ? 'Key stored in the system keychain.' : 'Key removed.');
    update(result.stored ? { keyRef } : { keyRef: undefined });
  };
  const useVariable = () => {
    const keyRef = envKeyRef(variable.trim());
    if (!keyRef) {
      setKeyNote(`"${variable}" is not an environment variable name: letters, digits and _, not starting with a digit.`);
      return;
    }
    setVariable('');
    setKeyNote(null);
    update({ keyRef });
  };
  const warning = plainHttpWarning(endpoint.url);
  return (
    <li className="panel endpoint" data-testid="endpoint">
      <div className="field">
        <label htmlFor={`${id}-kind`}>Endpoint {index + 1}</label>
        <select
          id={`${id}-kind`}
          value={endpoint.kind}
          onChange={(event) =>
            update({ kind: event.currentTarget.value as EndpointKind, ...(event.currentTarget.value === 'ollama' ? { contextTokens: undefined } : {}) })
          }
        >
          {ENDPOINT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {KIND_LABELS[kind]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-url`}>URL</label>
        <input
          id={`${id}-url`}
          type="url"
          value={endpoint.url}
          placeholder={endpoint.kind === 'ollama' ? 'http://127.0.0.1:11434' : 'http://127.0.0.1:8080/v1'}
          onChange={(event) => update({ url: event.currentTarget.value.trim() })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-concurrency`}>Files at once</label>
        <input
          id={`${id}-concurrency`}
          type="number"
          min={1}
          max={256}
          value={endpoint.concurrency}
          onChange={(event) => update({ concurrency: Math.max(1, Math.min(256, Math.floor(Number(event.currentTarget.value) || 1))) })}
        />
        <p className="hint">1 for a workstation; the server’s slot count for llama-server (-np); more for vLLM.</p>
      </div>
      {endpoint.kind === 'openai' ? (
        <>
          <div className="field">
            <label htmlFor={`${id}-context`}>Context size (tokens)</label>
            <input
              id={`${id}-context`}
              type="number"
              min={2048}
              placeholder="from the server, else 8192"
              value={endpoint.contextTokens ?? ''}
              onChange={(event) => {
                const n = Math.floor(Number(event.currentTarget.value));
                update({ contextTokens: Number.isFinite(n) && n >= 2048 ? n : undefined });
              }}
            />
            <p className="hint">What the server was started with (llama-server -c, vLLM --max-model-len). Every prompt is planned to fit it.</p>
          </div>
          {keyVariable ? (
            <div className="field" data-testid="endpoint-key-variable">
              <span>
                API key: read from the environment variable <code>{keyVariable}</code> when it is needed, never stored.
              </span>
              <button type="button" className="button button--small" onClick={() => update({ keyRef: undefined })}>
                Stop using {keyVariable}
              </button>
            </div>
          ) : (
            <div className="field">
              <label htmlFor={`${id}-key`}>API key {endpoint.keyRef ? <span className="muted">(one is stored)</span> : null}</label>
              <input
                id={`${id}-key`}
                type="password"
                autoComplete="off"
                value={key}
                disabled={!canStore && !endpoint.keyRef}
                placeholder={endpoint.keyRef ? 'enter a new key to replace it' : canStore ? 'none' : 'cannot be stored safely here'}
                onChange={(event) => setKey(event.currentTarget.value)}
                onBlur={() => key !== '' && void check()}
              />
              <button type="button" className="button button--small" onClick={() => void saveKey()} disabled={key === '' ? !endpoint.keyRef : !canStore}>
                {key === '' && endpoint.keyRef ? 'Remove the key' : 'Store the key'}
              </button>
            </div>
          )}
          <div className="field">
            <label htmlFor={`${id}-key-variable`}>{keyVariable ? 'Another environment variable' : 'Or read the key from an environment variable'}</label>
            <input
              id={`${id}-key-variable`}
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={variable}
              placeholder="e.g. VLLM_API_KEY"
              onChange={(event) => setVariable(event.currentTarget.value)}
            />
            <button type="button" className="button button--small" onClick={useVariable} disabled={variable.trim() === ''}>
              Use this variable
            </button>
            <p className="hint">The app reads it from its own environment (start it with the variable exported); nothing is stored.</p>
          </div>
          {keyNote ? (
            <p className="hint" role="status">
              {keyNote}
            </p>
          ) : null}
        </>
      ) : null}
      {warning ? (
        <p className="field-error" role="alert" data-testid="endpoint-warning">
          {warning}
        </p>
      ) : null}
      <div className="endpoint__status" data-testid="endpoint-status" aria-live="polite">
        {!hasUrl ? <span className="muted">Enter the server’s URL to check it.</span> : null}
        {checking ? <span className="muted">Checking {endpointLabel(endpoint)}…</span> : null}
        {!checking && checked?.typedKey && status ? (
          <p className="hint" data-testid="endpoint-typed-key">
            Checked with the key typed above. It is not kept until you press Store the key.
          </p>
        ) : null}
        {!checking && status?.reachable ? (
          <span>
            Answers: {status.models.length} {status.models.length === 1 ? 'model' : 'models'}
            {status.models.length > 0 ? ` (${status.models.slice(0, 5).join(', ')}${status.models.length > 5 ? ', …' : ''})` : ''}
            {status.contextTokens ? `; context ${status.contextTokens} tokens` : ''}
            {status.slots ? `; ${status.slots} ${status.slots === 1 ? 'slot' : 'slots'}` : ''}.
          </span>
        ) : null}
        {!checking && status?.slots && endpoint.concurrency > status.slots ? (
          // More files at once than the server has slots: the extra requests wait in its queue, or are refused (429).
          <p className="hint" data-testid="endpoint-slots-hint">
            The server runs {status.slots} {status.slots === 1 ? 'request' : 'requests'} at once: set Files at once to {status.slots}.
          </p>
        ) : null}
        {!checking && status?.error ? (
          <div role="alert" className="field-error">
            <ErrorNote error={status.error} />
          </div>
        ) : null}
      </div>
      <button type="button" className="button button--small" disabled={!hasUrl} onClick={() => void check()}>
        Check again
      </button>
      <button type="button" className="link" onClick={remove}>
        Remove endpoint {index + 1}
      </button>
    </li>
  );
}

export function InferenceSettings() {
  const draft = useStore((s) => s.settings.draft);
  const edit = store().settings.edit;
  // Whether a typed key can be kept safely here: asked once (main answers in the desktop app, from Electron).
  const [keyStorage, setKeyStorage] = useState<KeyStorageStatus | null>(null);
  useEffect(() => {
    let live = true;
    void store()
      .host.call('endpoints.keyStorage', {})
      .then((result) => {
        if (live && result.ok) setKeyStorage(result.data);
      });
    return () => {
      live = false;
    };
  }, []);
  if (!draft) return null;
  const endpoints = draft.endpoints;
  const set = (next: EndpointSettings[]) => edit({ endpoints: next });
  return (
    <section className="panel" data-testid="inference-settings">
      <h2>Inference</h2>
      <p className="hint">
        Where the model calls go. With no endpoint listed, the Ollama above is used, one file at a time. With several, a batch’s files are spread over them; an
        endpoint that stops answering hands its files to the others.
      </p>
      {keyStorage && !keyStorage.canStore ? (
        <p className="field-error" role="note" data-testid="key-storage-warning">
          {keyStorage.message}
        </p>
      ) : null}
      <ul className="endpoints">
        {endpoints.map((endpoint, index) => (
          <EndpointRow
            key={index}
            endpoint={endpoint}
            index={index}
            update={(patch) => {
              const next = { ...endpoint, ...patch };
              for (const [k, v] of Object.entries(patch)) if (v === undefined) delete (next as Record<string, unknown>)[k];
              set(endpoints.map((e, i) => (i === index ? next : e)));
            }}
            remove={() => set(endpoints.filter((_, i) => i !== index))}
            keyStorage={keyStorage}
          />
        ))}
      </ul>
      <button
        type="button"
        className="button button--small"
        onClick={() => set([...endpoints, { kind: 'openai', url: '', concurrency: 1 }])}
        disabled={endpoints.length >= 16}
      >
        Add an endpoint
      </button>
    </section>
  );
}
