/**
 * Findings and review in one triage queue: the open document's queue on the left (its head, the findings still
 * arriving from a run, the queue itself, unreviewed ID mentions, export), the active finding beside its source page
 * on the right. Each part is its own section component; this one holds what they share: the form open, the mention
 * open, the keyboard.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { DocumentSummary } from '../../../../shared/contract';
import { plural } from '../../format';
import { queueOf, store, useStore } from '../../store';
import { ExportControl } from '../ExportControl';
import { FindingsView } from '../FindingsView';
import { ReviewDetail, type Form } from '../review/ReviewDetail';
import { Sentence } from '../Sentence';
import { SplitPane } from '../SplitPane';
import { ArrivingList } from './ArrivingList';
import { QueueHead } from './QueueHead';
import { QueueList } from './QueueList';
import { ReviewerNamePrompt } from './ReviewerNamePrompt';
import { MentionDetail, UnreviewedMentions } from './UnreviewedMentions';
import { useOpenReview } from './useOpenReview';

/**
 * Why the list is empty, by where the document stands: "yet" only while a run may still add findings; once it
 * ended, what it found against what the document states.
 */
export function emptyFindingsText(doc: DocumentSummary | undefined, arriving: number): string {
  const byHand = 'You can also select text in the document to add one by hand.';
  if (doc && (doc.status === 'running' || doc.status === 'queued'))
    return arriving > 0
      ? `The ${plural(arriving, 'finding')} arriving above join this queue, merged and reviewable, when the run finishes.`
      : `No findings in this document yet. They appear above as the analysis finishes each part. ${byHand}`;
  if (doc?.status === 'paused' || doc?.status === 'cancelled') {
    const stopped = doc.status === 'paused' ? 'paused' : 'cancelled';
    return arriving > 0
      ? `The run was ${stopped} after ${plural(arriving, 'finding')} had been reported (listed above): they join this queue when it is resumed and finishes (Runs tab).`
      : `No findings so far: the run was ${stopped} before any part gave one. Resume it from the Runs tab. ${byHand}`;
  }
  if (doc?.status === 'done') {
    const stated = doc.verdict?.statedTotal ?? null;
    return stated !== null && stated > 0
      ? `The analysis found no findings, but the document states ${plural(stated, 'finding')}: see its completeness check in the Document tab. ${byHand}`
      : `The analysis found no findings in this document. ${byHand}`;
  }
  return `No findings: this document has not been analysed in full. ${byHand}`;
}

/** The review's error, with the way to fix it (a missing reviewer name opens Settings). */
function ReviewError() {
  const error = useStore((s) => s.review.error);
  const retry = useStore((s) => s.review.retry);
  if (!error || retry) return null;
  return (
    <div role="alert" className="error-text" data-testid="review-error">
      <Sentence text={error.message} />{' '}
      {error.details?.setting === 'reviewerName' ? (
        <button type="button" className="link" onClick={() => store().nav.setView('settings')}>
          Open the settings
        </button>
      ) : null}{' '}
      <button type="button" className="link" onClick={() => store().review.clearError()}>
        Dismiss
      </button>
    </div>
  );
}

/** What the last change did and the way back: "R-4 marked confirmed. Undo", or what the last undo took back. */
function UndoBar() {
  const undone = useStore((s) => s.review.undone);
  const last = useStore((s) => (s.review.documentId === null ? undefined : s.review.undoStacks[s.review.documentId]?.at(-1)));
  return (
    <>
      {undone ? (
        <p className="undone" role="status" data-testid="undone">
          {undone}
        </p>
      ) : null}
      {last ? (
        <div className="undo-bar" role="status" data-testid="undo-bar">
          <span>{last.message}.</span>
          <button type="button" className="button button--small" onClick={() => void store().review.undoLast()}>
            Undo
          </button>
        </div>
      ) : null}
    </>
  );
}

export function TriageView() {
  const documents = useStore((s) => s.library.documents);
  const documentId = useStore((s) => s.doc.openId);
  const view = useOpenReview((r) => r.view, null);
  const loading = useStore((s) => s.review.loading);
  const activeId = useOpenReview((r) => r.activeId, null);
  const filter = useStore((s) => s.review.filter);
  const retry = useStore((s) => s.review.retry);
  const arrivingCount = useOpenReview((r) => (r.arriving && r.arriving.runId !== null ? r.arriving.findings.length : 0), 0);
  const [form, setForm] = useState<Form>(null);
  const [mode, setMode] = useState<'queue' | 'table'>('queue');
  const [mentionId, setMentionId] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => store().doc.ensureOpen(), [documents.length]);
  // Another document: its own mention (none) and form (none).
  const [shownDocument, setShownDocument] = useState(documentId);
  if (shownDocument !== documentId) {
    setShownDocument(documentId);
    setMentionId(null);
    setForm(null);
  }
  const hasFindings = (view?.findings.length ?? 0) > 0;
  useEffect(() => {
    // The keys work from the queue: arriving here (a sample's first finding, a library click), the first c or j
    // acts at once instead of doing nothing until the user clicks the list. Never taken from a field in use.
    const focused = document.activeElement;
    if (hasFindings && (focused === null || focused === document.body)) listRef.current?.focus({ preventScroll: true });
  }, [hasFindings, documentId, mode]);
  const queue = useMemo(() => queueOf(view?.findings ?? [], filter), [view, filter]);
  const active = view?.findings.find((f) => f.id === activeId) ?? null;
  const focusQueue = () => listRef.current?.focus({ preventScroll: true });
  const closeForm = () => {
    setForm(null);
    focusQueue();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const review = store().review;
    if ((event.ctrlKey || event.metaKey) && event.key === 'z') {
      event.preventDefault();
      void review.undoLast();
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key;
    if (key === 'j' || key === 'ArrowDown') review.move(1);
    else if (key === 'k' || key === 'ArrowUp') review.move(-1);
    else if (key === 'PageDown') review.move(10);
    else if (key === 'PageUp') review.move(-10);
    else if (key === 'Home') review.move(-1e6);
    else if (key === 'End') review.move(1e6);
    else if (key === 'Escape') review.cancelConfirm();
    else if (!active) return;
    else if (key === 'c') void review.setState(active, 'confirmed');
    else if (key === 'f') void review.setState(active, 'needs_follow_up');
    else if (key === 'u') void review.setState(active, 'new');
    else if (key === 'a' && active.changedFields.length > 0) void review.act('review.acknowledge', { reviewedId: active.id });
    else if (key === 'r') setForm({ kind: 'reject' });
    else if (key === 'e') setForm({ kind: 'edit' });
    else if (key === 'n') setForm({ kind: 'note' });
    else return;
    setMentionId(null);
    event.preventDefault();
  };

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
      <QueueHead modeSwitch={modeSwitch} />
      <ReviewError />
      {loading && !view ? <p role="status">Loading the findings…</p> : null}
      {documentId === null ? <p className="empty">No document yet. Add one in the Library to see its findings here.</p> : null}
      <ArrivingList />
      {view && view.findings.length === 0 ? (
        <p className="empty" data-testid="findings-empty">
          {emptyFindingsText(
            documents.find((d) => d.id === documentId),
            arrivingCount,
          )}
        </p>
      ) : null}
      {view && view.findings.length > 0 ? (
        <>
          <QueueList
            queue={queue}
            activeId={activeId}
            identity={view.identity}
            listRef={listRef}
            onKeyDown={onKeyDown}
            onPick={(id) => {
              store().review.setActive(id);
              setMentionId(null);
              focusQueue();
            }}
          />
          {queue.length === 0 ? <p className="empty">No finding matches the filter.</p> : null}
          <p className="hint">
            <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>c</kbd> confirm, <kbd>r</kbd> reject, <kbd>f</kbd> follow-up, <kbd>e</kbd> edit, <kbd>n</kbd> note,{' '}
            <kbd>u</kbd> back to new, <kbd>Ctrl</kbd>+<kbd>z</kbd> undo.
          </p>
        </>
      ) : null}
      {documentId !== null ? <UnreviewedMentions openId={mentionId} onOpen={setMentionId} /> : null}
      {view?.runId ? <ExportControl runId={view.runId} {...(documentId !== null ? { documentId } : {})} label="Export this document" /> : null}
    </section>
  );

  const detail = (
    <>
      {retry ? <ReviewerNamePrompt onDone={focusQueue} /> : null}
      <UndoBar />
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
