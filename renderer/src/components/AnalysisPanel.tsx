import { realJustification, STRATEGY_SOURCES, strategyName } from '../../../shared/plainWords';
import { plural } from '../format';
import { store, useOpenPart } from '../store';
import { ErrorNote } from './ErrorNote';
import { Details } from './Details';

const pages = (a: number | null, b: number | null) => (a === null ? '' : a === b || b === null ? `p. ${a}` : `pp. ${a}–${b}`);

const averageOf = (values: readonly number[]): number | null => (values.length === 0 ? null : Math.round(values.reduce((a, v) => a + v, 0) / values.length));

/** A target below this share of what Settings ask for cuts a document into many small calls: it is said, not taken silently. */
const SMALL_TARGET_SHARE = 0.25;

/** The judge's chunk target beside what the run's settings asked for (trial 2026-11-28 row 16). */
function targetText(target: number, settings: number | null, source: string): string {
  const chosen = source === 'override' ? 'from Settings' : source === 'llm' || source === 'cached' ? 'chosen by the language model' : 'chosen by fixed rules';
  const differs = settings !== null && settings !== target && source !== 'override';
  return `target ${target.toLocaleString()} tokens a chunk, ${chosen}${differs ? ` (Settings ask for ${settings.toLocaleString()})` : ''}`;
}

/** A target far below what Settings ask cuts the document into many small calls: said, never taken silently. */
function SmallTargetNote({ target, settings, source, chunks }: { target: number; settings: number | null; source: string; chunks: number }) {
  if (settings === null || source === 'override' || target >= settings * SMALL_TARGET_SHARE) return null;
  return (
    <p className="warning" role="note" data-testid="small-chunk-target">
      Far smaller than Settings ask: {plural(chunks, 'chunk')}, each its own call, and long lists may be cut. Choose a structure strategy in Settings to keep
      your size.
    </p>
  );
}

/** What the full analysis stored for the open document: the judge's decision, the summary and the chunks that failed. */
export function AnalysisPanel() {
  const analysis = useOpenPart('analysis', (a) => a.analysis, null);
  const error = useOpenPart('analysis', (a) => a.error, null);
  const failed = analysis?.chunks.filter((c) => c.status === 'failed') ?? [];
  // The chunks as they came out (the document's sections are often shorter than the target), beside the target.
  const averageLeafTokens = useOpenPart('tree', (t) => averageOf(t.tree?.nodes.filter((n) => n.isLeaf).map((n) => n.tokenEstimate) ?? []), null);
  // The strategy that cut the tree the analysed chunks belong to: what ran, whatever was chosen.
  const treeStrategy = useOpenPart('tree', (t) => (t.tree && analysis && t.tree.treeId === analysis.treeId ? t.tree.strategy : null), null);
  const used = treeStrategy ?? analysis?.judge?.strategy ?? null;
  return (
    <section aria-labelledby="analysis-title" className="panel analysis" data-testid="analysis">
      <h2 id="analysis-title">Analysis{analysis?.runId ? ` (run #${analysis.runId})` : ''}</h2>
      {error ? <p role="alert">{error}</p> : null}
      {analysis && !analysis.judge && analysis.runId === null ? (
        <p className="empty">Not analysed with the LLM yet (rules-only or no run): no judge decision, summary or chunk results.</p>
      ) : null}
      {analysis?.judge ? (
        <div data-testid="judge-decision">
          <h3>Structure strategy</h3>
          <dl className="facts">
            <dt>Strategy</dt>
            <dd data-testid="strategy-used">
              {used === analysis.judge.strategy ? (
                <>
                  <strong>{strategyName(used)}</strong> <span className="muted">({STRATEGY_SOURCES[analysis.judge.source] ?? analysis.judge.source})</span>
                </>
              ) : (
                <>
                  <strong>{strategyName(used)}</strong>{' '}
                  <span className="muted">
                    (the {analysis.judge.source === 'override' ? 'strategy chosen in Settings' : 'language model’s choice'},{' '}
                    {strategyName(analysis.judge.strategy)}, did not fit this document)
                  </span>
                </>
              )}
            </dd>
            <dt>Why</dt>
            <dd>
              {analysis.judge.source === 'override'
                ? 'You chose it in Settings (Structure strategy).'
                : (realJustification(analysis.judge.justification) ?? 'No reason was given.')}
            </dd>
            {analysis.judge.fallbackReason ? (
              <>
                <dt>Fallback</dt>
                <dd>
                  The model’s answer could not be used, so the document’s own structure decided.{' '}
                  <Details>
                    <span className="validator-text">{analysis.judge.fallbackReason}</span>
                  </Details>
                </dd>
              </>
            ) : null}
            <dt>Chunk size</dt>
            <dd data-testid="chunk-size">
              {averageLeafTokens !== null ? `average ${averageLeafTokens.toLocaleString()} tokens a chunk; ` : ''}
              {targetText(analysis.judge.targetChunkTokens, analysis.judge.settingsChunkTokens ?? null, analysis.judge.source)}. Sections shorter than the
              target stay whole, and the budget in Settings is the most a chunk may hold; overlap {analysis.judge.overlapChars.toLocaleString()} characters.
            </dd>
          </dl>
          <SmallTargetNote
            target={analysis.judge.targetChunkTokens}
            settings={analysis.judge.settingsChunkTokens ?? null}
            source={analysis.judge.source}
            chunks={analysis.chunks.length}
          />
        </div>
      ) : null}
      {analysis && analysis.chunks.length > 0 ? (
        <p data-testid="chunk-counts">
          Chunks: {analysis.counts.done} done, {analysis.counts.failed} failed
          {analysis.counts.queued + analysis.counts.running > 0 ? `, ${analysis.counts.queued + analysis.counts.running} still to analyse` : ''} (of{' '}
          {analysis.chunks.length}).
        </p>
      ) : null}
      {failed.length > 0 ? (
        <>
          <h3>Chunks that failed analysis ({failed.length})</h3>
          <ul className="failed-chunks" data-testid="failed-chunks">
            {failed.map((c) => (
              <li key={c.nodeIndex}>
                <button type="button" className="link" onClick={() => void store().tree.select(c.nodeIndex)}>
                  Chunk {c.nodeIndex}
                  {c.title ? `: ${c.title}` : ''} {pages(c.pageStart, c.pageEnd)}
                </button>
                {c.error ? <ErrorNote error={c.error} /> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {analysis?.summary ? (
        <div data-testid="document-summary">
          <h3>
            Summary{' '}
            <span className="muted">
              ({plural(analysis.summary.chunkCount, 'chunk')}
              {analysis.summary.model ? `, ${analysis.summary.model}` : ''})
            </span>
          </h3>
          {analysis.summary.ungroundedIds.length > 0 ? (
            // The model's words: an ID no verified finding has is marked, as ungrounded findings are.
            <p className="field-error" role="note" data-testid="summary-ungrounded-ids">
              Not verified: this summary names {analysis.summary.ungroundedIds.join(', ')}, which no verified finding of this document has (the model may have
              invented {analysis.summary.ungroundedIds.length === 1 ? 'it' : 'them'}, or obeyed text planted in the document). Check by hand.
            </p>
          ) : null}
          <div className="summary-text" tabIndex={0} role="region" aria-label="Document summary">
            {analysis.summary.text}
          </div>
        </div>
      ) : null}
    </section>
  );
}
