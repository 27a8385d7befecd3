import { STRATEGY_CHOICES, type IdPatternSetting, type StrategyChoiceSetting } from '../../../../shared/contract';
import { store, useStore } from '../../store';
import { OcrSettings } from '../OcrSettings';

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

/** How documents are analysed: the mode, OCR, the structure strategy and judge, chunk and context sizes, the reviewer, ID patterns. */
export function AnalysisSection({ id }: { id: string }) {
  const draft = useStore((s) => s.settings.draft);
  if (!draft) return null;
  const edit = store().settings.edit;
  const { errors: patternErrors } = parsePatterns(patternsToText(draft.idPatterns));
  return (
    <section className="panel">
      <h2>Analysis</h2>
      <div className="grid-fields">
        <div className="field">
          <label htmlFor={`${id}-mode`}>Analysis mode</label>
          <select
            id={`${id}-mode`}
            value={draft.analysisMode}
            aria-describedby={`${id}-mode-hint`}
            onChange={(event) => edit({ analysisMode: event.currentTarget.value as 'full' | 'rules-only' })}
          >
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
          <select
            id={`${id}-ctx-mode`}
            value={draft.contextPolicy.mode}
            onChange={(event) => edit({ contextPolicy: { ...draft.contextPolicy, mode: event.currentTarget.value as 'auto' | 'fixed' } })}
          >
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
  );
}
