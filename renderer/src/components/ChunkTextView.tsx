import type { ReactNode } from 'react';
import type { Highlight } from '../../../shared/contract';
import { useTreeStore } from '../stores/useTreeStore';

function marksIn(text: string, from: number, to: number, highlights: readonly Highlight[], keyPrefix: string): ReactNode[] {
  const out: ReactNode[] = [];
  let at = from;
  for (const h of highlights) {
    const start = Math.max(h.start, from);
    const end = Math.min(h.end, to);
    if (start < at || end <= start) continue;
    if (start > at) out.push(text.slice(at, start));
    out.push(
      <mark key={`${keyPrefix}${start}-${end}-${h.kind}`} className={`hl hl--${h.kind}`} title={`${h.kind === 'evidence' ? 'Evidence of' : 'ID mention'} ${h.label}`}>
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  if (at < to) out.push(text.slice(at, to));
  return out;
}

/**
 * Cuts the text at its highlights: findings' evidence first (overlapping evidence: the earlier one wins), and ID
 * mentions inside and between them, so an evidence quote that starts with an ID keeps both marks.
 */
export function highlightText(text: string, highlights: readonly Highlight[]): ReactNode[] {
  const sorted = [...highlights].sort((a, b) => a.start - b.start || b.end - a.end);
  const evidence = sorted.filter((h) => h.kind === 'evidence');
  const mentions = sorted.filter((h) => h.kind !== 'evidence');
  const out: ReactNode[] = [];
  let at = 0;
  for (const e of evidence) {
    if (e.start < at || e.end <= e.start) continue;
    out.push(...marksIn(text, at, e.start, mentions, `o${at}-`));
    out.push(
      <mark key={`e${e.start}-${e.end}`} className="hl hl--evidence" title={`Evidence of ${e.label}`}>
        {marksIn(text, e.start, e.end, mentions, `i${e.start}-`)}
      </mark>,
    );
    at = e.end;
  }
  out.push(...marksIn(text, at, text.length, mentions, `o${at}-`));
  return out;
}

/** The selected node's text with mentions and findings' evidence highlighted. */
export function ChunkTextView() {
  const text = useTreeStore((s) => s.text);
  const error = useTreeStore((s) => s.textError);
  const selected = useTreeStore((s) => s.selectedIndex);
  const node = useTreeStore((s) => s.tree?.nodes.find((n) => n.index === s.selectedIndex));
  return (
    <section aria-labelledby="chunk-text-title" className="panel chunk-text" data-testid="chunk-text">
      <h2 id="chunk-text-title">{text ? text.title || 'Document' : 'Chunk text'}</h2>
      {error ? <p role="alert">{error}</p> : null}
      {selected === null ? <p className="empty">Select a node in the tree to read its text.</p> : null}
      {text && node ? (
        <>
          <dl className="facts">
            <dt>Path</dt>
            <dd>{node.section.path.length > 0 ? node.section.path.join(' › ') : '(root)'}</dd>
            <dt>Pages</dt>
            <dd>{text.pageStart === text.pageEnd ? text.pageStart : `${text.pageStart}–${text.pageEnd}`}</dd>
            <dt>Offsets</dt>
            <dd>
              {text.start.toLocaleString()}–{text.end.toLocaleString()} (~{node.tokenEstimate.toLocaleString()} tokens)
            </dd>
            <dt>Origin</dt>
            <dd>{text.origin}</dd>
          </dl>
          {text.highlights.length > 0 ? (
            <p className="legend" aria-label="Highlight legend">
              {text.highlights.some((h) => h.kind === 'mention') ? <mark className="hl hl--mention">ID mention</mark> : null}{' '}
              {text.highlights.some((h) => h.kind === 'evidence') ? <mark className="hl hl--evidence">finding evidence</mark> : null}
            </p>
          ) : null}
          <pre className="chunk-text__body" tabIndex={0} aria-label="Text of the selected chunk">
            {highlightText(text.text, text.highlights)}
          </pre>
        </>
      ) : null}
    </section>
  );
}
