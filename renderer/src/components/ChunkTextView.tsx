import { useRef, useState, type ReactNode } from 'react';
import type { Highlight } from '../../../shared/contract';
import { store, useOpenPart } from '../store';
import { ReviewFormShell } from './review/ReviewForms';

function marksIn(text: string, from: number, to: number, highlights: readonly Highlight[], keyPrefix: string): ReactNode[] {
  const out: ReactNode[] = [];
  let at = from;
  for (const h of highlights) {
    const start = Math.max(h.start, from);
    const end = Math.min(h.end, to);
    if (start < at || end <= start) continue;
    if (start > at) out.push(text.slice(at, start));
    out.push(
      <mark
        key={`${keyPrefix}${start}-${end}-${h.kind}`}
        className={`hl hl--${h.kind}`}
        title={`${h.kind === 'evidence' ? 'Evidence of' : 'ID mention'} ${h.label}`}
      >
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

/**
 * Offsets of a DOM selection inside `root`, counted in characters of the rendered text. The chunk text is
 * rendered verbatim (highlights only wrap it in marks), so these are offsets into the chunk's text.
 */
export function selectionOffsets(root: HTMLElement, selection: Selection | null): { start: number; end: number } | null {
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  if (!root.contains(range.startContainer) || !root.contains(range.endContainer)) return null;
  const before = document.createRange();
  before.selectNodeContents(root);
  before.setEnd(range.startContainer, range.startOffset);
  const start = before.toString().length;
  return { start, end: start + range.toString().length };
}

/** A finding the model missed, from the selected text: its evidence is that text, so it is grounded by construction. */
function ManualFindingForm({ documentId, start, end, quote, onDone }: { documentId: number; start: number; end: number; quote: string; onDone(): void }) {
  const [title, setTitle] = useState('');
  const [severity, setSeverity] = useState('Medium');
  const [type, setType] = useState('observation');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [needsReviewer, setNeedsReviewer] = useState(false);
  return (
    <ReviewFormShell
      className="manual-form"
      label="Add a finding from the selection"
      data-testid="manual-finding-form"
      submitLabel="Add finding"
      onCancel={onDone}
      onSubmit={() => {
        void store()
          .review.act('review.addManual', { documentId, start, end, title, severity, type, description })
          .then((ok) => {
            const failure = store().review.error;
            if (ok) {
              onDone();
              store().nav.setView('findings');
            } else {
              setError(failure?.message ?? 'The finding could not be added.');
              setNeedsReviewer(failure?.details?.setting === 'reviewerName');
            }
          });
      }}
    >
      <p className="muted">
        Evidence ({end - start} characters): “{quote.length > 160 ? `${quote.slice(0, 160)}…` : quote}”
      </p>
      <label className="field">
        <span>Title</span>
        <input type="text" required autoFocus value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
      </label>
      <label className="field">
        <span>Severity</span>
        <input type="text" value={severity} onChange={(e) => setSeverity(e.currentTarget.value)} />
      </label>
      <label className="field">
        <span>Type</span>
        <input type="text" value={type} onChange={(e) => setType(e.currentTarget.value)} />
      </label>
      <label className="field">
        <span>Description</span>
        <textarea rows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      </label>
      {error ? (
        <p role="alert" className="error-text">
          {error}{' '}
          {needsReviewer ? (
            <button type="button" className="link" onClick={() => store().nav.setView('settings')}>
              Open the settings
            </button>
          ) : null}
        </p>
      ) : null}
    </ReviewFormShell>
  );
}

/** The selected node's text with mentions and findings' evidence highlighted; selecting text offers to add a finding. */
export function ChunkTextView() {
  const preRef = useRef<HTMLPreElement>(null);
  const [selection, setSelection] = useState<{ start: number; end: number; quote: string } | null>(null);
  const [adding, setAdding] = useState(false);
  const text = useOpenPart('tree', (t) => t.text, null);
  const error = useOpenPart('tree', (t) => t.textError, null);
  const selected = useOpenPart('tree', (t) => t.selectedIndex, null);
  const node = useOpenPart('tree', (t) => t.tree?.nodes.find((n) => n.index === t.selectedIndex), undefined);
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
          <pre
            ref={preRef}
            className="chunk-text__body"
            tabIndex={0}
            aria-label="Text of the selected chunk"
            data-testid="chunk-text-body"
            onMouseUp={() => {
              const at = preRef.current ? selectionOffsets(preRef.current, window.getSelection()) : null;
              if (at && at.end > at.start) {
                setSelection({ start: text.start + at.start, end: text.start + at.end, quote: text.text.slice(at.start, at.end) });
                setAdding(false);
              }
            }}
            onKeyUp={(e) => {
              if (!e.shiftKey) return;
              const at = preRef.current ? selectionOffsets(preRef.current, window.getSelection()) : null;
              if (at && at.end > at.start) setSelection({ start: text.start + at.start, end: text.start + at.end, quote: text.text.slice(at.start, at.end) });
            }}
          >
            {highlightText(text.text, text.highlights)}
          </pre>
          {selection && !adding ? (
            <p className="selection-bar">
              <button type="button" className="button button--small button--primary" onClick={() => setAdding(true)}>
                Add a finding from the selection
              </button>{' '}
              <span className="muted">
                offsets {selection.start.toLocaleString()}–{selection.end.toLocaleString()}
              </span>
            </p>
          ) : null}
          {selection && adding ? (
            <ManualFindingForm
              documentId={text.documentId}
              start={selection.start}
              end={selection.end}
              quote={selection.quote}
              onDone={() => {
                setAdding(false);
                setSelection(null);
              }}
            />
          ) : null}
        </>
      ) : null}
    </section>
  );
}
