import { useEffect, useId } from 'react';
import { MODEL_STAGES, STRATEGY_CHOICES, type IdPatternSetting, type ModelStage, type StrategyChoiceSetting } from '../../../shared/contract';
import { plural } from '../format';
import { useAppStore } from '../stores/useAppStore';
import { useOllamaStore } from '../stores/useOllamaStore';
import { useProfileEditorStore } from '../stores/useProfileEditorStore';
import { isDirty, useSettingsStore } from '../stores/useSettingsStore';
import { InferenceSettings } from './InferenceSettings';
import { OcrSettings } from './OcrSettings';
import { ProfileEditor } from './ProfileEditor';
import { RetrievalSettingsSection } from './RetrievalSettingsSection';
import { Sentence } from './Sentence';

const STAGE_LABELS: Record<ModelStage, string> = {
  judge: 'Chunking judge',
  split: 'Tree split',
  extract: 'Finding extraction',
  summary: 'Summary',
  embed: 'Embeddings',
};

const STRATEGY_LABELS: Record<StrategyChoiceSetting, string> = {
  auto: 'Automatic (judge or document decides)',
  outline: 'PDF outline (bookmarks)',
  headings: 'Detected headings',
  pages: 'One chunk per page',
  sentences: 'Sentence groups',
  'llm-tree': 'LLM tree split (validated)',
};

const patternsToText = (patterns: readonly IdPatternSetting[]) => patterns.map((p) => `${p.name}: ${p.source}`).join('\n');

export function parsePatterns(text: string): { patterns: IdPatternSetting[]; errors: string[] } {
  const patterns: IdPatternSetting[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const match = /^\s*([^:]+?)\s*:\s*(.+)$/.exec(line);
    if (!match) return errors.push(`Line ${i + 1}: write "name: regular expression".`);
    try {
      new RegExp(match[2]!, 'u');
      patterns.push({ name: match[1]!, source: match[2]!.trim() });
    } catch (error) {
      errors.push(`Line ${i + 1}: ${(error as Error).message}`);
    }
  });
  return { patterns, errors };
}

let hostTimer: ReturnType<typeof setTimeout> | undefined;

/** Ollama host with a live check, model per stage from the installed models, context policy, ID patterns, reviewer. */
export function SettingsView() {
  const id = useId();
  const { draft, status, checking, saving, message, error, edit, check, save } = useSettingsStore();
  const profileProblems = useProfileEditorStore((s) => s.problems.length + (s.syntaxError ? 1 : 0));
  const dirty = useSettingsStore(isDirty) || profileProblems > 0;
  const info = useAppStore((s) => s.info);

  useEffect(() => {
    const store = useSettingsStore.getState();
    void store.open().then(() => store.check(store.draft?.ollamaHost));
  }, []);

  if (!draft) return <p role="status">Loading settings…</p>;
  // Chat stages are offered chat models only, the embedding stage embedding models only.
  const installedFor = (stage: ModelStage) => (status?.models ?? []).filter((m) => (stage === 'embed') === (m.embedding === true)).map((m) => m.name);
  const { errors: patternErrors } = parsePatterns(patternsToText(draft.idPatterns));

  return (
    <form
      className="settings"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        void save().then(() => {
          void check();
          void useOllamaStore.getState().check();
        });
      }}
    >
      <section className="panel">
        <h2 id={`${id}-title`}>Ollama</h2>
        <div className="field">
          <label htmlFor={`${id}-host`}>Ollama host</label>
          <input
            id={`${id}-host`}
            type="text"
            inputMode="url"
            placeholder="http://127.0.0.1:11434"
            value={draft.ollamaHost}
            aria-describedby={`${id}-host-status`}
            onChange={(event) => {
              const host = event.currentTarget.value;
              edit({ ollamaHost: host });
              clearTimeout(hostTimer);
              hostTimer = setTimeout(() => void check(host), 400);
            }}
          />
        </div>
        <div id={`${id}-host-status`} role="status" aria-live="polite" className={`connection connection--${checking ? 'checking' : status?.reachable ? (status.guidance.length > 0 ? 'warn' : 'ok') : 'down'}`} data-testid="connection-status">
          {checking && !status ? 'Checking…' : null}
          {status ? (
            <>
              <p className="connection__headline">
                {status.reachable ? `Connected to Ollama ${status.version ?? ''} at ${status.host}${status.simulator ? ` (${status.simulator}: its models answer from scripts, not as language models)` : ''}: ${plural(status.models.length, 'model')} installed.` : `Not connected: ${status.error?.message ?? 'Ollama does not answer.'}`}
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
        <button type="button" className="button button--small" onClick={() => void check(draft.ollamaHost)}>
          Check again
        </button>
      </section>

      <InferenceSettings />

      <section className="panel">
        <h2>Models</h2>
        <p className="hint">Automatic picks the first installed model of the recommended list (shown after the arrow). Only installed models can be chosen; embedding models are offered only for embeddings.</p>
        <div className="grid-fields">
          {MODEL_STAGES.map((stage) => {
            const value = draft.models[stage];
            const installed = installedFor(stage);
            const automatic = status?.reachable ? status.automatic?.[stage] : undefined;
            const missing = value !== null && !installed.includes(value) && status?.reachable;
            return (
              <div className="field" key={stage}>
                <label htmlFor={`${id}-model-${stage}`}>{STAGE_LABELS[stage]}</label>
                <select id={`${id}-model-${stage}`} value={value ?? ''} onChange={(event) => edit({ models: { ...draft.models, [stage]: event.currentTarget.value || null } })}>
                  <option value="">{automatic === undefined ? 'Automatic' : automatic === null ? 'Automatic (no suitable model installed)' : `Automatic → ${automatic}`}</option>
                  {value !== null && !installed.includes(value) ? <option value={value}>{value} (not installed)</option> : null}
                  {installed.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
                {missing ? <p className="field-error">Not installed: run <code>ollama pull {value}</code>.</p> : null}
              </div>
            );
          })}
        </div>
      </section>

      <section className="panel">
        <h2>Analysis</h2>
        <div className="grid-fields">
          <div className="field">
            <label htmlFor={`${id}-mode`}>Analysis mode</label>
            <select id={`${id}-mode`} value={draft.analysisMode} aria-describedby={`${id}-mode-hint`} onChange={(event) => edit({ analysisMode: event.currentTarget.value as 'full' | 'rules-only' })}>
              <option value="full">Full (LLM findings)</option>
              <option value="rules-only">Rules only (no LLM)</option>
            </select>
            <p className="hint" id={`${id}-mode-hint`}>
              Full: structure, findings by the local LLM, merge, summary; needs Ollama. Rules only: chunk tree and ID mentions.
            </p>
          </div>
          <OcrSettings />
          <div className="field">
            <label htmlFor={`${id}-strategy`}>Structure strategy</label>
            <select id={`${id}-strategy`} value={draft.strategy} onChange={(event) => edit({ strategy: event.currentTarget.value as StrategyChoiceSetting })}>
              {STRATEGY_CHOICES.map((choice) => (
                <option key={choice} value={choice}>
                  {STRATEGY_LABELS[choice]}
                </option>
              ))}
            </select>
            <label className="settings__check" htmlFor={`${id}-judge`}>
              <input
                id={`${id}-judge`}
                type="checkbox"
                checked={draft.useJudge}
                disabled={draft.strategy !== 'auto' || draft.analysisMode !== 'full'}
                aria-describedby={`${id}-judge-hint`}
                onChange={(event) => edit({ useJudge: event.currentTarget.checked })}
              />
              Use the LLM judge to choose the strategy
            </label>
            <p className="hint" id={`${id}-judge-hint`}>
              Only with the automatic strategy in a full run.
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-chunk`}>Chunk size (tokens)</label>
            <input
              id={`${id}-chunk`}
              type="number"
              min={128}
              max={32768}
              step={1}
              value={draft.chunkTokens}
              aria-describedby={`${id}-chunk-hint`}
              onChange={(event) => edit({ chunkTokens: Math.max(128, Math.min(32768, Math.round(Number(event.currentTarget.value) || 128))) })}
            />
            <p className="hint" id={`${id}-chunk-hint`}>
              What a chunk aims at; the model's context may make it smaller. Smaller chunks: more calls, more precise pages.
            </p>
          </div>
        </div>
        <div className="grid-fields">
          <div className="field">
            <label htmlFor={`${id}-ctx-mode`}>Context window</label>
            <select id={`${id}-ctx-mode`} value={draft.contextPolicy.mode} onChange={(event) => edit({ contextPolicy: { ...draft.contextPolicy, mode: event.currentTarget.value as 'auto' | 'fixed' } })}>
              <option value="auto">Automatic (from models and chunks)</option>
              <option value="fixed">Fixed size</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-ctx`}>Context size (tokens)</label>
            <input
              id={`${id}-ctx`}
              type="number"
              min={512}
              step={512}
              disabled={draft.contextPolicy.mode === 'auto'}
              value={draft.contextPolicy.numCtx}
              onChange={(event) => edit({ contextPolicy: { ...draft.contextPolicy, numCtx: Number(event.currentTarget.value) || 512 } })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-reviewer`}>Reviewer name (in reports)</label>
            <input id={`${id}-reviewer`} type="text" value={draft.reviewerName} onChange={(event) => edit({ reviewerName: event.currentTarget.value })} />
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${id}-patterns`}>ID patterns (one per line, "name: regular expression"; empty = built-in patterns)</label>
          <textarea
            id={`${id}-patterns`}
            rows={4}
            defaultValue={patternsToText(draft.idPatterns)}
            onBlur={(event) => {
              const parsed = parsePatterns(event.currentTarget.value);
              if (parsed.errors.length === 0) edit({ idPatterns: parsed.patterns });
            }}
          />
          {patternErrors.map((e) => (
            <p key={e} className="field-error">
              {e}
            </p>
          ))}
        </div>
      </section>

      <RetrievalSettingsSection />

      <section className="panel">
        <h2>What counts as a finding</h2>
        <p className="hint">Edit the profile as a form or as JSON (the same profile), then save the settings. A profile that does not validate is not saved; each problem is shown where it is.</p>
        <ProfileEditor profile={draft.profile} />
      </section>

      <section className="panel">
        <h2>Data</h2>
        <p>
          Data folder: <code data-testid="data-dir">{info?.dataDir ?? '…'}</code>
        </p>
        <p className="muted">Database: {info?.dbPath ?? '…'}</p>
      </section>

      <div className={`settings__actions${dirty ? ' settings__actions--dirty' : ''}`} data-testid="settings-actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save settings'}
        </button>
        {dirty ? (
          <>
            <span className="settings__unsaved">
              Unsaved changes (kept while you look elsewhere){profileProblems > 0 ? `; the profile is saved once its ${plural(profileProblems, 'problem')} ${profileProblems === 1 ? 'is' : 'are'} fixed` : ''}
            </span>
            <button
              type="button"
              className="button button--small"
              onClick={() => {
                useSettingsStore.getState().discard();
                useProfileEditorStore.getState().reset(useSettingsStore.getState().settings?.profile ?? null);
              }}
            >
              Discard
            </button>
          </>
        ) : null}
        <span role="status" aria-live="polite">
          {message}
        </span>
        {error ? <p role="alert">{error}</p> : null}
      </div>
    </form>
  );
}
