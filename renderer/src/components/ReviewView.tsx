import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ReviewViewResult } from '../../../shared/contract';
import { EDITABLE_FIELDS, type EditableField, type ReviewedFinding, type ReviewState } from '../../../shared/review';
import { useAppStore } from '../stores/useAppStore';
import { useDocumentsStore } from '../stores/useDocumentsStore';
import { useReviewStore } from '../stores/useReviewStore';
import { useTreeStore } from '../stores/useTreeStore';
import { ExportControl } from './ExportControl';
import { DocumentPicker } from './DocumentPicker';

export const STATE_LABEL: Record<ReviewState, string> = { new: 'New', confirmed: 'Confirmed', rejected: 'Rejected', needs_follow_up: 'Needs follow-up' };
const FIELD_LABEL: Record<EditableField, string> = { title: 'Title', severity: 'Severity', type: 'Type', description: 'Description' };

type Form = { kind: 'reject' } | { kind: 'edit' } | { kind: 'note' } | null;

function StateBadge({ state }: { state: ReviewState }) {
  return (
    <span className={`review-state review-state--${state}`} data-state={state}>
      {STATE_LABEL[state]}
    </span>
  );
}

function Badges({ f }: { f: ReviewedFinding }) {
  return (
    <>
      {f.edited.length > 0 ? <span className="badge">edited</span> : null}
      {f.changedFields.length > 0 ? <span className="badge badge--paused">changed by re-run</span> : null}
      {f.vanished ? <span className="badge badge--failed">no longer reported</span> : null}
      {f.origin === 'manual' ? <span className="badge badge--running">added by hand</span> : null}
      {!f.grounded ? <span className="badge badge--failed">not grounded</span> : null}
    </>
  );
}

function openChunkAt(documentId: number, offset: number) {
  const tree = useTreeStore.getState();
  void tree.open(documentId).then(() => {
    const nodes = useTreeStore.getState().tree?.nodes ?? [];
    const leaf = nodes.find((n) => n.isLeaf && n.start <= offset && offset < n.end);
    if (leaf) useTreeStore.getState().select(leaf.index);
  });
  useAppStore.getState().setView('document');
}

function ReasonForm({ onDone }: { onDone(): void }) {
  const [reason, setReason] = useState('');
  const activeId = useReviewStore((s) => s.activeId);
  return (
    <form
      className="review-form"
      aria-label="Reject the finding"
      onSubmit={(e) => {
        e.preventDefault();
        if (activeId !== null) void useReviewStore.getState().act('review.setState', { reviewedId: activeId, state: 'rejected', reason }).then((ok) => ok && onDone());
      }}
      onKeyDown={(e) => e.key === 'Escape' && onDone()}
    >
      <label className="field">
        <span>Reason for rejecting</span>
        <input type="text" autoFocus value={reason} required onChange={(e) => setReason(e.currentTarget.value)} />
      </label>
      <button type="submit" className="button button--small button--danger">
        Reject
      </button>{' '}
      <button type="button" className="button button--small" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

function EditForm({ finding, onDone }: { finding: ReviewedFinding; onDone(): void }) {
  const [values, setValues] = useState(finding.effective);
  return (
    <form
      className="review-form"
      aria-label="Edit the finding"
      onSubmit={(e) => {
        e.preventDefault();
        const changed = Object.fromEntries(EDITABLE_FIELDS.filter((f) => values[f] !== finding.effective[f]).map((f) => [f, values[f]]));
        void useReviewStore.getState().act('review.edit', { reviewedId: finding.id, values: changed }).then((ok) => ok && onDone());
      }}
      onKeyDown={(e) => e.key === 'Escape' && onDone()}
    >
      {EDITABLE_FIELDS.map((field, i) => (
        <label className="field" key={field}>
          <span>
            {FIELD_LABEL[field]} <span className="muted">(model: {finding.original[field] || '—'})</span>
          </span>
          {field === 'description' ? (
            <textarea rows={3} value={values[field]} onChange={(e) => setValues({ ...values, [field]: e.currentTarget.value })} />
          ) : (
            <input type="text" autoFocus={i === 0} value={values[field]} onChange={(e) => setValues({ ...values, [field]: e.currentTarget.value })} />
          )}
        </label>
      ))}
      <button type="submit" className="button button--small button--primary">
        Save edits
      </button>{' '}
      <button type="button" className="button button--small" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

function NoteForm({ finding, onDone }: { finding: ReviewedFinding; onDone(): void }) {
  const [text, setText] = useState('');
  return (
    <form
      className="review-form"
      aria-label="Add a note"
      onSubmit={(e) => {
        e.preventDefault();
        void useReviewStore.getState().act('review.note', { reviewedId: finding.id, text }).then((ok) => ok && onDone());
      }}
      onKeyDown={(e) => e.key === 'Escape' && onDone()}
    >
      <label className="field">
        <span>Note</span>
        <input type="text" autoFocus required value={text} onChange={(e) => setText(e.currentTarget.value)} />
      </label>
      <button type="submit" className="button button--small button--primary">
        Add note
      </button>{' '}
      <button type="button" className="button button--small" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

function SplitAndMerge({ finding, view }: { finding: ReviewedFinding; view: ReviewViewResult }) {
  const [chosen, setChosen] = useState<number[]>([]);
  const others = view.findings.filter((f) => f.id !== finding.id);
  const [mergeWith, setMergeWith] = useState<number | ''>('');
  return (
    <div className="review-tools">
      {finding.sources.length > 1 ? (
        <fieldset>
          <legend>Split: move these sources to a new finding</legend>
          {finding.sources.map((s) => (
            <label key={s.findingId} className="check">
              <input
                type="checkbox"
                checked={chosen.includes(s.findingId)}
                onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, s.findingId] : chosen.filter((x) => x !== s.findingId))}
              />{' '}
              p. {s.page ?? '?'}: “{s.evidence.length > 80 ? `${s.evidence.slice(0, 80)}…` : s.evidence}”
            </label>
          ))}
          <button
            type="button"
            className="button button--small"
            disabled={chosen.length === 0 || chosen.length === finding.sources.length}
            onClick={() => void useReviewStore.getState().act('review.split', { reviewedId: finding.id, findingIds: chosen })}
          >
            Split out {chosen.length} source{chosen.length === 1 ? '' : 's'}
          </button>
        </fieldset>
      ) : null}
      {others.length > 0 ? (
        <div className="merge">
          <label className="inline-field">
            <span>Merge into this finding</span>
            <select value={mergeWith} onChange={(e) => setMergeWith(e.currentTarget.value === '' ? '' : Number(e.currentTarget.value))}>
              <option value="">Choose a finding…</option>
              {others.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.label} {o.findingKey ?? ''} {o.effective.title}
                </option>
              ))}
            </select>
          </label>{' '}
          <button
            type="button"
            className="button button--small"
            disabled={mergeWith === ''}
            onClick={() => mergeWith !== '' && void useReviewStore.getState().act('review.merge', { keepId: finding.id, absorbId: mergeWith })}
          >
            Merge
          </button>
        </div>
      ) : null}
    </div>
  );
}

function Trail({ finding }: { finding: ReviewedFinding }) {
  const trail = useReviewStore((s) => s.trails[finding.id]);
  return (
    <details
      className="trail"
      data-testid="review-trail"
      onToggle={(e) => {
        if ((e.currentTarget as HTMLDetailsElement).open && !trail) void useReviewStore.getState().loadTrail(finding.id);
      }}
    >
      <summary>Trail (every change, who and when)</summary>
      {trail ? (
        <table className="trail-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
            </tr>
          </thead>
          <tbody>
            {trail.map((t) => (
              <tr key={t.id} data-action={t.action}>
                <td>{new Date(t.at).toLocaleString()}</td>
                <td>{t.reviewer}</td>
                <td>
                  {t.action}
                  {t.field ? ` ${t.field}` : ''}
                  {t.detail ? <span className="muted"> ({t.detail})</span> : null}
                </td>
                <td>{t.from ?? '—'}</td>
                <td>{t.to ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </details>
  );
}

function Detail({ finding, view, form, setForm }: { finding: ReviewedFinding; view: ReviewViewResult; form: Form; setForm(f: Form): void }) {
  const context = view.context[finding.id];
  const act = useReviewStore.getState().act;
  const evidenceStart = finding.manualEvidence?.start ?? finding.sources.find((s) => s.isMain)?.evidenceStart ?? finding.sources[0]?.evidenceStart ?? null;
  return (
    <section className="panel review-detail" aria-labelledby="review-detail-title" data-testid="review-detail" data-review-id={finding.id} data-state={finding.state}>
      <h2 id="review-detail-title">
        {finding.label} {finding.findingKey ? <code>{finding.findingKey}</code> : null} {finding.effective.title}
      </h2>
      <p>
        <StateBadge state={finding.state} /> <Badges f={finding} />
        {finding.rejectReason ? <span className="reject-reason"> Reason: {finding.rejectReason}</span> : null}
      </p>
      <div className="review-actions" role="group" aria-label="Review actions">
        <button type="button" className="button button--small button--primary" onClick={() => void act('review.setState', { reviewedId: finding.id, state: 'confirmed' })}>
          Confirm <kbd>c</kbd>
        </button>
        <button type="button" className="button button--small button--danger" onClick={() => setForm({ kind: 'reject' })}>
          Reject <kbd>r</kbd>
        </button>
        <button type="button" className="button button--small" onClick={() => void act('review.setState', { reviewedId: finding.id, state: 'needs_follow_up' })}>
          Needs follow-up <kbd>f</kbd>
        </button>
        <button type="button" className="button button--small" onClick={() => setForm({ kind: 'edit' })}>
          Edit <kbd>e</kbd>
        </button>
        <button type="button" className="button button--small" onClick={() => setForm({ kind: 'note' })}>
          Note <kbd>n</kbd>
        </button>
        {finding.changedFields.length > 0 ? (
          <button type="button" className="button button--small" onClick={() => void act('review.acknowledge', { reviewedId: finding.id })}>
            Acknowledge changes <kbd>a</kbd>
          </button>
        ) : null}
      </div>
      {form?.kind === 'reject' ? <ReasonForm onDone={() => setForm(null)} /> : null}
      {form?.kind === 'edit' ? <EditForm finding={finding} onDone={() => setForm(null)} /> : null}
      {form?.kind === 'note' ? <NoteForm finding={finding} onDone={() => setForm(null)} /> : null}
      <h3>Evidence in context</h3>
      {context ? (
        <blockquote className="evidence-context" data-testid="evidence-context">
          <span className="muted">p. {context.page ?? '?'} · </span>…{context.before}
          <mark className="hl hl--evidence">{context.text}</mark>
          {context.after}…
        </blockquote>
      ) : (
        <p className="muted">No grounded evidence: the quote was not found in the document.</p>
      )}
      {evidenceStart !== null ? (
        <button type="button" className="link" onClick={() => openChunkAt(finding.documentId, evidenceStart)}>
          Open the chunk with this evidence
        </button>
      ) : null}
      <h3>Model values and the auditor’s</h3>
      <table className="values-table" data-testid="review-values">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Model (original)</th>
            <th scope="col">Auditor (effective)</th>
          </tr>
        </thead>
        <tbody>
          {EDITABLE_FIELDS.map((field) => (
            <tr key={field} data-field={field} className={finding.edited.includes(field) ? 'edited' : ''}>
              <th scope="row">{FIELD_LABEL[field]}</th>
              <td className="original">{finding.original[field] || '—'}</td>
              <td className="effective">{finding.edited.includes(field) ? <strong>{finding.effective[field]}</strong> : <span className="muted">same</span>}</td>
            </tr>
          ))}
          {finding.changedFields.length > 0 && finding.latestModel ? (
            <tr className="changed">
              <th scope="row">Re-run says</th>
              <td colSpan={2}>{finding.changedFields.map((f) => `${FIELD_LABEL[f]}: ${finding.latestModel![f]}`).join(' · ')}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {finding.notes.length > 0 ? (
        <>
          <h3>Notes</h3>
          <ul className="notes" data-testid="review-notes">
            {finding.notes.map((n) => (
              <li key={n.id}>
                <strong>{n.reviewer}</strong> <span className="muted">{new Date(n.at).toLocaleString()}</span>: {n.text}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h3>Sources ({finding.sources.length})</h3>
      <ol className="sources">
        {finding.sources.map((s) => (
          <li key={`${s.runId}-${s.findingId}`}>
            <blockquote className={s.grounded ? '' : 'ungrounded-quote'}>{s.evidence}</blockquote>
            <p className="muted">
              p. {s.page ?? '?'} · {s.grounded ? 'found in the source' : 'not found in the source'}
              {s.isMain ? ' · main source' : ''}
            </p>
          </li>
        ))}
      </ol>
      {/* Keyed by the finding: choosing another one starts with nothing chosen. */}
      <SplitAndMerge key={finding.id} finding={finding} view={view} />
      {finding.lastChange ? (
        <p className="muted">
          Last change: {finding.lastChange.action} by {finding.lastChange.reviewer}, {new Date(finding.lastChange.at).toLocaleString()}
        </p>
      ) : null}
      <Trail finding={finding} />
    </section>
  );
}

/** Keyboard-first review of a document's findings: j/k move, c confirm, r reject, f follow-up, e edit, n note, a acknowledge. */
export function ReviewView() {
  const documents = useDocumentsStore((s) => s.documents);
  const { documentId, view, error, activeId, loading } = useReviewStore();
  const [form, setForm] = useState<Form>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const openDoc = useTreeStore((s) => s.documentId);

  useEffect(() => {
    const start = useReviewStore.getState().documentId ?? openDoc ?? documents.find((d) => (d.findingsCount ?? 0) > 0)?.id ?? null;
    if (start !== null) void useReviewStore.getState().load(start);
  }, [documents.length > 0]);
  useEffect(() => {
    document.getElementById(`review-item-${activeId}`)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  const active = view?.findings.find((f) => f.id === activeId) ?? null;
  const closeForm = () => {
    setForm(null);
    listRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const store = useReviewStore.getState();
    const key = event.key;
    if (key === 'j' || key === 'ArrowDown') store.move(1);
    else if (key === 'k' || key === 'ArrowUp') store.move(-1);
    else if (key === 'Home') store.move(-1e6);
    else if (key === 'End') store.move(1e6);
    else if (!active) return;
    else if (key === 'c') void store.act('review.setState', { reviewedId: active.id, state: 'confirmed' });
    else if (key === 'f') void store.act('review.setState', { reviewedId: active.id, state: 'needs_follow_up' });
    else if (key === 'u') void store.act('review.setState', { reviewedId: active.id, state: 'new' });
    else if (key === 'a' && active.changedFields.length > 0) void store.act('review.acknowledge', { reviewedId: active.id });
    else if (key === 'r') setForm({ kind: 'reject' });
    else if (key === 'e') setForm({ kind: 'edit' });
    else if (key === 'n') setForm({ kind: 'note' });
    else return;
    event.preventDefault();
  };

  const c = view?.counters;
  const docName = documents.find((d) => d.id === documentId)?.fileName;
  return (
    <div className="review-view">
      <section className="panel review-list-panel" aria-labelledby="review-title">
        <div className="panel__head">
          <h2 id="review-title">Review{docName ? ` of ${docName}` : ''}</h2>
          <DocumentPicker documents={documents} value={documentId} onChoose={(id) => void useReviewStore.getState().load(id)} />
        </div>
        {c ? (
          <p className="review-counters" data-testid="review-counters" data-left={c.leftToReview}>
            <strong>{c.leftToReview} left to review</strong> · {c.confirmed} confirmed · {c.rejected} rejected · {c.needsFollowUp} need follow-up · {c.total} in all
            {c.changed > 0 ? ` · ${c.changed} changed by a re-run` : ''}
            {c.vanished > 0 ? ` · ${c.vanished} no longer reported` : ''}
          </p>
        ) : null}
        {error ? (
          <div role="alert" className="error-text" data-testid="review-error">
            {error.message}{' '}
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
        {loading && !view ? <p role="status">Loading the review…</p> : null}
        {documentId === null ? <p className="empty">Choose a document analysed with the LLM to review its findings.</p> : null}
        {view && view.findings.length === 0 ? <p className="empty">No findings to review in this document. Select text in the chunk view to add one by hand.</p> : null}
        {view && view.findings.length > 0 ? (
          <>
            <div
              ref={listRef}
              className="review-list"
              role="listbox"
              aria-label="Findings to review"
              tabIndex={0}
              data-testid="review-list"
              onKeyDown={onKeyDown}
              {...(active ? { 'aria-activedescendant': `review-item-${active.id}` } : {})}
            >
              {view.findings.map((f) => (
                <div
                  key={f.id}
                  id={`review-item-${f.id}`}
                  role="option"
                  aria-selected={f.id === activeId}
                  data-state={f.state}
                  data-review-id={f.id}
                  className={`review-item${f.id === activeId ? ' review-item--active' : ''}`}
                  onClick={() => {
                    useReviewStore.getState().setActive(f.id);
                    listRef.current?.focus();
                  }}
                >
                  <span className="review-item__label">{f.label}</span> <StateBadge state={f.state} /> {f.findingKey ? <code>{f.findingKey}</code> : null}{' '}
                  <span className="review-item__title">{f.effective.title}</span> <span className="muted">p. {f.mainPage ?? '?'}</span> <Badges f={f} />
                </div>
              ))}
            </div>
            <p className="hint">
              Focus the list: <kbd>j</kbd>/<kbd>k</kbd> or arrows move, <kbd>c</kbd> confirm, <kbd>r</kbd> reject (asks why), <kbd>f</kbd> needs follow-up, <kbd>e</kbd> edit, <kbd>n</kbd> note,{' '}
              <kbd>u</kbd> back to new, <kbd>a</kbd> acknowledge a re-run’s changes. Esc closes a form.
            </p>
          </>
        ) : null}
        {view?.runId ? <ExportControl runId={view.runId} {...(documentId !== null ? { documentId } : {})} label="Export this document" /> : null}
      </section>
      {active && view ? <Detail finding={active} view={view} form={form} setForm={(f) => (f === null ? closeForm() : setForm(f))} /> : null}
    </div>
  );
}
