/**
 * Settings > Ask the documents: the relevance threshold, the retrieval judge
 * and its rounds, saved with the other settings (`retrieval`), and which
 * embedding model the index uses (chosen under Models). The Ask panel and
 * `npm run ask` start from these values.
 */
import { useId } from 'react';
import type { RetrievalSettings } from '../../../shared/retrieval';
import { store, useStore } from '../store';

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export function RetrievalSettingsSection() {
  const id = useId();
  const draft = useStore((s) => s.settings.draft);
  const edit = store().settings.edit;
  if (!draft) return null;
  const retrieval = draft.retrieval;
  const change = (patch: Partial<RetrievalSettings>) => edit({ retrieval: { ...retrieval, ...patch } });
  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid="retrieval-settings">
      <h2 id={`${id}-title`}>Ask the documents</h2>
      <div className="grid-fields">
        <div className="field">
          <label htmlFor={`${id}-threshold`}>Relevance threshold (0 to 1)</label>
          <input
            id={`${id}-threshold`}
            type="number"
            min={0}
            max={1}
            step={0.05}
            value={retrieval.threshold}
            aria-describedby={`${id}-threshold-hint`}
            onChange={(event) => change({ threshold: clamp(Number(event.currentTarget.value) || 0, 0, 1) })}
          />
          <p className="hint" id={`${id}-threshold-hint`}>
            A passage is read only when it is at least this relevant (its meaning or its share of the question&apos;s words). Higher: fewer, closer passages;
            more &quot;not in the documents&quot;.
          </p>
        </div>
        <div className="field">
          <label className="settings__check" htmlFor={`${id}-judge`}>
            <input id={`${id}-judge`} type="checkbox" checked={retrieval.judge} onChange={(event) => change({ judge: event.currentTarget.checked })} />
            Use the retrieval judge
          </label>
          <label htmlFor={`${id}-rounds`}>Search rounds the judge may ask for</label>
          <input
            id={`${id}-rounds`}
            type="number"
            min={1}
            max={5}
            step={1}
            disabled={!retrieval.judge}
            value={retrieval.maxRounds}
            onChange={(event) => change({ maxRounds: clamp(Math.round(Number(event.currentTarget.value) || 1), 1, 5) })}
          />
          <p className="hint">
            The judge keeps the passages that help, orders them and may search again with a better query. Off: the search ranking is used as it is.
          </p>
        </div>
        <div className="field">
          <span>Embedding model</span>
          <p data-testid="retrieval-embed-model">
            {draft.models.embed ?? 'Automatic (the first installed of nomic-embed-text, mxbai-embed-large, bge-m3, all-minilm)'}
          </p>
          <p className="hint">Chosen under Models, Embeddings. Without an installed embedding model, questions use the text index only.</p>
        </div>
      </div>
    </section>
  );
}
