import { MODEL_STAGES, type ModelStage } from '../../../../shared/contract';
import { store, useStore } from '../../store';

const STAGE_LABELS: Record<ModelStage, string> = {
  judge: 'Chunking judge',
  split: 'Tree split',
  extract: 'Finding extraction',
  summary: 'Summary',
  embed: 'Embeddings',
};

/** The model per stage, from the installed models (chat models for chat stages, embedding models for embeddings). */
export function ModelsSection({ id }: { id: string }) {
  const models = useStore((s) => s.settings.draft?.models);
  const status = useStore((s) => s.settings.status);
  if (!models) return null;
  // Chat stages are offered chat models only, the embedding stage embedding models only.
  const installedFor = (stage: ModelStage) => (status?.models ?? []).filter((m) => (stage === 'embed') === (m.embedding === true)).map((m) => m.name);
  return (
    <section className="panel">
      <h2>Models</h2>
      <p className="hint">
        Automatic picks the first installed model of the recommended list (shown after the arrow). Only installed models can be chosen; embedding models are
        offered only for embeddings.
      </p>
      <div className="grid-fields">
        {MODEL_STAGES.map((stage) => {
          const value = models[stage];
          const installed = installedFor(stage);
          const automatic = status?.reachable ? status.automatic?.[stage] : undefined;
          const missing = value !== null && !installed.includes(value) && status?.reachable;
          return (
            <div className="field" key={stage}>
              <label htmlFor={`${id}-model-${stage}`}>{STAGE_LABELS[stage]}</label>
              <select
                id={`${id}-model-${stage}`}
                value={value ?? ''}
                onChange={(event) => store().settings.edit({ models: { ...models, [stage]: event.currentTarget.value || null } })}
              >
                <option value="">
                  {automatic === undefined ? 'Automatic' : automatic === null ? 'Automatic (no suitable model installed)' : `Automatic → ${automatic}`}
                </option>
                {value !== null && !installed.includes(value) ? <option value={value}>{value} (not installed)</option> : null}
                {installed.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
              {missing ? (
                <p className="field-error">
                  Not installed: run <code>ollama pull {value}</code>.
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
    </section>
  );
}
