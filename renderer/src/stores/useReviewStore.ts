import { create } from 'zustand';
import type { CommandInput, ReviewViewResult } from '../../../shared/contract';
import type { ErrorInfo } from '../../../shared/errors';
import type { TrailEntry } from '../../../shared/review';
import { invoke } from '../api';

type ReviewCommand = 'review.setState' | 'review.edit' | 'review.note' | 'review.acknowledge' | 'review.split' | 'review.merge' | 'review.addManual';

interface ReviewState {
  documentId: number | null;
  view: ReviewViewResult | null;
  loading: boolean;
  error: ErrorInfo | null;
  /** The reviewed finding the keyboard works on. */
  activeId: number | null;
  /** Reviewed finding id -> its trail, once asked for. */
  trails: Record<number, TrailEntry[]>;
  load(documentId: number): Promise<void>;
  setActive(id: number | null): void;
  move(delta: number): void;
  /** Runs a review change; the host answers with the document's fresh view. Returns false (error set) when refused. */
  act<C extends ReviewCommand>(command: C, input: CommandInput<C>): Promise<boolean>;
  loadTrail(reviewedId: number): Promise<void>;
  clearError(): void;
}

export const useReviewStore = create<ReviewState>()((set, get) => ({
  documentId: null,
  view: null,
  loading: false,
  error: null,
  activeId: null,
  trails: {},
  async load(documentId) {
    set({ documentId, loading: true, ...(documentId !== get().documentId ? { view: null, activeId: null, trails: {} } : {}) });
    const result = await invoke('review.get', { documentId });
    if (get().documentId !== documentId) return;
    if (!result.ok) return set({ loading: false, error: result.error });
    const active = get().activeId;
    set({
      view: result.data,
      loading: false,
      error: null,
      activeId: active !== null && result.data.findings.some((f) => f.id === active) ? active : (result.data.findings[0]?.id ?? null),
    });
  },
  setActive: (activeId) => set({ activeId }),
  move(delta) {
    const findings = get().view?.findings ?? [];
    if (findings.length === 0) return;
    const at = findings.findIndex((f) => f.id === get().activeId);
    const next = Math.max(0, Math.min(findings.length - 1, (at < 0 ? 0 : at) + delta));
    set({ activeId: findings[next]!.id });
  },
  async act(command, input) {
    const result = await invoke(command, input);
    if (!result.ok) {
      set({ error: result.error });
      return false;
    }
    const view = result.data as ReviewViewResult & { createdId?: number };
    const active = view.createdId ?? get().activeId;
    set({
      view,
      error: null,
      trails: {},
      activeId: active !== null && view.findings.some((f) => f.id === active) ? active : (view.findings[0]?.id ?? null),
    });
    return true;
  },
  async loadTrail(reviewedId) {
    const result = await invoke('review.trail', { reviewedId });
    if (result.ok) set({ trails: { ...get().trails, [reviewedId]: result.data } });
    else set({ error: result.error });
  },
  clearError: () => set({ error: null }),
}));
