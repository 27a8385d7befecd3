import { create } from 'zustand';
import type { ArrivingFindings, CommandInput, ReviewViewResult } from '../../../shared/contract';
import type { ErrorInfo } from '../../../shared/errors';
import { EDITABLE_FIELDS, type EditableField, type ReviewedFinding, type ReviewState, type TrailEntry } from '../../../shared/review';
import { invoke } from '../api';
import { perDocumentLoader } from './perDocumentLoader';
import { useAppStore } from './useAppStore';

type ReviewCommand = 'review.setState' | 'review.edit' | 'review.note' | 'review.acknowledge' | 'review.split' | 'review.merge' | 'review.addManual';

export const STATE_LABEL: Record<ReviewState, string> = { new: 'New', confirmed: 'Confirmed', rejected: 'Rejected', needs_follow_up: 'Needs follow-up' };

type UndoCommand = 'review.setState' | 'review.edit' | 'review.removeNote' | 'review.undoSplit' | 'review.unmerge';

/** The last review change and the change that takes it back (a new trail entry: the trail keeps both). */
export interface UndoStep {
  message: string;
  command: UndoCommand;
  input: CommandInput<UndoCommand>;
  /** The finding the queue shows again once undone. */
  focusId: number;
}

/** How many changes Ctrl+Z can take back, newest first. */
const UNDO_DEPTH = 20;

const isNameMissing = (error: ErrorInfo | null) => error?.details?.setting === 'reviewerName';

const undoStep = <C extends UndoCommand>(message: string, command: C, input: CommandInput<C>, focusId: number): UndoStep => ({ message, command, input, focusId });

export interface QueueFilter {
  search: string;
  severity: string;
  state: ReviewState | '';
}

/** The triage queue: the filter applied, grounded findings first, ungrounded ones after them (document order within each). */
export function queueOf(findings: readonly ReviewedFinding[], filter: QueueFilter): ReviewedFinding[] {
  const needle = filter.search.trim().toLowerCase();
  const shown = findings.filter(
    (f) =>
      (filter.state === '' || f.state === filter.state) &&
      (filter.severity === '' || f.effective.severity === filter.severity) &&
      (needle === '' || `${f.label} ${f.findingKey ?? ''} ${f.effective.title} ${f.effective.type}`.toLowerCase().includes(needle)),
  );
  return [...shown.filter((f) => f.grounded), ...shown.filter((f) => !f.grounded)];
}

const AUTO_ADVANCE_KEY = 'audit.autoAdvance';

interface ReviewStoreState {
  documentId: number | null;
  view: ReviewViewResult | null;
  loading: boolean;
  error: ErrorInfo | null;
  /** The reviewed finding the keyboard works on. */
  activeId: number | null;
  filter: QueueFilter;
  /** An ungrounded finding whose confirmation waits for "Confirm anyway" (asked once). */
  pendingConfirm: number | null;
  /** After a confirm or a reject, go on to the next finding still "New" (the auditor's choice, kept between sessions). */
  autoAdvance: boolean;
  setAutoAdvance(on: boolean): void;
  /** The latest change that can be taken back (the top of `undoStack`). */
  undo: UndoStep | null;
  /** Changes that can be taken back, oldest first: Ctrl+Z goes back one at a time. */
  undoStack: UndoStep[];
  /** What the last undo took back ("Undone: R-2 marked confirmed"), shown until the next change. */
  undone: string | null;
  /** A review action refused for want of a reviewer name: applied once the name is given. */
  retry: (() => Promise<boolean>) | null;
  /** Reviewed finding id -> its trail, once asked for. */
  trails: Record<number, TrailEntry[]>;
  /** Findings of a run still working on the document, before they are merged (and reviewable). */
  arriving: ArrivingFindings | null;
  load(documentId: number): Promise<void>;
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
  loadTrail(reviewedId: number): Promise<void>;
  clearError(): void;
}

export const useReviewStore = create<ReviewStoreState>()((set, get) => {
  /** Keeps the way back of a change just made (and forgets what the last undo said). */
  function pushUndo(step: UndoStep): void {
    const undoStack = [...get().undoStack, step].slice(-UNDO_DEPTH);
    set({ undo: step, undoStack, undone: null });
  }
  /** A refused action waits for the reviewer name when that is what it lacked. */
  function rememberIfNameMissing(done: boolean, again: () => Promise<boolean>): boolean {
    if (!done && isNameMissing(get().error)) set({ retry: again });
    return done;
  }
  /** Runs a review command and shows the fresh view it answers with; null (error set) when refused. */
  async function change<C extends ReviewCommand | UndoCommand>(command: C, input: CommandInput<C>): Promise<(ReviewViewResult & { createdId?: number; noteId?: number }) | null> {
    const result = await invoke(command, input);
    if (!result.ok) {
      set({ error: result.error });
      return null;
    }
    const view = result.data as ReviewViewResult & { createdId?: number; noteId?: number };
    const active = view.createdId ?? get().activeId;
    set({
      view,
      error: null,
      trails: {},
      activeId: active !== null && view.findings.some((f) => f.id === active) ? active : (queueOf(view.findings, get().filter)[0]?.id ?? null),
    });
    return view;
  }
  const loader = perDocumentLoader<ReviewStoreState, number, { view: ReviewViewResult; arriving: ArrivingFindings | null }, ErrorInfo | null>(set, get, {
    async fetch(documentId) {
      const [result, arriving] = await Promise.all([invoke('review.get', { documentId }), invoke('findings.arriving', { documentId })]);
      return result.ok ? { ok: true, data: { view: result.data, arriving: arriving.ok ? arriving.data : null } } : result;
    },
    empty: () => ({ view: null, activeId: null, trails: {}, undo: null, undoStack: [], undone: null, retry: null, pendingConfirm: null, arriving: null }),
    apply({ view, arriving }) {
      const active = get().activeId;
      const queue = queueOf(view.findings, get().filter);
      return { view, arriving, activeId: active !== null && view.findings.some((f) => f.id === active) ? active : (queue[0]?.id ?? null) };
    },
    // The review keeps the whole error: a missing reviewer name is asked for where the action happened.
    error: (error) => error,
  });
  return {
  documentId: null,
  view: null,
  loading: false,
  error: null,
  activeId: null,
  filter: { search: '', severity: '', state: '' },
  pendingConfirm: null,
  autoAdvance: globalThis.localStorage?.getItem(AUTO_ADVANCE_KEY) === 'on',
  setAutoAdvance(on) {
    globalThis.localStorage?.setItem(AUTO_ADVANCE_KEY, on ? 'on' : 'off');
    set({ autoAdvance: on });
  },
  undo: null,
  undoStack: [],
  undone: null,
  retry: null,
  trails: {},
  arriving: null,
  async load(documentId) {
    // A reload of the same document (a run ended, a citation) is not a choice; switching to another one is.
    if (documentId !== get().documentId) useAppStore.getState().noteDocument(documentId);
    await loader.load(documentId);
  },
  setActive: (activeId) => set({ activeId, pendingConfirm: null }),
  setFilter(patch) {
    const filter = { ...get().filter, ...patch };
    const queue = queueOf(get().view?.findings ?? [], filter);
    const active = get().activeId;
    set({ filter, activeId: queue.some((f) => f.id === active) ? active : (queue[0]?.id ?? null) });
  },
  move(delta) {
    const queue = queueOf(get().view?.findings ?? [], get().filter);
    if (queue.length === 0) return;
    const at = queue.findIndex((f) => f.id === get().activeId);
    const next = Math.max(0, Math.min(queue.length - 1, (at < 0 ? 0 : at) + delta));
    set({ activeId: queue[next]!.id, pendingConfirm: null });
  },
  async act(command, input) {
    return (await change(command, input)) !== null;
  },
  async setState(finding, state, reason) {
    if (state === 'confirmed' && !finding.grounded && get().pendingConfirm !== finding.id) {
      set({ pendingConfirm: finding.id });
      return false;
    }
    set({ pendingConfirm: null });
    if (finding.state === state && state !== 'rejected') return true;
    const back = undoStep(
      `${finding.label} marked ${STATE_LABEL[state].toLowerCase()}`,
      'review.setState',
      { reviewedId: finding.id, state: finding.state, ...(finding.state === 'rejected' && finding.rejectReason ? { reason: finding.rejectReason } : {}) },
      finding.id,
    );
    // The next finding still to decide, in queue order after this one (else the first before it), chosen before
    // the change: a filter on "New" takes the decided finding out of the queue.
    const queue = queueOf(get().view?.findings ?? [], get().filter);
    const at = queue.findIndex((f) => f.id === finding.id);
    const nextNew = [...queue.slice(at + 1), ...queue.slice(0, Math.max(0, at))].find((f) => f.state === 'new' && f.id !== finding.id);
    const done = await get().act('review.setState', { reviewedId: finding.id, state, ...(reason !== undefined ? { reason } : {}) });
    if (done) pushUndo(back);
    if (done && get().autoAdvance && (state === 'confirmed' || state === 'rejected') && nextNew && get().view?.findings.some((f) => f.id === nextNew.id)) {
      set({ activeId: nextNew.id });
    }
    return rememberIfNameMissing(done, () => get().setState(finding, state, reason));
  },
  cancelConfirm: () => set({ pendingConfirm: null }),
  async edit(finding, values) {
    const fields = EDITABLE_FIELDS.filter((f) => values[f] !== undefined && values[f] !== finding.effective[f]);
    if (fields.length === 0) return true;
    const changed = Object.fromEntries(fields.map((f) => [f, values[f]]));
    // Taking an edit back restores the earlier edit, or removes it (null) when the field had none.
    const previous = Object.fromEntries(fields.map((f) => [f, finding.edited.includes(f) ? finding.effective[f] : null]));
    const done = await get().act('review.edit', { reviewedId: finding.id, values: changed });
    if (done) pushUndo(undoStep(`${finding.label} edited (${fields.join(', ')})`, 'review.edit', { reviewedId: finding.id, values: previous }, finding.id));
    return rememberIfNameMissing(done, () => get().edit(finding, values));
  },
  async note(finding, text) {
    const view = await change('review.note', { reviewedId: finding.id, text });
    if (view?.noteId !== undefined) pushUndo(undoStep(`Note added to ${finding.label}`, 'review.removeNote', { noteId: view.noteId }, finding.id));
    return rememberIfNameMissing(view !== null, () => get().note(finding, text));
  },
  async split(finding, findingIds) {
    const view = await change('review.split', { reviewedId: finding.id, findingIds });
    const created = view?.findings.find((f) => f.id === view.createdId);
    if (view?.createdId !== undefined) {
      pushUndo(undoStep(`${created?.label ?? 'A new finding'} split out of ${finding.label}`, 'review.undoSplit', { reviewedId: view.createdId }, finding.id));
    }
    return view !== null;
  },
  async merge(keep, absorbId) {
    const absorbed = get().view?.findings.find((f) => f.id === absorbId);
    const view = await change('review.merge', { keepId: keep.id, absorbId });
    if (view) pushUndo(undoStep(`${absorbed?.label ?? 'A finding'} merged into ${keep.label}`, 'review.unmerge', { absorbId }, absorbId));
    return view !== null;
  },
  async undoLast() {
    const stack = get().undoStack;
    const step = stack.at(-1);
    if (!step) {
      set({ undone: 'Nothing to undo.' });
      return false;
    }
    const view = await change(step.command, step.input as never);
    if (view) {
      const rest = stack.slice(0, -1);
      set({ undoStack: rest, undo: rest.at(-1) ?? null, undone: `Undone: ${step.message}`, activeId: view.findings.some((f) => f.id === step.focusId) ? step.focusId : get().activeId });
    }
    return view !== null;
  },
  async giveNameAndRetry(name) {
    const saved = await invoke('settings.update', { reviewerName: name.trim() });
    if (!saved.ok) {
      set({ error: saved.error });
      return false;
    }
    const again = get().retry;
    set({ retry: null, error: null });
    return again ? again() : true;
  },
  async loadTrail(reviewedId) {
    const result = await invoke('review.trail', { reviewedId });
    if (result.ok) set({ trails: { ...get().trails, [reviewedId]: result.data } });
    else set({ error: result.error });
  },
  clearError: () => set({ error: null }),
  };
});
