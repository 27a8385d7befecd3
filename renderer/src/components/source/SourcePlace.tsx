import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { ChunkNode } from '../../../../shared/types';
import { store } from '../../store';
import { nodeText, placeOf, sectionName, treeOf } from '../../sourceCache';
import { usePrintedLabel } from './usePrintedLabel';
import { PdfPage } from './PdfPage';

export interface Place {
  /** [start, end) in the document's canonical text. */
  start: number;
  end: number;
  page: number | null;
  /** What this place is: "main source", "mention of CR-310"... */
  label: string;
}

/** Characters of surrounding text shown before and after the quote. */
const BEFORE = 220;
const AFTER = 360;

interface Resolved {
  leaf: ChunkNode | null;
  section: string | null;
  before: string;
  quote: string;
  after: string;
}

/** Opens the chunk tree at a place, remembering where to come back to. */
export function openInDocument(documentId: number, nodeIndex: number | null): void {
  void store().doc.show(documentId, 'document', nodeIndex === null ? {} : { nodeIndex });
}

/**
 * The source beside a finding or a mention: the place named by page and section, its surrounding text
 * with the quote marked, the PDF page drawn with the quote highlighted, and previous/next between places.
 */
export function SourcePlace({ documentId, places }: { documentId: number; places: readonly Place[] }) {
  const [at, setAt] = useState(0);
  // What the place shown resolves to; a resolution of the place shown before is not used while this one's arrives.
  const [resolution, setResolution] = useState<{ key: string; value: Resolved } | null>(null);
  const [width, setWidth] = useState(480);
  const box = useRef<HTMLDivElement>(null);
  const place = places[Math.min(at, places.length - 1)]!;
  const placeKey = `${documentId}:${place.start}:${place.end}`;
  const resolved = resolution?.key === placeKey ? resolution.value : null;

  // Measured before the first paint, then on every resize (committed at once, before the frame is painted): the page
  // is drawn at the width it is shown at, never first at a guess (wider than a narrow pane), and a page drawn for the
  // old width is never shown as drawn in a pane of the new one.
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const fit = (contentWidth: number) => setWidth(Math.max(240, Math.floor(contentWidth) - 2));
    const style = getComputedStyle(element);
    fit(element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight));
    const observer = new ResizeObserver(([entry]) => entry && flushSync(() => fit(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const nodes = await treeOf(documentId);
      const { leaf, path } = placeOf(nodes, place.start);
      const text = leaf ? await nodeText(documentId, leaf.index) : '';
      const from = leaf ? place.start - leaf.start : 0;
      const to = leaf ? Math.min(text.length, place.end - leaf.start) : 0;
      if (cancelled) return;
      setResolution({
        key: `${documentId}:${place.start}:${place.end}`,
        value: {
          leaf,
          section: sectionName(path, text, from),
          before: text.slice(Math.max(0, from - BEFORE), from),
          quote: text.slice(from, to),
          after: text.slice(to, to + AFTER),
        },
      });
    })();
    return () => {
      cancelled = true;
    };
  }, [documentId, place.start, place.end]);

  const page = place.page ?? resolved?.leaf?.pageStart ?? null;
  const printedLabel = usePrintedLabel(documentId, page);
  return (
    <section className="source-place" aria-label="Source" data-testid="source-place" data-place={at}>
      <div className="source-place__head">
        <h3>
          {page !== null ? `Page ${page}` : 'Page unknown'}
          {printedLabel ? (
            <span data-testid="printed-label" title="The PDF's page counted from its first page, then the number the document prints on it">
              , printed {printedLabel}
            </span>
          ) : null}
          {resolved?.section ? <span className="source-place__section"> · {resolved.section}</span> : null}
        </h3>
        {places.length > 1 ? (
          <div className="source-place__nav" role="group" aria-label="Places">
            <button type="button" className="button button--small" disabled={at === 0} onClick={() => setAt(at - 1)}>
              ← Previous
            </button>
            <span className="muted" data-testid="place-counter">
              {at + 1} of {places.length}: {place.label}
            </span>
            <button type="button" className="button button--small" disabled={at >= places.length - 1} onClick={() => setAt(at + 1)}>
              Next →
            </button>
          </div>
        ) : (
          <span className="muted">{place.label}</span>
        )}
      </div>
      {resolved ? (
        <p className="source-place__text" data-testid="surrounding-text">
          {resolved.before.length >= BEFORE ? '…' : ''}
          {resolved.before}
          <mark className="hl hl--evidence">{resolved.quote}</mark>
          {resolved.after}
          {resolved.after.length >= AFTER ? '…' : ''}
        </p>
      ) : (
        <p className="muted">Finding the place…</p>
      )}
      <button type="button" className="link" onClick={() => openInDocument(documentId, resolved?.leaf?.index ?? null)}>
        Open this place in the document
      </button>
      <div ref={box} className="source-place__page">
        {page !== null && resolved ? <PdfPage documentId={documentId} page={page} quote={resolved.quote} range={place} width={width} /> : null}
      </div>
    </section>
  );
}
