import { useId, useRef, useState, type CSSProperties, type DragEvent, type ReactNode } from 'react';
import {
  countsSentence,
  MATCH_REASON_TEXT,
  POPULATION_EXTENSIONS,
  RECONCILE_FORMATS,
  type DocumentItem,
  type MatchedEntry,
  type PopulationOnlyEntry,
  type Reconciliation,
  type ReconcileFormat,
  type TieOutReview,
} from '../../../../shared/reconcile';
import { store, useStore, type TieOutList } from '../../store';
import { DocumentPicker } from '../DocumentPicker';
import { PdfPage } from '../source/PdfPage';
import { VirtualList } from '../VirtualList';

const ROW_HEIGHT = 44;
const SOURCE_WIDTH = 400;
const FORMAT_NAMES: Readonly<Record<ReconcileFormat, string>> = { xlsx: 'Excel workpaper', md: 'Markdown', html: 'HTML', pdf: 'PDF', csv: 'CSV', json: 'JSON' };
/** The reason in a narrow column (its full words are the cell's tooltip). */
const SHORT_REASON: Readonly<Record<MatchedEntry['by'], string>> = { id: 'ID', title: 'title', mention: 'mention', auditor: 'by hand' };
const LIST_NAMES: Readonly<Record<TieOutList, string>> = {
  matched: 'Matched',
  onlyInDocument: 'Only in the document',
  onlyInPopulation: 'Only in the population',
};

/** The page opened from a row: the document's page with the item's quote highlighted. */
interface OpenPage {
  item: DocumentItem;
  from: string;
}

function itemName(item: DocumentItem): string {
  return [item.id, item.title].filter(Boolean).join(' ');
}

function reviewText(review: TieOutReview): string {
  const state = review.state === 'confirmed' ? `Confirmed by ${review.reviewer ?? 'the auditor'}` : 'Not reviewed';
  return review.notes.length > 0 ? `${state} · ${review.notes.map((n) => `${n.reviewer}: ${n.text}`).join(' · ')}` : state;
}

function PageButton({ item, from, onOpen }: { item: DocumentItem; from: string; onOpen: (open: OpenPage) => void }) {
  if (item.page === null) return <span className="reconcile__muted">no page</span>;
  return (
    <button type="button" className="button button--small" aria-label={`Open page ${item.page} for ${from}`} onClick={() => onOpen({ item, from })}>
      p. {item.page}
    </button>
  );
}

/** A note on a row or an item, typed in place. */
function NoteButton({ target }: { target: { rowKey?: string; itemKey?: string } }) {
  const [text, setText] = useState<string | null>(null);
  if (text === null) {
    return (
      <button type="button" className="button button--small" onClick={() => setText('')}>
        Note
      </button>
    );
  }
  return (
    <form
      className="reconcile__note"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) void store().reconcile.review('note', { ...target, text });
        setText(null);
      }}
    >
      <input aria-label="Note" value={text} autoFocus onChange={(e) => setText(e.currentTarget.value)} />
      <button type="submit" className="button button--small">
        Save
      </button>
    </form>
  );
}

function Row({ style, columns, cells, testId }: { style: CSSProperties; columns: string; cells: ReactNode[]; testId: string }) {
  return (
    <div role="row" className="reconcile__row" style={{ ...style, gridTemplateColumns: columns }} data-testid={testId}>
      {cells.map((cell, i) => (
        <div role="cell" key={i} className="reconcile__cell">
          {cell}
        </div>
      ))}
    </div>
  );
}

function Head({ columns, names }: { columns: string; names: string[] }) {
  return (
    <div role="row" className="reconcile__row reconcile__head" style={{ gridTemplateColumns: columns }}>
      {names.map((n, i) => (
        <div role="columnheader" key={i} className="reconcile__cell">
          {n}
        </div>
      ))}
    </div>
  );
}

const text = (value: string, className?: string) => (
  <span className={className} title={value}>
    {value}
  </span>
);

function MatchedList({ entries, onOpen, busy }: { entries: readonly MatchedEntry[]; onOpen: (o: OpenPage) => void; busy: boolean }) {
  const columns = '1.6em 3em 6.5em minmax(6em, 1fr) minmax(6em, 1fr) 3.8em 5.5em 9.5em';
  const review = store().reconcile.review;
  return (
    <div role="table" aria-label="Matched" className="reconcile__table">
      <Head columns={columns} names={['', 'Row', 'Key', 'Title (population)', 'In the document', 'Page', 'By', 'Review']} />
      <VirtualList
        className="reconcile__rows"
        count={entries.length}
        rowHeight={ROW_HEIGHT}
        renderRow={(i, style) => {
          const m = entries[i]!;
          const by = m.by === 'title' ? `title ${Math.round(m.score * 100)}%` : SHORT_REASON[m.by];
          return (
            <Row
              key={m.rowKey}
              style={style}
              columns={columns}
              testId="matched-row"
              cells={[
                <span className="reconcile__tick reconcile__tick--ok" aria-label={`ticked: ${MATCH_REASON_TEXT[m.by].text}`}>
                  {MATCH_REASON_TEXT[m.by].mark}
                </span>,
                m.row,
                text(m.key ?? '—'),
                text(m.title),
                text(itemName(m.finding)),
                <PageButton item={m.finding} from={`row ${m.row}`} onOpen={onOpen} />,
                <span title={MATCH_REASON_TEXT[m.by].text}>{by}</span>,
                m.review.state === 'confirmed' ? (
                  <span title={reviewText(m.review)}>
                    ✓ Confirmed{' '}
                    <button type="button" className="link" disabled={busy} onClick={() => void review('undo', { rowKey: m.rowKey, itemKey: m.finding.key })}>
                      undo
                    </button>
                  </span>
                ) : (
                  <span className="reconcile__actions">
                    <button
                      type="button"
                      className="button button--small"
                      disabled={busy}
                      onClick={() => void review('confirm', { rowKey: m.rowKey, itemKey: m.finding.key })}
                    >
                      Confirm
                    </button>
                    <button
                      type="button"
                      className="button button--small"
                      disabled={busy}
                      onClick={() => void review('break', { rowKey: m.rowKey, itemKey: m.finding.key })}
                    >
                      Break
                    </button>
                  </span>
                ),
              ]}
            />
          );
        }}
      />
    </div>
  );
}

function DocumentOnlyList({ result, onOpen }: { result: Reconciliation; onOpen: (o: OpenPage) => void }) {
  const columns = '1.6em 8em minmax(8em, 1fr) 3.8em minmax(7em, 12em) 4.5em';
  const entries = result.onlyInDocument;
  return (
    <div role="table" aria-label="Only in the document" className="reconcile__table">
      <Head columns={columns} names={['', 'ID', 'Title', 'Page', 'Review', '']} />
      <VirtualList
        className="reconcile__rows"
        count={entries.length}
        rowHeight={ROW_HEIGHT}
        renderRow={(i, style) => {
          const d = entries[i]!;
          return (
            <Row
              key={d.finding.key}
              style={style}
              columns={columns}
              testId="document-only-row"
              cells={[
                <span className="reconcile__tick reconcile__tick--exception">✗</span>,
                text(d.finding.id ?? '—'),
                text(d.finding.title),
                <PageButton item={d.finding} from={itemName(d.finding)} onOpen={onOpen} />,
                text(reviewText(d.review)),
                <NoteButton target={{ itemKey: d.finding.key }} />,
              ]}
            />
          );
        }}
      />
    </div>
  );
}

/** A row only in the population, matched by hand to an item only in the document. */
function MatchByHand({ entry, result, busy }: { entry: PopulationOnlyEntry; result: Reconciliation; busy: boolean }) {
  return (
    <select
      aria-label={`Match row ${entry.row} by hand`}
      disabled={busy || result.onlyInDocument.length === 0}
      value=""
      onChange={(e) => {
        const itemKey = e.currentTarget.value;
        if (itemKey) void store().reconcile.review('match', { rowKey: entry.rowKey, itemKey });
      }}
    >
      <option value="">Match with…</option>
      {result.onlyInDocument.map((d) => (
        <option key={d.finding.key} value={d.finding.key}>
          {itemName(d.finding)}
        </option>
      ))}
    </select>
  );
}

function PopulationOnlyList({ result, busy }: { result: Reconciliation; busy: boolean }) {
  const columns = '1.6em 3em 7em minmax(8em, 1fr) minmax(6em, 11em) 10em 4.5em';
  const entries = result.onlyInPopulation;
  return (
    <div role="table" aria-label="Only in the population" className="reconcile__table">
      <Head columns={columns} names={['', 'Row', 'Key', 'Title', 'Review', '', '']} />
      <VirtualList
        className="reconcile__rows"
        count={entries.length}
        rowHeight={ROW_HEIGHT}
        renderRow={(i, style) => {
          const p = entries[i]!;
          const broken = p.broken.length > 0 ? ` · match broken with ${p.broken.join(', ')}` : '';
          return (
            <Row
              key={p.rowKey}
              style={style}
              columns={columns}
              testId="population-only-row"
              cells={[
                <span className="reconcile__tick reconcile__tick--exception">✗</span>,
                p.row,
                text(p.key ?? '—'),
                text(p.title),
                text(reviewText(p.review) + broken),
                <MatchByHand entry={p} result={result} busy={busy} />,
                <NoteButton target={{ rowKey: p.rowKey }} />,
              ]}
            />
          );
        }}
      />
    </div>
  );
}

/** Drop a CSV or XLSX here, or choose one. */
function PopulationDrop({ disabled }: { disabled: boolean }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const take = (files: FileList | null) => {
    const file = files?.[0];
    if (file) void store().reconcile.importFile(file);
  };
  return (
    <div
      className={`dropzone reconcile__drop${over ? ' dropzone--over' : ''}`}
      data-testid="population-drop"
      onDragOver={(e: DragEvent) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e: DragEvent) => {
        e.preventDefault();
        setOver(false);
        if (!disabled) take(e.dataTransfer.files);
      }}
    >
      <span>Drop the population ({POPULATION_EXTENSIONS.join(', ')}) here, or</span>{' '}
      <label htmlFor={inputId} className={`button${disabled ? ' button--disabled' : ''}`}>
        Reconcile with…
      </label>
      <input
        ref={input}
        id={inputId}
        className="visually-hidden"
        type="file"
        accept={POPULATION_EXTENSIONS.join(',')}
        disabled={disabled}
        data-testid="population-picker"
        onChange={(e) => {
          take(e.currentTarget.files);
          if (input.current) input.current.value = '';
        }}
      />
    </div>
  );
}

function Exports({ busy }: { busy: boolean }) {
  const [format, setFormat] = useState<ReconcileFormat>('xlsx');
  const exported = useStore((s) => s.reconcile.exported);
  return (
    <div className="filters" role="group" aria-label="Export the tie-out">
      <label className="inline-field">
        <span>Format</span>
        <select value={format} onChange={(e) => setFormat(e.currentTarget.value as ReconcileFormat)}>
          {RECONCILE_FORMATS.map((f) => (
            <option key={f} value={f}>
              {FORMAT_NAMES[f]}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="button" disabled={busy} onClick={() => void store().reconcile.exportAs(format)}>
        Export tie-out
      </button>
      {exported ? <p role="status">Written: {exported.path}</p> : null}
    </div>
  );
}

/**
 * Reconcile (issue 41): a document and a population (a tracker's CSV or XLSX export), every row tied to the item
 * the document prints for it, the three lists with counts that add up, each item's page one click away, and the
 * auditor's review of each match.
 */
export function ReconcileView() {
  const documents = useStore((s) => s.library.documents);
  const { documentId, preview, keyColumn, titleColumn, mode, result, list, busy, error } = useStore((s) => s.reconcile);
  const reconcile = store().reconcile;
  // The page opened from a row belongs to this document and population: another tie-out starts without it.
  const [opened, setOpened] = useState<(OpenPage & { tieOut: string }) | null>(null);
  const tieOut = result ? `${result.document.documentId}:${result.population.populationId}` : '';
  const open = opened?.tieOut === tieOut ? opened : null;
  const setOpen = (page: OpenPage | null) => setOpened(page && { ...page, tieOut });
  const counts = result?.counts;
  const sizes: Record<TieOutList, number> = {
    matched: counts?.matched ?? 0,
    onlyInDocument: counts?.onlyInDocument ?? 0,
    onlyInPopulation: counts?.onlyInPopulation ?? 0,
  };
  return (
    <section className="reconcile" aria-label="Reconcile">
      <h2>Reconcile a document with a population</h2>
      <div className="filters">
        <DocumentPicker documents={documents} value={documentId} onChoose={(id) => reconcile.chooseDocument(id)} />
        <label className="inline-field">
          <input type="checkbox" checked={mode === 'rules-only'} onChange={(e) => reconcile.setMode(e.currentTarget.checked ? 'rules-only' : 'auto')} />
          <span>Printed IDs only (no model findings)</span>
        </label>
      </div>
      <PopulationDrop disabled={documentId === null || busy} />
      {error ? (
        <p role="alert" className="error-note">
          {error}
        </p>
      ) : null}
      {preview ? (
        <div className="filters" role="group" aria-label="Population columns">
          <span>
            <strong>{preview.file}</strong>
            {preview.sheet ? `, sheet “${preview.sheet}”` : ''}: {preview.rows} rows, header on {preview.kind === 'csv' ? 'line' : 'row'} {preview.headerRow}
          </span>
          <ColumnSelect
            label="Key column"
            reason={preview.proposal.keyReason}
            columns={preview.columns}
            value={keyColumn}
            none="none: match by title"
            onChange={(column) => reconcile.setColumns({ keyColumn: column })}
          />
          <ColumnSelect
            label="Title column"
            reason={preview.proposal.titleReason}
            columns={preview.columns}
            value={titleColumn}
            onChange={(column) => column !== null && reconcile.setColumns({ titleColumn: column })}
          />
          <button type="button" className="button" disabled={busy || titleColumn === null} onClick={() => void reconcile.run()}>
            {busy ? 'Reconciling…' : 'Reconcile'}
          </button>
        </div>
      ) : null}
      {result && counts ? (
        <>
          <p className="reconcile__counts" role="status" aria-label="Counts">
            {countsSentence(counts)}
          </p>
          {result.population.duplicates.length > 0 ? (
            <p className="reconcile__muted">
              Repeated keys (the first row used): {result.population.duplicates.map((d) => `${d.key} on rows ${d.rows.join(', ')}`).join('; ')}
            </p>
          ) : null}
          <Exports busy={busy} />
          <div className="chips" role="tablist" aria-label="Lists">
            {(Object.keys(LIST_NAMES) as TieOutList[]).map((key) => (
              <button key={key} type="button" role="tab" className="chip" aria-selected={list === key} onClick={() => reconcile.showList(key)}>
                {LIST_NAMES[key]} ({sizes[key]})
              </button>
            ))}
          </div>
          <div className={`reconcile__body${open ? ' reconcile__body--with-page' : ''}`}>
            {list === 'matched' ? <MatchedList entries={result.matched} onOpen={setOpen} busy={busy} /> : null}
            {list === 'onlyInDocument' ? <DocumentOnlyList result={result} onOpen={setOpen} /> : null}
            {list === 'onlyInPopulation' ? <PopulationOnlyList result={result} busy={busy} /> : null}
            {open && open.item.page !== null ? (
              <aside className="reconcile__page" style={{ width: SOURCE_WIDTH + 18 }} aria-label={`Page ${open.item.page} of ${result.document.file}`}>
                <div className="panel__head">
                  <strong>
                    Page {open.item.page}: {itemName(open.item)}
                  </strong>
                  <button type="button" className="button button--small" onClick={() => setOpen(null)}>
                    Close
                  </button>
                </div>
                <PdfPage
                  key={`${open.item.key}:${open.item.page}`}
                  documentId={result.document.documentId}
                  page={open.item.page}
                  quote={open.item.quote}
                  {...(open.item.start !== null && open.item.end !== null ? { range: { start: open.item.start, end: open.item.end } } : {})}
                  width={SOURCE_WIDTH}
                />
              </aside>
            ) : null}
          </div>
        </>
      ) : null}
    </section>
  );
}

/** One of the population's columns to read as the key or the title; `none` offers no column at all. */
function ColumnSelect({
  label,
  reason,
  columns,
  value,
  none,
  onChange,
}: {
  label: string;
  reason: string;
  columns: readonly string[];
  value: string | null;
  none?: string;
  onChange: (column: string | null) => void;
}) {
  return (
    <label className="inline-field" title={reason}>
      <span>{label}</span>
      <select value={value ?? ''} onChange={(e) => onChange(e.currentTarget.value || null)}>
        {none !== undefined ? <option value="">{none}</option> : null}
        {columns.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );
}
