import { useState } from 'react';
import {
  COMPARE_FORMATS,
  COMPARE_LABEL_TEXT,
  COMPARE_LABELS,
  modelStatusText,
  type CompareCandidate,
  type CompareFormat,
  type ComparePair,
  type CompareSide,
  type Comparison,
} from '../../../../shared/compare';
import { store, useStore } from '../../store';
import { formatPageList } from '../../format';
import { DocumentPicker } from '../DocumentPicker';
import { PdfPage } from '../source/PdfPage';

const SOURCE_WIDTH = 520;

/** One side of a pair: ID, title, severity, quote, and its page one click away (drawn below with the quote highlighted). */
function SideCell({ side, documentId, notes }: { side: CompareSide | null; documentId: number; notes?: ComparePair['notes'] }) {
  const [open, setOpen] = useState(false);
  if (!side) return <td className="compare__none">—</td>;
  return (
    <td>
      <strong>
        {side.id ? `${side.id} ` : side.number ? `${side.number}. ` : ''}
        {side.title}
      </strong>
      {/* A side without a severity says so: it is not rated, and never reads as a change of severity. */}
      <span className="compare__severity"> ({side.severity ?? 'unrated'})</span>
      <blockquote className="compare__quote">{side.quote}</blockquote>
      {side.page !== null ? (
        <button type="button" className="button button--small" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide' : 'Show'} page {side.page}
        </button>
      ) : null}
      {side.pages.length > 1 ? <span className="compare__pages"> also on {formatPageList(side.pages.filter((p) => p !== side.page))}</span> : null}
      {notes && notes.length > 0 ? (
        <ul className="compare__notes" aria-label="Auditor notes">
          {notes.map((n, i) => (
            <li key={i}>
              {n.reviewer}: {n.text}
            </li>
          ))}
        </ul>
      ) : null}
      {open && side.page !== null ? (
        <PdfPage
          documentId={documentId}
          page={side.page}
          quote={side.quote}
          {...(side.start !== null && side.end !== null ? { range: { start: side.start, end: side.end } } : {})}
          width={SOURCE_WIDTH}
        />
      ) : null}
    </td>
  );
}

/** The ID a pair goes by: the printed finding ID (either side's), else its printed number. */
export function pairId(pair: ComparePair): string | null {
  return pair.earlier?.id ?? pair.later?.id ?? pair.earlier?.number ?? pair.later?.number ?? null;
}

/** Pairs in the order of their printed IDs (TOB-PE-2 before TOB-PE-10), pairs without one after them in their own order. */
export function pairsInIdOrder(pairs: readonly ComparePair[]): ComparePair[] {
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return [...pairs].sort((a, b) => {
    const x = pairId(a);
    const y = pairId(b);
    if (x === null || y === null) return x === y ? a.index - b.index : x === null ? 1 : -1;
    return collator.compare(x, y) || a.index - b.index;
  });
}

function PairRow({ pair, comparison }: { pair: ComparePair; comparison: Comparison }) {
  const id = pairId(pair);
  return (
    <tr data-label={pair.label} data-id={id ?? ''}>
      <th scope="row" className="compare__id">
        {id ? <code>{id}</code> : '—'}
      </th>
      <td>{COMPARE_LABEL_TEXT[pair.label]}</td>
      <td>
        {pair.statedStatus ? (
          <>
            <span className="compare__status" title="The later document's own words">
              “{pair.statedStatus.text}”
            </span>
            <br />
            <small>
              p. {pair.statedStatus.page}: {pair.statedStatus.quote}
              {pair.statedStatus.source === 'model' ? ' (pointed to by the model, quote found in the text)' : ''}
            </small>
          </>
        ) : null}
      </td>
      <SideCell side={pair.earlier} documentId={comparison.earlier.documentId} notes={pair.notes} />
      <SideCell side={pair.later} documentId={comparison.later.documentId} />
    </tr>
  );
}

function CandidateItem({ candidate, comparison }: { candidate: CompareCandidate; comparison: Comparison }) {
  const earlier = comparison.pairs[candidate.earlierIndex]?.earlier;
  const later = comparison.pairs[candidate.laterIndex]?.later;
  const busy = useStore((s) => s.compare.busy);
  const decide = (decision: 'confirmed' | 'rejected' | null) => void store().compare.decide(candidate, decision);
  return (
    <li className="compare__candidate">
      <p>
        <strong>{earlier?.title ?? '?'}</strong> ↔ <strong>{later?.title ?? '?'}</strong> ({Math.round(candidate.score * 100)}%): {candidate.reason}
      </p>
      {candidate.decision ? (
        <p>
          {candidate.decision === 'confirmed' ? 'Confirmed: shown as one pair.' : 'Rejected: kept apart.'}{' '}
          <button type="button" className="button button--small" disabled={busy} onClick={() => decide(null)}>
            Undo
          </button>
        </p>
      ) : (
        <p>
          <button type="button" className="button button--small" disabled={busy} onClick={() => decide('confirmed')}>
            Confirm pair
          </button>{' '}
          <button type="button" className="button button--small" disabled={busy} onClick={() => decide('rejected')}>
            Reject
          </button>
        </p>
      )}
    </li>
  );
}

/**
 * Re-audit comparison (issue 30): an earlier and a later version of a report side by side, each pair labelled,
 * the later document's stated status in its own words, the candidates the auditor confirms or rejects.
 */
const FORMAT_NAMES: Readonly<Record<CompareFormat, string>> = { md: 'Markdown', html: 'HTML', pdf: 'PDF', csv: 'CSV', json: 'JSON' };

/** The comparison as a report in the exports folder, in the format chosen. */
function ExportControls({ busy }: { busy: boolean }) {
  const [format, setFormat] = useState<CompareFormat>('md');
  const exported = useStore((s) => s.compare.exported);
  return (
    <div className="filters" role="group" aria-label="Export the comparison">
      <label className="inline-field">
        <span>Format</span>
        <select value={format} onChange={(e) => setFormat(e.currentTarget.value as CompareFormat)}>
          {COMPARE_FORMATS.map((f) => (
            <option key={f} value={f}>
              {FORMAT_NAMES[f]}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="button" disabled={busy} onClick={() => void store().compare.exportAs(format)}>
        Export comparison
      </button>
      {exported ? (
        <p role="status">
          Written: {exported.path} ({exported.bytes} bytes)
        </p>
      ) : null}
    </div>
  );
}

export function CompareView() {
  const documents = useStore((s) => s.library.documents);
  const { earlierId, laterId, mode, comparison, busy, error, labels } = useStore((s) => s.compare);
  const compare = store().compare;
  const shown = comparison ? pairsInIdOrder(comparison.pairs.filter((p) => labels.length === 0 || labels.includes(p.label))) : [];
  return (
    <section className="compare" aria-label="Compare versions">
      <h2>Compare two versions of a report</h2>
      <div className="filters">
        <DocumentPicker documents={documents} value={earlierId} label="Earlier" onChoose={(id) => compare.choose('earlier', id)} />
        <DocumentPicker documents={documents} value={laterId} label="Later" onChoose={(id) => compare.choose('later', id)} />
        <label className="inline-field">
          <input type="checkbox" checked={mode === 'rules-only'} onChange={(e) => compare.setMode(e.currentTarget.checked ? 'rules-only' : 'auto')} />
          <span>Printed IDs only (no model findings)</span>
        </label>
        <button type="button" className="button" disabled={busy || earlierId === null || laterId === null} onClick={() => void compare.run()}>
          {busy ? 'Comparing…' : 'Compare'}
        </button>
      </div>
      {error ? <p role="alert">{error}</p> : null}
      {comparison ? (
        <>
          <p className="compare__summary" aria-label="Summary">
            Resolved (as the later document states): {comparison.summary.resolved} · Still open: {comparison.summary.stillOpen} · No longer present:{' '}
            {comparison.summary.noLongerPresent} · New: {comparison.summary.new} · Severity changed: {comparison.summary.severityChanged}
            {comparison.summary.candidates > 0 ? ` · Candidates to confirm: ${comparison.summary.candidates}` : ''}
          </p>
          {comparison.modelStatus ? (
            <p className="compare__model-status" aria-label="Statuses read by the model">
              {modelStatusText(comparison.modelStatus)}
            </p>
          ) : null}
          <ExportControls busy={busy} />
          <ul className="chips" aria-label="Filter by label">
            {COMPARE_LABELS.map((label) => (
              <li key={label}>
                <button type="button" className="chip" aria-pressed={labels.includes(label)} onClick={() => compare.toggleLabel(label)}>
                  {COMPARE_LABEL_TEXT[label]} ({comparison.pairs.filter((p) => p.label === label).length})
                </button>
              </li>
            ))}
          </ul>
          <table className="compare__pairs">
            <thead>
              <tr>
                <th>ID</th>
                <th>Label</th>
                <th>Stated status</th>
                <th>Earlier: {comparison.earlier.file}</th>
                <th>Later: {comparison.later.file}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((pair) => (
                <PairRow key={pair.index} pair={pair} comparison={comparison} />
              ))}
            </tbody>
          </table>
          {comparison.candidates.length > 0 ? (
            <section aria-label="Candidate pairs">
              <h3>Candidate pairs: unsure, never paired without you</h3>
              <ul>
                {comparison.candidates.map((c) => (
                  <CandidateItem key={`${c.earlierKey}|${c.laterKey}`} candidate={c} comparison={comparison} />
                ))}
              </ul>
            </section>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
