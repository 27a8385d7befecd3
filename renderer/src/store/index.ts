/**
 * The window's one store, made of slices (zustand's slices pattern): where the
 * user is (nav), the open document and its data (doc, tree, analysis,
 * completeness, mentions, splits, health), the table of findings, the review
 * and its way back, settings and the profile, the library, runs, Ollama's
 * status, Ask, Compare, Reconcile, OCR display, report exports, and the calls to the
 * engine (host). Components read it with `useStore(selector)` and act through
 * its actions; they never call the engine themselves. Host events are written
 * into it by events.ts.
 */
import { create } from 'zustand';
import { createAskSlice, type AskSlice } from './askSlice';
import { createCompareSlice, type CompareSlice } from './compareSlice';
import {
  createDocSlice,
  createDocumentParts,
  type AnalysisPart,
  type CompletenessPart,
  type DocSlice,
  type HealthPart,
  type MentionsPart,
  type SplitsPart,
} from './documentSlice';
import { createHostSlice, type HostSlice } from './hostSlice';
import { createLibrarySlice, type LibrarySlice } from './librarySlice';
import { createNavSlice, type NavSlice } from './navSlice';
import { createOcrSlice, type OcrSlice } from './ocrSlice';
import { createOllamaSlice, type OllamaSlice } from './ollamaSlice';
import { createReconcileSlice, type ReconcileSlice } from './reconcileSlice';
import { createReportsSlice, type ReportsSlice } from './reportsSlice';
import { createReviewSlice, type ReviewSlice } from './reviewSlice';
import { createRunsSlice, type RunsSlice } from './runsSlice';
import { createSettingsSlice, type SettingsSlice } from './settingsSlice';
import { createTableSlice, type TableSlice } from './tableSlice';
import { createTreeSlice, type TreePart } from './treeSlice';

export interface Store {
  host: HostSlice;
  nav: NavSlice;
  doc: DocSlice;
  tree: TreePart;
  analysis: AnalysisPart;
  completeness: CompletenessPart;
  mentions: MentionsPart;
  splits: SplitsPart;
  health: HealthPart;
  table: TableSlice;
  review: ReviewSlice;
  settings: SettingsSlice;
  library: LibrarySlice;
  runs: RunsSlice;
  ollama: OllamaSlice;
  ask: AskSlice;
  compare: CompareSlice;
  reconcile: ReconcileSlice;
  ocr: OcrSlice;
  reports: ReportsSlice;
}

export const useStore = create<Store>()((...a) => ({
  ...createHostSlice(...a),
  ...createNavSlice(...a),
  ...createDocSlice(...a),
  ...createTreeSlice(...a),
  ...createDocumentParts(...a),
  ...createTableSlice(...a),
  ...createReviewSlice(...a),
  ...createSettingsSlice(...a),
  ...createLibrarySlice(...a),
  ...createRunsSlice(...a),
  ...createOllamaSlice(...a),
  ...createAskSlice(...a),
  ...createCompareSlice(...a),
  ...createReconcileSlice(...a),
  ...createOcrSlice(...a),
  ...createReportsSlice(...a),
}));

/** The store's actions and state, read once (in event handlers and effects). */
export const store = (): Store => useStore.getState();

export type { View } from './navSlice';
export type { TieOutList } from './reconcileSlice';
export type { DocumentPart, DocumentPlace } from './documentSlice';
export { DOCUMENT_PARTS } from './documentSlice';
export { indexTree, visibleRows, type NodeMeta } from './treeSlice';
export { queueOf, STATE_LABEL, UNRATED_FILTER, undoStackOf, type QueueFilter, type UndoStep } from './reviewSlice';
export { visibleFindings, type FindingSortKey } from './tableSlice';
export { isDirty, hasUnsavedWork, endpointCheckKey, endpointCheckOf, endpointsWithoutUrl } from './settingsSlice';
export { WAITING_AFTER_MS } from './hostSlice';

type PartName = 'tree' | 'analysis' | 'completeness' | 'mentions' | 'splits' | 'health';

/**
 * What a view shows of one part of the open document's data: `pick` of the part while it holds the open
 * document, else `fallback` (a part still holding the document shown before is never painted over the new one).
 * `pick` must return data held in the store (not a new object), as every zustand selector must.
 */
export function useOpenPart<N extends PartName, T>(name: N, pick: (part: Store[N]) => T, fallback: T): T {
  return useStore((s) => (s[name].documentId !== null && s[name].documentId === s.doc.openId ? pick(s[name]) : fallback));
}
