/**
 * The open document's review: its reviewed findings, the active one, the
 * queue's filter, findings still arriving from a run, and the way back of
 * every change. The way back is kept per document for the whole session:
 * leaving Findings, or looking at another document, never forgets what Ctrl+Z
 * can take back.
 */
import type { ArrivingFindings, CommandInput, ReviewViewResult } from '../../../shared/contract';
import type { ErrorInfo } from '../../../shared/errors';
import { EDITABLE_FIELDS, type EditableField, type ReviewedFinding, type ReviewState, type TrailEntry } from '../../../shared/review';
import type { Store } from '.';
import { perDocumentLoader } from './perDocumentLoader';
import { patcher, type SliceCreator } from './slice';

type ReviewCommand = 'review.setState' | 'review.edit' | 'review.note' | 'review.acknowledge' | 'review.split' | 'review.merge' | 'review.addManual';

export const STATE_LABEL: Record<ReviewState, string> = { new: 'New', confirmed: 'Confirmed', rejected: 'Rejected', needs_follow_up: 'Needs follow-up' };

type UndoCommand = 'review.setState' | 'review.edit' | 'review.removeNote' | 'review.undoSplit' | 'review.unmerge';

/** A review change and the change that takes it back (a new trail entry: the trail keeps both). */
export interface UndoStep {
  message: string;
  command: UndoCommand;
  input: CommandInput<UndoCommand>;
  /** The finding the queue shows again once undone. */
  focusId: number;
}

/** How many changes Ctrl+Z can take back per document, newest first. */
const UNDO_DEPTH = 50;

const isNameMissing = (error: ErrorInfo | null) => error?.details?.setting === 'reviewerName';

const undoStep = <C extends UndoCommand>(message: string, command: C, input: CommandInput<C>, focusId: number): UndoStep => ({
  message,
  command,
  input,
  focusId,
});

export interface QueueFilter {
  search: string;
  severity: string;
  state: ReviewState | '';
}

/** The severity filter's value for findings without a severity (the empty value means "all"). */
export const UNRATED_FILTER = '(unrated)';

/** The triage queue: the filter applied, grounded findings first, ungrounded ones after them (document order within each). */
export function queueOf(findings: readonly ReviewedFinding[], filter: QueueFilter): ReviewedFinding[] {
  const needle = filter.search.trim().toLowerCase();
  const shown = findings.filter(
    (f) =>
      (filter.state === '' || f.state === filter.state) &&
      (filter.severity === '' || f.effective.severity === (filter.severity === UNRATED_FILTER ? '' : filter.severity)) &&
      (needle === '' || `${f.label} ${f.findingKey ?? ''} ${f.effective.title} ${f.effective.type}`.toLowerCase().includes(needle)),
  );
  return [...shown.filter((f) => f.grounded), ...shown.filter((f) => !f.grounded)];
}

/** The changes of the open document's review that Ctrl+Z can take back, oldest first. */
export function undoStackOf(store: Pick<Store, 'review'>): readonly UndoStep[] {
  const documentId = store.review.documentId;
  return documentId === null ? [] : (store.review.undoStacks[documentId] ?? []);
}

const AUTO_ADVANCE_KEY = 'audit.autoAdvance';

export interface ReviewSlice {
  /** The document whose review is held (shown when it is the open document). */
  documentId: number | null;
  view: ReviewViewResult | null;
  loading: boolean;
  loaded: boolean;
  error: ErrorInfo | null;
  /** The reviewed finding the keyboard works on. */
  activeId: number | null;
  filter: QueueFilter;
  /** An ungrounded finding whose confirmation waits for "Confirm anyway" (asked once). */
  pendingConfirm: number | null;
  /** After a confirm or a reject, go on to the next finding still "New" (the auditor's choice, kept between sessions). */
  autoAdvance: boolean;
  /** Per document: the changes that can be taken back, oldest first (kept for the session). */
  undoStacks: Record<number, UndoStep[]>;
  /** What the last undo took back ("Undone: R-2 marked confirmed"), shown until the next change. */
  undone: string | null;
  /** A review action refused for want of a reviewer name: applied once the name is given. */
  retry: (() => Promise<boolean>) | null;
  /** A review change sent and not answered yet (its button says so; the status bar says what the engine is busy with). */
  saving: boolean;
  /** Reviewed finding id -> its trail, once asked for. */
  trails: Record<number, TrailEntry[]>;
  /** Findings of a run working on the document (or stopped part-way), before they are merged and reviewable. */
  arriving: ArrivingFindings | null;
  load(documentId: number, force?: boolean): Promise<void>;
  setAutoAdvance(on: boolean): void;
  setActive(id: number | null): void;
  setFilter(patch: Partial<QueueFilter>): void;
  move(delta: number): void;
  /** Runs a review change; the host answers with the document's fresh view. Returns false (error set) when refused. */
  act<C extends ReviewCommand>(command: C, input: CommandInput<C>): Promise<boolean>;
  /** Sets a state, keeping the way back; confirming an ungrounded finding first asks (call again to confirm anyway). */
  setState(finding: ReviewedFinding, state: ReviewState, reason?: string): Promise<boolean>;
  cancelConfirm(): void;
  /** Saves edited fields, keeping the way back. */
  edit(finding: ReviewedFinding, values: Partial<Record<EditableField, string>>): Promise<boolean>;
  /** Adds a note, keeping the way back (the note's removal). */
  note(finding: ReviewedFinding, text: string): Promise<boolean>;
  /** Splits the chosen sources out into a new finding, keeping the way back (merging it back). */
  split(finding: ReviewedFinding, findingIds: number[]): Promise<boolean>;
  /** Merges `absorbId` into the finding, keeping the way back (taking it out again). */
  merge(keep: ReviewedFinding, absorbId: number): Promise<boolean>;
  undoLast(): Promise<boolean>;
  /** Saves the reviewer name asked for where the action happened, then applies the refused action. */
  giveNameAndRetry(name: string): Promise<boolean>;
  dismissNamePrompt(): void;
  loadTrail(reviewedId: number): Promise<void>;
  clearError(): void;
}

export const createReviewSlice: SliceCreator<'review'> = (set, get) => {
  const patch = patcher(set, 'review');
  const review = () => get().review;
  /** Keeps the way back of a change just made to the document's review (and forgets what the last undo said). */
  function pushUndo(documentId: number, step: UndoStep): void {
    const stacks = review().undoStacks;
    patch({ undoStacks: { ...stacks, [documentId]: [...(stacks[documentId] ?? []), step].slice(-UNDO_DEPTH) }, undone: null });
  }
  /** A refused action waits for the reviewer name when that is what it lacked. */
  function rememberIfNameMissing(done: boolean, again: () => Promise<boolean>): boolean {
    if (!done && isNameMissing(review().error)) patch({ retry: again });
    return done;
  }
  /** Runs a review command and shows the fresh view it answers with; null (error set) when refused. */
  async function change<C extends ReviewCommand | UndoCommand>(
    command: C,
    input: CommandInput<C>,
  ): Promise<(ReviewViewResult & { createdId?: number; noteId?: number }) | null> {
    patch({ saving: true });
    const result = await get().host.call(command, input);
    patch({ saving: false });
    if (!result.ok) {
      patch({ error: result.error });
      return null;
    }
    const view = result.data as ReviewViewResult & { createdId?: number; noteId?: number };
    // The answer is the fresh view of the document changed; it is shown only if that is still the one held.
    if (review().documentId !== view.documentId) return view;
    const active = view.createdId ?? review().activeId;
    patch({
      view,
      error: null,
      trails: {},
      activeId: active !== null && view.findings.some((f) => f.id === active) ? active : (queueOf(view.findings, review().filter)[0]?.id ?? null),
    });
    return view;
  }
  const loader = perDocumentLoader<ReviewSlice, number, { view: ReviewViewResult; arriving: ArrivingFindings | null }, ErrorInfo | null>(
    (p) => patch(p),
    review,
    {
      async fetch(documentId) {
        const [result, arriving] = await Promise.all([get().host.call('review.get', { documentId }), get().host.call('findings.arriving', { documentId })]);
        return result.ok ? { ok: true, data: { view: result.data, arriving: arriving.ok ? arriving.data : null } } : result;
      },
      // The way back (undoStacks) stays: it is kept per document for the session.
      empty: () => ({ view: null, loaded: false, activeId: null, trails: {}, undone: null, retry: null, pendingConfirm: null, arriving: null }),
      apply({ view, arriving }) {
        const active = review().activeId;
        const queue = queueOf(view.findings, review().filter);
        return { view, arriving, loaded: true, activeId: active !== null && view.findings.some((f) => f.id === active) ? active : (queue[0]?.id ?? null) };
      },
      // The review keeps the whole error: a missing reviewer name is asked for where the action happened.
      error: (error) => error,
    },
  );
  return {
    review: {
      documentId: null,
      view: null,
      loading: false,
      loaded: false,
      error: null,
      activeId: null,
      filter: { search: '', severity: '', state: '' },
      pendingConfirm: null,
      autoAdvance: globalThis.localStorage?.getItem(AUTO_ADVANCE_KEY) === 'on',
      undoStacks: {},
      undone: null,
      retry: null,
      saving: false,
      trails: {},
      arriving: null,
      async load(documentId, force = false) {
        const now = review();
        if (!force && now.documentId === documentId && (now.loaded || now.loading) && now.error === null) return;
        await loader.load(documentId);
      },
      setAutoAdvance(on) {
        globalThis.localStorage?.setItem(AUTO_ADVANCE_KEY, on ? 'on' : 'off');
        patch({ autoAdvance: on });
      },
      setActive: (activeId) => patch({ activeId, pendingConfirm: null }),
      setFilter(changes) {
        const filter = { ...review().filter, ...changes };
        const queue = queueOf(review().view?.findings ?? [], filter);
        const active = review().activeId;
        patch({ filter, activeId: queue.some((f) => f.id === active) ? active : (queue[0]?.id ?? null) });
      },
      move(delta) {
        const queue = queueOf(review().view?.findings ?? [], review().filter);
        if (queue.length === 0) return;
        const at = queue.findIndex((f) => f.id === review().activeId);
        const next = Math.max(0, Math.min(queue.length - 1, (at < 0 ? 0 : at) + delta));
        patch({ activeId: queue[next]!.id, pendingConfirm: null });
      },
      async act(command, input) {
        return (await change(command, input)) !== null;
      },
      async setState(finding, state, reason) {
        if (state === 'confirmed' && !finding.grounded && review().pendingConfirm !== finding.id) {
          patch({ pendingConfirm: finding.id });
          return false;
        }
        patch({ pendingConfirm: null });
        if (finding.state === state && state !== 'rejected') return true;
        const back = undoStep(
          `${finding.label} marked ${STATE_LABEL[state].toLowerCase()}`,
          'review.setState',
          { reviewedId: finding.id, state: finding.state, ...(finding.state === 'rejected' && finding.rejectReason ? { reason: finding.rejectReason } : {}) },
          finding.id,
        );
        // The next finding still to decide, in queue order after this one (else the first before it), chosen before
        // the change: a filter on "New" takes the decided finding out of the queue.
        const queue = queueOf(review().view?.findings ?? [], review().filter);
        const at = queue.findIndex((f) => f.id === finding.id);
        const nextNew = [...queue.slice(at + 1), ...queue.slice(0, Math.max(0, at))].find((f) => f.state === 'new' && f.id !== finding.id);
        const done = await review().act('review.setState', { reviewedId: finding.id, state, ...(reason !== undefined ? { reason } : {}) });
        if (done) pushUndo(finding.documentId, back);
        if (
          done &&
          review().autoAdvance &&
          (state === 'confirmed' || state === 'rejected') &&
          nextNew &&
          review().view?.findings.some((f) => f.id === nextNew.id)
        ) {
          patch({ activeId: nextNew.id });
        }
        return rememberIfNameMissing(done, () => review().setState(finding, state, reason));
      },
      cancelConfirm: () => patch({ pendingConfirm: null }),
      async edit(finding, values) {
        const fields = EDITABLE_FIELDS.filter((f) => values[f] !== undefined && values[f] !== finding.effective[f]);
        if (fields.length === 0) return true;
        const changed = Object.fromEntries(fields.map((f) => [f, values[f]]));
        // Taking an edit back restores the earlier edit, or removes it (null) when the field had none.
        const previous = Object.fromEntries(fields.map((f) => [f, finding.edited.includes(f) ? finding.effective[f] : null]));
        const done = await review().act('review.edit', { reviewedId: finding.id, values: changed });
        if (done)
          pushUndo(
            finding.documentId,
            undoStep(`${finding.label} edited (${fields.join(', ')})`, 'review.edit', { reviewedId: finding.id, values: previous }, finding.id),
          );
        return rememberIfNameMissing(done, () => review().edit(finding, values));
      },
      async note(finding, text) {
        const view = await change('review.note', { reviewedId: finding.id, text });
        if (view?.noteId !== undefined)
          pushUndo(finding.documentId, undoStep(`Note added to ${finding.label}`, 'review.removeNote', { noteId: view.noteId }, finding.id));
        return rememberIfNameMissing(view !== null, () => review().note(finding, text));
      },
      async split(finding, findingIds) {
        const view = await change('review.split', { reviewedId: finding.id, findingIds });
        const created = view?.findings.find((f) => f.id === view.createdId);
        if (view?.createdId !== undefined) {
          pushUndo(
            finding.documentId,
            undoStep(`${created?.label ?? 'A new finding'} split out of ${finding.label}`, 'review.undoSplit', { reviewedId: view.createdId }, finding.id),
          );
        }
        return view !== null;
      },
      async merge(keep, absorbId) {
        const absorbed = review().view?.findings.find((f) => f.id === absorbId);
        const view = await change('review.merge', { keepId: keep.id, absorbId });
        if (view) pushUndo(keep.documentId, undoStep(`${absorbed?.label ?? 'A finding'} merged into ${keep.label}`, 'review.unmerge', { absorbId }, absorbId));
        return view !== null;
      },
      async undoLast() {
        const documentId = review().documentId;
        const stack = undoStackOf(get());
        const step = stack.at(-1);
        if (documentId === null || !step) {
          patch({ undone: 'Nothing to undo.' });
          return false;
        }
        const view = await change(step.command, step.input as never);
        if (view) {
          const stacks = review().undoStacks;
          patch({
            undoStacks: { ...stacks, [documentId]: (stacks[documentId] ?? []).slice(0, -1) },
            undone: `Undone: ${step.message}`,
            activeId: view.findings.some((f) => f.id === step.focusId) ? step.focusId : review().activeId,
          });
        }
        return view !== null;
      },
      async giveNameAndRetry(name) {
        const saved = await get().host.call('settings.update', { reviewerName: name.trim() });
        if (!saved.ok) {
          patch({ error: saved.error });
          return false;
        }
        // Settings shows the name given here (without touching edits the user has not saved there).
        get().settings.adopt(saved.data);
        const again = review().retry;
        patch({ retry: null, error: null });
        return again ? again() : true;
      },
      dismissNamePrompt: () => patch({ retry: null, error: null }),
      async loadTrail(reviewedId) {
        const result = await get().host.call('review.trail', { reviewedId });
        if (result.ok) patch({ trails: { ...review().trails, [reviewedId]: result.data } });
        else patch({ error: result.error });
      },
      clearError: () => patch({ error: null }),
    },
  };
};
