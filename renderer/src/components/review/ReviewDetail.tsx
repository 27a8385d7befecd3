import { useEffect, useState } from 'react';
import type { ReviewViewResult } from '../../../../shared/contract';
import { EDITABLE_FIELDS, type ReviewedFinding, type ReviewState, type TrailEntry } from '../../../../shared/review';
import { formatWhen, plural } from '../../format';
import { STATE_LABEL, store, useStore } from '../../store';
import { PageLabel, printedIdOf } from '../source/PageLabel';
import { SourceList } from './SourceList';
import { IdConflictsNote, IdOriginLine } from '../FindingIdentity';
import { Severity } from '../Severity';
import { SourcePlace } from '../source/SourcePlace';
import { EditForm, FIELD_LABEL, NoteForm, ReasonForm } from './ReviewForms';
import { TableHead } from '../TableHead';

export type Form = { kind: 'reject' } | { kind: 'edit' } | { kind: 'note' } | null;

const STATE_ICON: Record<ReviewState, string> = { new: '○', confirmed: '✓', rejected: '✕', needs_follow_up: '⚑' };

export function StateBadge({ state }: { state: ReviewState }) {
  return (
    <span className={`review-state review-state--${state}`} data-state={state}>
      <span aria-hidden="true">{STATE_ICON[state]} </span>
      <span className="review-state__label">{STATE_LABEL[state]}</span>
    </span>
  );
}

export function Badges({ f }: { f: ReviewedFinding }) {
  return (
    <>
      {f.edited.length > 0 ? <span className="badge badge--idle">edited</span> : null}
      {f.changedFields.length > 0 ? <span className="badge badge--warn">changed by re-run</span> : null}
      {f.vanished ? <span className="badge badge--bad">no longer reported</span> : null}
      {f.origin === 'manual' ? <span className="badge badge--busy">added by hand</span> : null}
      {!f.grounded ? <span className="badge badge--bad">not grounded</span> : null}
    </>
  );
}

const ACTION_LABEL: Record<string, string> = {
  create: 'Created',
  state: 'State changed',
  edit: 'Edited',
  note: 'Note',
  split: 'Split',
  merge: 'Merged',
  'carry-over': 'Carried over from a re-run',
  changed: 'Changed by a re-run',
  vanished: 'No longer reported',
  reappeared: 'Reported again',
  acknowledge: 'Re-run changes acknowledged',
};

/** Trail values in words: state names become their labels. */
function trailValue(entry: TrailEntry, value: string | null): string {
  if (value === null) return '—';
  return entry.action === 'state' ? (STATE_LABEL[value as ReviewState] ?? value) : value;
}

function Trail({ finding }: { finding: ReviewedFinding }) {
  const trail = useStore((s) => s.review.trails[finding.id]);
  const [open, setOpen] = useState(false);
  // Loaded when opened, and again after each change while open (a change clears the loaded trails).
  useEffect(() => {
    if (open && !trail) void store().review.loadTrail(finding.id);
  }, [open, trail, finding.id]);
  return (
    <details className="trail" data-testid="review-trail" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>History (every change, who and when)</summary>
      {trail ? (
        <table className="trail-table">
          <TableHead columns={['When', 'Who', 'What', 'From', 'To']} />
          <tbody>
            {trail.map((t) => (
              <tr key={t.id} data-action={t.action}>
                <td>{formatWhen(t.at)}</td>
                <td>{t.reviewer}</td>
                <td>
                  {ACTION_LABEL[t.action] ?? t.action}
                  {/* Only an edit names its field: "State changed: state" and "Note: notes" said the same thing twice. */}
                  {t.field && t.action === 'edit' ? `: ${FIELD_LABEL[t.field as keyof typeof FIELD_LABEL] ?? t.field}` : ''}
                  {t.detail ? <span className="muted"> ({t.detail})</span> : null}
                </td>
                <td>{trailValue(t, t.from)}</td>
                <td>{trailValue(t, t.to)}</td>
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

function SplitAndMerge({ finding, view }: { finding: ReviewedFinding; view: ReviewViewResult }) {
  const [chosen, setChosen] = useState<number[]>([]);
  const others = view.findings.filter((f) => f.id !== finding.id);
  const [mergeWith, setMergeWith] = useState<number | ''>('');
  // Closed, nothing inside is drawn: with thousands of findings the merge list alone is thousands of options.
  const [open, setOpen] = useState(false);
  if (finding.sources.length < 2 && others.length === 0) return null;
  return (
    <details className="review-tools" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Split or merge</summary>
      {open && finding.sources.length > 1 ? (
        <fieldset>
          <legend>Split: move these sources to a new finding</legend>
          {finding.sources.map((s) => (
            <label key={s.findingId} className="check">
              <input
                type="checkbox"
                checked={chosen.includes(s.findingId)}
                onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, s.findingId] : chosen.filter((x) => x !== s.findingId))}
              />{' '}
              Page {s.page ?? '?'}: “{s.evidence.length > 80 ? `${s.evidence.slice(0, 80)}…` : s.evidence}”
            </label>
          ))}
          <button
            type="button"
            className="button button--small"
            disabled={chosen.length === 0 || chosen.length === finding.sources.length}
            onClick={() => void store().review.split(finding, chosen)}
          >
            Split out {plural(chosen.length, 'source')}
          </button>
        </fieldset>
      ) : null}
      {open && others.length > 0 ? (
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
            onClick={() => mergeWith !== '' && void store().review.merge(finding, mergeWith)}
          >
            Merge
          </button>
        </div>
      ) : null}
    </details>
  );
}

/** Asked once before confirming a finding whose quote is not in the document. */
function ConfirmUngrounded({ finding }: { finding: ReviewedFinding }) {
  return (
    <div className="confirm-bar" role="alertdialog" aria-labelledby="confirm-ungrounded-text" data-testid="confirm-ungrounded">
      <p id="confirm-ungrounded-text">
        <strong>This finding is not grounded:</strong> its quote was not found in the document. Confirm it anyway? (<kbd>c</kbd> again confirms)
      </p>
      <button type="button" className="button button--small button--primary" autoFocus onClick={() => void store().review.setState(finding, 'confirmed')}>
        Confirm anyway
      </button>{' '}
      <button type="button" className="button button--small" onClick={() => store().review.cancelConfirm()}>
        Cancel
      </button>
    </div>
  );
}

export function ReviewDetail({ finding, view, form, setForm }: { finding: ReviewedFinding; view: ReviewViewResult; form: Form; setForm(f: Form): void }) {
  const review = store().review;
  const pending = useStore((s) => s.review.pendingConfirm === finding.id);
  const identity = view.identity[finding.id];
  const printedId = printedIdOf(finding, identity);
  const occurrences = [
    ...(finding.manualEvidence
      ? [{ start: finding.manualEvidence.start, end: finding.manualEvidence.end, page: finding.manualEvidence.page, label: 'your selection' }]
      : []),
    ...finding.sources
      .filter((s) => s.grounded && s.evidenceStart !== null && s.evidenceEnd !== null)
      .sort((a, b) => Number(b.isMain) - Number(a.isMain))
      .map((s) => ({ start: s.evidenceStart!, end: s.evidenceEnd!, page: s.page, label: s.isMain ? 'main source' : 'also stated here' })),
  ];
  return (
    <section className="review-detail" aria-labelledby="review-detail-title" data-testid="review-detail" data-review-id={finding.id} data-state={finding.state}>
      <h2 id="review-detail-title">
        <span className="muted">{finding.label}</span> {printedId ? <code>{printedId}</code> : null} {finding.effective.title}
      </h2>
      <p className="review-detail__facts">
        <StateBadge state={finding.state} /> <Severity label={finding.effective.severity} rank={finding.severityRank} />{' '}
        <span className="muted">{finding.effective.type}</span>{' '}
        <span className="muted" data-testid="detail-page">
          · <PageLabel documentId={finding.documentId} page={finding.mainPage} capital />
        </span>{' '}
        <Badges f={finding} />
        {finding.rejectReason ? <span className="reject-reason"> Reason: {finding.rejectReason}</span> : null}
      </p>
      {identity ? (
        <>
          <IdOriginLine idLabel={identity.idLabel} idOrigin={identity.idOrigin} />
          <IdConflictsNote conflicts={identity.conflicts} onOpen={(id) => review.setActive(id)} />
        </>
      ) : null}
      <div className="review-actions" role="group" aria-label="Review actions">
        <button type="button" className="button button--small button--primary" onClick={() => void review.setState(finding, 'confirmed')}>
          Confirm <kbd>c</kbd>
        </button>
        <button type="button" className="button button--small button--danger" onClick={() => setForm({ kind: 'reject' })}>
          Reject <kbd>r</kbd>
        </button>
        <button type="button" className="button button--small" onClick={() => void review.setState(finding, 'needs_follow_up')}>
          Needs follow-up <kbd>f</kbd>
        </button>
        <button type="button" className="button button--small" onClick={() => setForm({ kind: 'edit' })}>
          Edit <kbd>e</kbd>
        </button>
        <button type="button" className="button button--small" onClick={() => setForm({ kind: 'note' })}>
          Note <kbd>n</kbd>
        </button>
        {finding.changedFields.length > 0 ? (
          <button type="button" className="button button--small" onClick={() => void review.act('review.acknowledge', { reviewedId: finding.id })}>
            Acknowledge changes <kbd>a</kbd>
          </button>
        ) : null}
      </div>
      {pending ? <ConfirmUngrounded finding={finding} /> : null}
      {form?.kind === 'reject' ? <ReasonForm finding={finding} onDone={() => setForm(null)} /> : null}
      {form?.kind === 'edit' ? <EditForm finding={finding} onDone={() => setForm(null)} /> : null}
      {form?.kind === 'note' ? <NoteForm finding={finding} onDone={() => setForm(null)} /> : null}
      <p className="review-detail__description">{finding.effective.description}</p>
      {occurrences.length > 0 ? (
        <SourcePlace documentId={finding.documentId} places={occurrences} key={`source-${finding.id}`} />
      ) : (
        <p className="warning">Not grounded: the model’s quote was not found in the document. Read the place by hand before relying on it.</p>
      )}
      <h3>Model values and the auditor’s edits</h3>
      <table className="values-table" data-testid="review-values">
        <TableHead columns={['Field', 'Model (original)', 'Auditor (effective)']} />
        <tbody>
          {EDITABLE_FIELDS.map((field) => (
            <tr key={field} data-field={field} className={finding.edited.includes(field) ? 'edited' : ''}>
              <th scope="row">{FIELD_LABEL[field]}</th>
              <td className="original">{finding.original[field] || '—'}</td>
              <td className="effective">
                {finding.edited.includes(field) ? <strong>{finding.effective[field]}</strong> : <span className="muted">same</span>}
              </td>
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
                <strong>{n.reviewer}</strong> <span className="muted">{formatWhen(n.at)}</span>: {n.text}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <SourceList sources={finding.sources} />
      {/* Keyed: choices made for one finding never carry over to the next. */}
      <SplitAndMerge key={`split-merge-${finding.id}`} finding={finding} view={view} />
      {finding.lastChange ? (
        <p className="muted">
          Last change by {finding.lastChange.reviewer}, {formatWhen(finding.lastChange.at)}
        </p>
      ) : null}
      <Trail finding={finding} />
    </section>
  );
}
