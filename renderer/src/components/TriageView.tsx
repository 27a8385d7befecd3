import { memo, useEffect, useMemo, useRef, useState, type CSSProperties, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { VIRTUALIZE } from '../api';
import type { DocumentSummary } from '../../../shared/contract';
import type { ReviewedFinding } from '../../../shared/review';
import { REVIEW_STATES } from '../../../shared/review';
import { plural } from '../format';
import { useAnalysisStore } from '../stores/useAnalysisStore';
import { useAppStore } from '../stores/useAppStore';
import { useDocumentsStore } from '../stores/useDocumentsStore';
import { useMentionsStore } from '../stores/useMentionsStore';
import { queueOf, STATE_LABEL, useReviewStore } from '../stores/useReviewStore';
import { useSettingsStore } from '../stores/useSettingsStore';
import { useTreeStore } from '../stores/useTreeStore';
import { DocumentPicker } from './DocumentPicker';
import { DocumentHealthNote } from './DocumentHealthNote';
import { ExportControl } from './ExportControl';
import { FindingsView } from './FindingsView';
import { Badges, ReviewDetail, StateBadge, type Form } from './review/ReviewDetail';
import { Severity } from './Severity';
import { SourcePlace } from './source/SourcePlace';
import { usePrintedLabel } from './source/usePrintedLabel';
import { SplitPane } from './SplitPane';
import { VirtualList } from './VirtualList';
import { Sentence } from './Sentence';

const GROUP_ROW_HEIGHT = 28;
const ITEM_ROW_HEIGHT = 84;

type QueueGroupKey = 'grounded' | 'ungrounded';
const GROUP_TITLE: Record<QueueGroupKey, string> = { grounded: 'Grounded', ungrounded: 'Not grounded: the quote was not found in the document' };

/** The queue as rows of one list: each group's heading, then its findings (so the list can be virtual). */
type QueueRow = { kind: 'group'; group: QueueGroupKey; count: number } | { kind: 'item'; group: QueueGroupKey; f: ReviewedFinding; position: number };

function rowsOf(queue: readonly ReviewedFinding[]): QueueRow[] {
  const rows: QueueRow[] = [];
  let position = 0;
  for (const group of ['grounded', 'ungrounded'] as const) {
    const items = queue.filter((f) => f.grounded === (group === 'grounded'));
    if (items.length === 0) continue;
    rows.push({ kind: 'group', group, count: items.length });
    for (const f of items) rows.push({ kind: 'item', group, f, position: ++position });
  }
  return rows;
}

const rowHeightOf = (rows: readonly QueueRow[]) => (i: number) => (rows[i]!.kind === 'group' ? GROUP_ROW_HEIGHT : ITEM_ROW_HEIGHT);

/** "p. 8", or "p. 8, printed 7" where the document numbers its pages otherwise (as the source heading and the reports). */
function QueuePage({ documentId, page }: { documentId: number; page: number | null }) {
  const printed = usePrintedLabel(documentId, page);
  if (page === null) return <>page ?</>;
  return (
    <span data-testid="queue-page">
      p. {page}
      {printed ? `, printed ${printed}` : ''}
    </span>
  );
}

function QueueItem({ f, active, position, size, style, onPick }: { f: ReviewedFinding; active: boolean; position: number; size: number; style: CSSProperties; onPick(): void }) {
  return (
    <div
      id={`review-item-${f.id}`}
      role="option"
      aria-selected={active}
      aria-posinset={position}
      aria-setsize={size}
      data-state={f.state}
      data-review-id={f.id}
      className={`review-item${active ? ' review-item--active' : ''}`}
      style={style}
      onClick={onPick}
    >
      <div className="review-item__line">
        <StateBadge state={f.state} /> <Severity label={f.effective.severity} rank={f.severityRank} /> <Badges f={f} />
        <span className="review-item__where muted">
          <span className="review-item__label-id">{f.label} · </span>
          <QueuePage documentId={f.documentId} page={f.mainPage} />
        </span>
      </div>
      <div className="review-item__title" title={f.effective.title}>
        {f.findingKey ? <code>{f.findingKey}</code> : null} {f.effective.title}
      </div>
    </div>
  );
}

/** Findings the run in progress has reported so far: shown as they arrive, reviewable once the run merges them. */
function ArrivingList() {
  const arriving = useReviewStore((s) => s.arriving);
  if (!arriving || arriving.runId === null) return null;
  return (
    <section className="queue-section arriving" aria-labelledby="arriving-title" data-testid="arriving">
      <h3 id="arriving-title">
        Arriving from run #{arriving.runId} ({arriving.findings.length})
      </h3>
      <p className="hint">Reported by the parts analysed so far; they join the queue, merged and reviewable, when the run finishes.</p>
      <ul className="arriving__list">
        {arriving.findings.map((f) => (
          <li key={f.findingId} data-testid="arriving-finding">
            <Severity label={f.severity} rank={f.severityRank} /> {f.findingKey ? <code>{f.findingKey}</code> : null} {f.title}{' '}
            <span className="muted">
              {f.page !== null ? `p. ${f.page}` : ''}
              {f.grounded ? '' : ' · not grounded'}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Chips shown before "Show all": a document with thousands of unreviewed IDs stays quick to draw. */
const MENTIONS_SHOWN = 60;

/** IDs the document mentions that no finding covers; each opens its places beside the queue. */
const UnreviewedMentions = memo(function UnreviewedMentions({ documentId, onOpen, openId }: { documentId: number; onOpen(id: string): void; openId: string | null }) {
  const analysis = useAnalysisStore((s) => (s.documentId === documentId ? s.analysis : null));
  const [all, setAll] = useState(false);
  const unreviewed = analysis?.unreviewedMentions ?? null;
  const shown = unreviewed && !all ? unreviewed.slice(0, MENTIONS_SHOWN) : unreviewed;
  return (
    <section aria-labelledby="unreviewed-title" className="queue-section" data-testid="unreviewed-section">
      <h3 id="unreviewed-title">Unreviewed ID mentions ({unreviewed?.length ?? 0})</h3>
      <p className="hint">IDs the document mentions that no finding covers: read those places, the model may have missed a finding.</p>
      {unreviewed && unreviewed.length > 0 ? (
        <ul className="chips" aria-label="Unreviewed ID mentions">
          {shown!.map((m) => (
            <li key={m.id} data-testid="unreviewed-mention" data-id={m.id}>
              <button type="button" className="chip" aria-pressed={openId === m.id} onClick={() => onOpen(m.id)}>
                <code>{m.id}</code> <span className="muted">{m.pages.length === 1 ? `p. ${m.pages[0]}` : `pp. ${m.pages.join(', ')}`}</span>
              </button>
            </li>
          ))}
          {shown!.length < unreviewed.length ? (
            <li>
              <button type="button" className="chip" onClick={() => setAll(true)}>
                Show all {unreviewed.length.toLocaleString()}
              </button>
            </li>
          ) : null}
        </ul>
      ) : (
        <p className="empty">None.</p>
      )}
    </section>
  );
});

function MentionDetail({ documentId, id, onBack }: { documentId: number; id: string; onBack(): void }) {
  const mention = useMentionsStore((s) => (s.documentId === documentId ? s.mentions.find((m) => m.id === id) : undefined));
  return (
    <section className="review-detail" aria-labelledby="mention-title" data-testid="mention-detail">
      <button type="button" className="button button--small" onClick={onBack}>
        ← Back to the finding
      </button>
      <h2 id="mention-title">
        Mention of <code>{id}</code>
      </h2>
      <p className="hint">No finding covers this ID. Read its places; if one states a finding, select its text in the document and add it by hand.</p>
      {mention ? (
        <SourcePlace
          key={id}
          documentId={documentId}
          places={mention.occurrences.map((o) => ({ start: o.start, end: o.end, page: o.page, label: `“${o.raw}”` }))}
        />
      ) : (
        <p className="muted">Loading its places…</p>
      )}
    </section>
  );
}

/** Findings and review in one triage queue: the queue on the left, the finding with its source page on the right. */
/**
 * Why the list is empty, by where the document stands: "yet" only while a run may still add findings; once it
 * ended, what it found against what the document states.
 */
function emptyFindingsText(doc: DocumentSummary | undefined, arriving: number): string {
  const byHand = 'You can also select text in the document to add one by hand.';
  if (doc && (doc.status === 'running' || doc.status === 'queued'))
    return arriving > 0
      ? `The ${plural(arriving, 'finding')} arriving above join this queue, merged and reviewable, when the run finishes.`
      : `No findings in this document yet. They appear above as the analysis finishes each part. ${byHand}`;
  if (doc?.status === 'paused' || doc?.status === 'cancelled') return `No findings so far: the analysis stopped before any part gave one. Resume it from the Runs tab. ${byHand}`;
  if (doc?.status === 'done') {
    const stated = doc.verdict?.statedTotal ?? null;
    return stated !== null && stated > 0
      ? `The analysis found no findings, but the document states ${plural(stated, 'finding')}: see its completeness check in the Document tab. ${byHand}`
      : `The analysis found no findings in this document. ${byHand}`;
  }
  return `No findings: this document has not been analysed in full. ${byHand}`;
}

/**
 * Asked where the action happened, the first time a review change needs a reviewer name: the name is saved
 * (Settings shows it) and the action the user took is applied, instead of a silent refusal.
 */
function ReviewerNamePrompt() {
  const [name, setName] = useState('');
  const [saving, setSaving] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return;
    setSaving(true);
    await useReviewStore.getState().giveNameAndRetry(name);
    void useSettingsStore.getState().load();
    setSaving(false);
  };
  return (
    <form className="name-prompt" aria-label="Your reviewer name" data-testid="reviewer-name-prompt" onSubmit={(e) => void submit(e)}>
      <p>Review changes are signed with your name (it goes in the trail and the reports). Give it once and your change is applied.</p>
      <label className="inline-field">
        <span>Your name</span>
        <input type="text" value={name} autoFocus onChange={(e) => setName(e.currentTarget.value)} />
      </label>{' '}
      <button type="submit" className="button button--small button--primary" disabled={saving || name.trim() === ''}>
        Save and apply
      </button>{' '}
      <button type="button" className="link" onClick={() => useReviewStore.setState({ retry: null, error: null })}>
        Not now
      </button>
    </form>
  );
}

export function TriageView() {
  const documents = useDocumentsStore((s) => s.documents);
  const { documentId, view, error, activeId, loading, filter, undo, undone, retry, autoAdvance } = useReviewStore();
  const [form, setForm] = useState<Form>(null);
  const [mode, setMode] = useState<'queue' | 'table'>('queue');
  const [mentionId, setMentionId] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const openDoc = useTreeStore((s) => s.documentId);

  useEffect(() => {
    const start = useAppStore.getState().lastDocumentId ?? useReviewStore.getState().documentId ?? openDoc ?? documents.find((d) => (d.findingsCount ?? 0) > 0)?.id ?? documents[0]?.id ?? null;
    if (start !== null) void useReviewStore.getState().load(start);
  }, [documents.length > 0]);
  useEffect(() => {
    if (documentId === null) return;
    void useAnalysisStore.getState().load(documentId);
    void useMentionsStore.getState().load(documentId);
    setMentionId(null);
  }, [documentId]);
  const hasFindings = (view?.findings.length ?? 0) > 0;
  const arrivingCount = useReviewStore((s) => (s.arriving && s.arriving.runId !== null ? s.arriving.findings.length : 0));
  useEffect(() => {
    // The keys work from the queue: arriving here (a sample's first finding, a library click), the first c or j
    // acts at once instead of doing nothing until the user clicks the list. Never taken from a field in use.
    const focused = document.activeElement;
    if (hasFindings && (focused === null || focused === document.body)) listRef.current?.focus({ preventScroll: true });
  }, [hasFindings, documentId]);
  const queue = useMemo(() => queueOf(view?.findings ?? [], filter), [view, filter]);
  const rows = useMemo(() => rowsOf(queue), [queue]);
  const rowHeight = useMemo(() => rowHeightOf(rows), [rows]);
  const activeRow = rows.findIndex((r) => r.kind === 'item' && r.f.id === activeId);
  const active = view?.findings.find((f) => f.id === activeId) ?? null;
  const severities = [...new Set((view?.findings ?? []).map((f) => f.effective.severity))];
  const closeForm = () => {
    setForm(null);
    listRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const store = useReviewStore.getState();
    if ((event.ctrlKey || event.metaKey) && event.key === 'z') {
      event.preventDefault();
      void store.undoLast();
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key;
    if (key === 'j' || key === 'ArrowDown') store.move(1);
    else if (key === 'k' || key === 'ArrowUp') store.move(-1);
    else if (key === 'PageDown') store.move(10);
    else if (key === 'PageUp') store.move(-10);
    else if (key === 'Home') store.move(-1e6);
    else if (key === 'End') store.move(1e6);
    else if (key === 'Escape') store.cancelConfirm();
    else if (!active) return;
    else if (key === 'c') void store.setState(active, 'confirmed');
    else if (key === 'f') void store.setState(active, 'needs_follow_up');
    else if (key === 'u') void store.setState(active, 'new');
    else if (key === 'a' && active.changedFields.length > 0) void store.act('review.acknowledge', { reviewedId: active.id });
    else if (key === 'r') setForm({ kind: 'reject' });
    else if (key === 'e') setForm({ kind: 'edit' });
    else if (key === 'n') setForm({ kind: 'note' });
    else return;
    setMentionId(null);
    event.preventDefault();
  };

  const c = view?.counters;
  const docName = documents.find((d) => d.id === documentId)?.fileName;
  const modeSwitch = (
    <div className="segmented" role="group" aria-label="Show findings as">
      <button type="button" aria-pressed={mode === 'queue'} onClick={() => setMode('queue')}>
        Triage queue
      </button>
      <button type="button" aria-pressed={mode === 'table'} onClick={() => setMode('table')}>
        Table of all findings
      </button>
    </div>
  );
  if (mode === 'table') {
    return (
      <div className="scroll-page">
        {modeSwitch}
        <FindingsView />
      </div>
    );
  }

  const list = (
    <section className="queue" aria-labelledby="review-title">
      <div className="queue__head">
        <h2 id="review-title" title={docName}>
          Findings{docName ? ` in ${docName}` : ''}
        </h2>
        {modeSwitch}
        <DocumentPicker documents={documents} value={documentId} onChoose={(id) => void useReviewStore.getState().load(id)} />
        {documentId !== null ? <DocumentHealthNote documentId={documentId} /> : null}
        {c ? (
          <p className="review-counters" data-testid="review-counters" data-left={c.leftToReview}>
            <strong>{c.leftToReview} left to review</strong> · {c.confirmed} confirmed · {c.rejected} rejected · {c.needsFollowUp} need follow-up · {plural(c.total, 'finding')} in all
            {c.changed > 0 ? ` · ${c.changed} changed by a re-run` : ''}
            {c.vanished > 0 ? ` · ${c.vanished} no longer reported` : ''}
          </p>
        ) : null}
        <div className="filters">
          <label className="inline-field">
            <span>Search</span>
            <input type="search" value={filter.search} onChange={(e) => useReviewStore.getState().setFilter({ search: e.currentTarget.value })} />
          </label>
          <label className="inline-field">
            <span>Severity</span>
            <select value={filter.severity} onChange={(e) => useReviewStore.getState().setFilter({ severity: e.currentTarget.value })}>
              <option value="">All</option>
              {severities.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label className="inline-field">
            <span>State</span>
            <select value={filter.state} onChange={(e) => useReviewStore.getState().setFilter({ state: e.currentTarget.value as typeof filter.state })}>
              <option value="">All</option>
              {REVIEW_STATES.map((s) => (
                <option key={s} value={s}>
                  {STATE_LABEL[s]}
                </option>
              ))}
            </select>
          </label>
          <label className="inline-field auto-advance">
            <input type="checkbox" checked={autoAdvance} onChange={(e) => useReviewStore.getState().setAutoAdvance(e.currentTarget.checked)} />
            <span>Next new finding after confirm or reject</span>
          </label>
        </div>
      </div>
      {error && !retry ? (
        <div role="alert" className="error-text" data-testid="review-error">
          <Sentence text={error.message} />{' '}
          {error.details?.setting === 'reviewerName' ? (
            <button type="button" className="link" onClick={() => useAppStore.getState().setView('settings')}>
              Open the settings
            </button>
          ) : null}{' '}
          <button type="button" className="link" onClick={() => useReviewStore.getState().clearError()}>
            Dismiss
          </button>
        </div>
      ) : null}
      {loading && !view ? <p role="status">Loading the findings…</p> : null}
      {documentId === null ? <p className="empty">No document yet. Add one in the Library to see its findings here.</p> : null}
      <ArrivingList />
      {view && view.findings.length === 0 ? (
        <p className="empty" data-testid="findings-empty">
          {emptyFindingsText(documents.find((d) => d.id === documentId), arrivingCount)}
        </p>
      ) : null}
      {view && view.findings.length > 0 ? (
        <>
          <VirtualList
            listRef={listRef}
            className="review-list"
            role="listbox"
            aria-label="Findings to review"
            tabIndex={0}
            data-testid="review-list"
            // As tall as its rows, at most what leaves the heading and the hints on screen.
            style={{ height: `min(${rows.reduce((sum, _, i) => sum + rowHeight(i), 2)}px, max(240px, calc(100vh - 360px)))` }}
            onKeyDown={onKeyDown}
            {...(active ? { 'aria-activedescendant': `review-item-${active.id}` } : {})}
            count={rows.length}
            rowHeight={rowHeight}
            virtualize={VIRTUALIZE}
            scrollToIndex={activeRow}
            renderRange={(first, last, styleOf) => {
              // The rows in view, in their ARIA group (a group's heading may have scrolled away: the group keeps its name).
              const groups = new Map<QueueGroupKey, ReactNode[]>();
              for (let i = first; i < last; i++) {
                const row = rows[i]!;
                const nodes = groups.get(row.group) ?? [];
                nodes.push(
                  row.kind === 'group' ? (
                    <div key={`group-${row.group}`} role="presentation" className={`queue__group queue__group--${row.group}`} style={styleOf(i)}>
                      {GROUP_TITLE[row.group]} ({row.count})
                    </div>
                  ) : (
                    <QueueItem
                      key={row.f.id}
                      f={row.f}
                      active={row.f.id === activeId}
                      position={row.position}
                      size={queue.length}
                      style={styleOf(i)}
                      onPick={() => {
                        useReviewStore.getState().setActive(row.f.id);
                        setMentionId(null);
                        listRef.current?.focus();
                      }}
                    />
                  ),
                );
                groups.set(row.group, nodes);
              }
              const counts = new Map(rows.flatMap((r) => (r.kind === 'group' ? [[r.group, r.count] as const] : [])));
              return [...groups].map(([group, nodes]) => (
                <div key={group} role="group" aria-label={`${GROUP_TITLE[group]} (${counts.get(group)})`} className="queue__rows">
                  {nodes}
                </div>
              ));
            }}
          />
          {queue.length === 0 ? <p className="empty">No finding matches the filter.</p> : null}
        </>
      ) : null}
      {view && view.findings.length > 0 ? (
        <p className="hint">
          <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>c</kbd> confirm, <kbd>r</kbd> reject, <kbd>f</kbd> follow-up, <kbd>e</kbd> edit, <kbd>n</kbd> note, <kbd>u</kbd> back to new, <kbd>Ctrl</kbd>+<kbd>z</kbd> undo.
        </p>
      ) : null}
      {documentId !== null ? <UnreviewedMentions documentId={documentId} openId={mentionId} onOpen={setMentionId} /> : null}
      {view?.runId ? <ExportControl runId={view.runId} {...(documentId !== null ? { documentId } : {})} label="Export this document" /> : null}
    </section>
  );

  const detail = (
    <>
      {retry ? <ReviewerNamePrompt /> : null}
      {undone ? (
        <p className="undone" role="status" data-testid="undone">
          {undone}
        </p>
      ) : null}
      {undo ? (
        <div className="undo-bar" role="status" data-testid="undo-bar">
          <span>{undo.message}.</span>
          <button type="button" className="button button--small" onClick={() => void useReviewStore.getState().undoLast()}>
            Undo
          </button>
        </div>
      ) : null}
      {mentionId !== null && documentId !== null ? (
        <MentionDetail documentId={documentId} id={mentionId} onBack={() => setMentionId(null)} />
      ) : active && view ? (
        <ReviewDetail finding={active} view={view} form={form} setForm={(f) => (f === null ? closeForm() : setForm(f))} />
      ) : (
        <p className="empty detail-empty">Choose a finding in the queue to see it beside its source page.</p>
      )}
    </>
  );

  return <SplitPane list={list} detail={detail} label="finding detail" />;
}
