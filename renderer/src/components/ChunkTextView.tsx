import type { ReactNode } from 'react';
import type { Highlight } from '../../../shared/contract';
import { useTreeStore } from '../stores/useTreeStore';

/** Cuts the text at non-overlapping highlights (the earlier one wins an overlap). */
export function highlightText(text: string, highlights: readonly Highlight[]): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  for (const h of [...highlights].sort((a, b) => a.start - b.start)) {
    if (h.start < at || h.end <= h.start) continue;
    if (h.start > at) out.push(text.slice(at, h.start));
    out.push(
      <mark key={`${h.start}-${h.end}-${h.kind}`} className={`hl hl--${h.kind}`} title={`${h.kind === 'evidence' ? 'Evidence of' : 'ID mention'} ${h.label}`}>
        {text.slice(h.start, h.end)}
      </mark>,
    );
    at = h.end;
  }
  if (at < text.length) out.push(text.slice(at));
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
