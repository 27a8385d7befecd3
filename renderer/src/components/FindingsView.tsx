import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { FindingView } from '../../../shared/contract';
import { REVIEW_STATES } from '../../../shared/review';
import { VIRTUALIZE } from '../flags';
import { STATE_LABEL, store, useOpenPart, useStore, visibleFindings, type FindingSortKey } from '../store';
import { VirtualList } from './VirtualList';
import { ID_ORIGIN_TEXT, IdConflictsNote, IdOriginLine } from './FindingIdentity';
import { SourceList } from './review/SourceList';
import { Severity } from './Severity';

const ROW_HEIGHT = 34;
const COLUMNS: { key: FindingSortKey; label: string }[] = [
  { key: 'id', label: 'ID' },
  { key: 'title', label: 'Title' },
  { key: 'severity', label: 'Severity' },
  { key: 'type', label: 'Type' },
  { key: 'pages', label: 'Pages' },
  { key: 'grounded', label: 'Grounded' },
  { key: 'sources', label: 'Sources' },
  { key: 'state', label: 'State' },
];

/** The merged findings: sort, filter, search, keyboard navigation; virtualized. */
export function FindingsTable({ rows, label }: { rows: FindingView[]; label: string }) {
  const sort = useStore((s) => s.table.sort);
  const selectedId = useStore((s) => s.table.selectedId);
  const { setSort, select } = store().table;
  const [active, setActive] = useState(0);
  const activeRow = Math.min(active, rows.length - 1);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = {
      ArrowDown: activeRow + 1,
      ArrowUp: activeRow - 1,
      Home: 0,
      End: rows.length - 1,
      PageDown: activeRow + 15,
      PageUp: activeRow - 15,
    };
    if (event.key in moves) {
      event.preventDefault();
      setActive(Math.max(0, Math.min(rows.length - 1, moves[event.key]!)));
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      const row = rows[activeRow];
      if (row) select(row.id);
    }
  };

  return (
    // Focus stays on the grid; the active row is announced with aria-activedescendant (rows come and go as the list scrolls).
    <div
      className="findings-table"
      role="grid"
      aria-label={label}
      aria-rowcount={rows.length + 1}
      data-testid="findings-table"
      tabIndex={0}
      onKeyDown={onKeyDown}
      {...(rows[activeRow] ? { 'aria-activedescendant': `finding-${rows[activeRow]!.id}` } : {})}
    >
      <div role="rowgroup">
        <div role="row" aria-rowindex={1} className="findings-row findings-row--head">
          {COLUMNS.map((c) => (
            <div key={c.key} role="columnheader" aria-sort={sort.key === c.key ? (sort.ascending ? 'ascending' : 'descending') : 'none'}>
              <button type="button" className="sort-button" onClick={() => setSort(c.key)}>
                {c.label}
                <span aria-hidden="true">{sort.key === c.key ? (sort.ascending ? ' ▲' : ' ▼') : ''}</span>
              </button>
            </div>
          ))}
        </div>
      </div>
      <VirtualList
        role="rowgroup"
        className="findings-body"
        style={{ height: Math.max(ROW_HEIGHT, Math.min(rows.length * ROW_HEIGHT + 2, 520)) }}
        count={rows.length}
        rowHeight={ROW_HEIGHT}
        virtualize={VIRTUALIZE}
        // The body scrolls on its own: focusable, so keyboard users can scroll it too.
        tabIndex={0}
        scrollToIndex={activeRow}
        renderRow={(i, style) => {
          const f = rows[i]!;
          return (
            <div
              key={f.id}
              id={`finding-${f.id}`}
              role="row"
              aria-rowindex={i + 2}
              aria-selected={selectedId === f.id}
              className={`findings-row${i === activeRow ? ' findings-row--active' : ''}${selectedId === f.id ? ' findings-row--selected' : ''}`}
              style={style}
              onClick={() => {
                setActive(i);
                select(f.id);
              }}
            >
              <div role="gridcell">
                <code className={`id-origin id-origin--${f.idOrigin}`} title={ID_ORIGIN_TEXT[f.idOrigin]}>
                  {f.idLabel}
                </code>
                {f.conflicts.length > 0 ? (
                  <span className="conflict-mark" title="Kept apart from another finding that shares its ID or number, or has a sibling title: check">
                    {' '}
                    ⚠
                  </span>
                ) : null}
              </div>
              <div role="gridcell" className="cell-title">
                {/* Before the title: a long title is cut at the cell's end, the mark must stay in sight. */}
                {f.edited && f.edited.length > 0 ? (
                  <span className="badge badge--idle cell-title__edited" data-testid="table-edited" title={`Edited by the auditor: ${f.edited.join(', ')}`}>
                    edited
                  </span>
                ) : null}
                {f.title}
              </div>
              <div role="gridcell">
                <Severity label={f.severity} rank={f.severityRank} />
              </div>
              <div role="gridcell">{f.type}</div>
              <div role="gridcell">{f.pages.join(', ') || '—'}</div>
              <div role="gridcell">{f.grounded ? 'Yes' : <strong className="ungrounded">No</strong>}</div>
              <div role="gridcell">{f.sources.length}</div>
              <div role="gridcell" data-state={f.reviewState ?? 'new'}>
                {STATE_LABEL[f.reviewState ?? 'new']}
              </div>
            </div>
          );
        }}
      />
      {rows.length === 0 ? <p className="empty">No findings match.</p> : null}
    </div>
  );
}

function FindingDetail({ finding }: { finding: FindingView }) {
  return (
    <section aria-labelledby="finding-detail-title" className="panel" data-testid="finding-detail">
      <h2 id="finding-detail-title">
        {finding.idOrigin === 'document' ? <code>{finding.idLabel}</code> : null} {finding.title}
      </h2>
      <IdOriginLine idLabel={finding.idLabel} idOrigin={finding.idOrigin} />
      <IdConflictsNote conflicts={finding.conflicts} />
      <p>
        <Severity label={finding.severity} rank={finding.severityRank} /> · {finding.type} ·{' '}
        {finding.grounded ? 'grounded' : <strong className="ungrounded">not grounded</strong>}
      </p>
      <p>{finding.description}</p>
      <SourceList sources={finding.sources} onOpen={(s) => void store().doc.show(s.documentId ?? finding.documentId, 'document', { nodeIndex: s.nodeIndex })} />
    </section>
  );
}

/**
 * The table of the open document's findings (the document the queue shows; or all documents, when asked), with
 * ungrounded findings and unreviewed ID mentions in their own marked sections.
 */
export function FindingsView() {
  const state = useStore((s) => s.table);
  const documents = useStore((s) => s.library.documents);
  const openId = useStore((s) => s.doc.openId);
  const unreviewedOfOpen = useOpenPart('analysis', (a) => a.analysis?.unreviewedMentions ?? null, null);
  // The rows follow the open document (or the scope chosen): loaded again whenever either changes.
  useEffect(() => {
    void store().table.load();
  }, [openId, state.scope]);
  const rows = useMemo(() => visibleFindings(state), [state]);
  const grounded = rows.filter((f) => f.grounded);
  const ungrounded = state.findings.filter((f) => !f.grounded);
  const severities = [...new Set(state.findings.map((f) => f.severity))];
  const selected = state.findings.find((f) => f.id === state.selectedId);
  const docName = documents.find((d) => d.id === state.documentId)?.fileName;
  const unreviewed = state.documentId !== null && state.documentId === openId ? unreviewedOfOpen : null;

  return (
    <div className="findings-view">
      <section aria-labelledby="findings-title" className="panel">
        <div className="panel__head">
          <h2 id="findings-title">Findings{docName ? ` in ${docName}` : ' (all documents)'}</h2>
          <label className="inline-field">
            <span>Document</span>
            <select
              value={state.scope === 'all' ? '' : (openId ?? '')}
              onChange={(e) => {
                if (e.currentTarget.value === '') return state.setScope('all');
                void store().doc.open(Number(e.currentTarget.value));
                if (state.scope !== 'open') state.setScope('open');
              }}
            >
              <option value="">All documents</option>
              {documents.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.fileName}
                  {d.findingsCount !== null ? ` (${d.findingsCount})` : ''}
                </option>
              ))}
            </select>
          </label>
        </div>
        {state.error ? <p role="alert">{state.error}</p> : null}
        {state.loaded && state.findings.length === 0 ? (
          <p className="empty" data-testid="findings-empty">
            No findings yet. Findings are extracted by the local LLM in a full analysis; rules-only runs find ID mentions only.
          </p>
        ) : (
          <>
            <div className="filters">
              <label className="inline-field">
                <span>Search</span>
                <input type="search" value={state.search} onChange={(e) => state.setFilter({ search: e.currentTarget.value })} />
              </label>
              <label className="inline-field">
                <span>Severity</span>
                <select value={state.severity} onChange={(e) => state.setFilter({ severity: e.currentTarget.value })}>
                  <option value="">All</option>
                  {severities.map((s) => (
                    <option key={s}>{s}</option>
                  ))}
                </select>
              </label>
              <label className="inline-field">
                <span>State</span>
                <select value={state.state} onChange={(e) => state.setFilter({ state: e.currentTarget.value })}>
                  <option value="">All</option>
                  {REVIEW_STATES.map((s) => (
                    <option key={s} value={s}>
                      {STATE_LABEL[s]}
                    </option>
                  ))}
                </select>
              </label>
              <span className="muted">
                {grounded.length.toLocaleString()} of {state.findings.filter((f) => f.grounded).length.toLocaleString()} grounded findings shown
              </span>
            </div>
            <FindingsTable rows={grounded} label="Grounded findings" />
            <p className="hint">Arrows move in the table, Home/End jump, Enter opens the finding. Click a column title to sort.</p>
          </>
        )}
      </section>
      {selected ? <FindingDetail finding={selected} /> : null}
      <section aria-labelledby="ungrounded-title" className="panel panel--warn" data-testid="ungrounded-section">
        <h2 id="ungrounded-title">Ungrounded findings ({ungrounded.length})</h2>
        <p className="hint">The model reported these but their evidence was not found in the document: check them by hand before using them.</p>
        {ungrounded.length === 0 ? (
          <p className="empty">None.</p>
        ) : (
          <FindingsTable rows={visibleFindings({ ...state, findings: ungrounded, grounded: 'all' })} label="Ungrounded findings" />
        )}
      </section>
      <section aria-labelledby="unreviewed-title" className="panel panel--warn" data-testid="unreviewed-section">
        <h2 id="unreviewed-title">Unreviewed ID mentions ({unreviewed?.length ?? 0})</h2>
        <p className="hint">
          {unreviewed === null
            ? 'Choose a document above to list the IDs its text mentions that no finding covers.'
            : `IDs the rules found in ${docName ?? 'this document'} that no finding covers: read those places, the model may have missed a finding.`}
        </p>
        {unreviewed && unreviewed.length > 0 ? (
          <ul className="chips" aria-label="Unreviewed ID mentions">
            {unreviewed.map((m) => (
              <li key={m.id} data-testid="unreviewed-mention" data-id={m.id}>
                <code>{m.id}</code> <span className="muted">p. {m.pages.join(', ')}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}
