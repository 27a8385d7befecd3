/**
 * The one place host events enter the UI: each event is written into its
 * store, so data flows one way (host -> stores -> components). Components
 * never subscribe to the transport themselves.
 */
import { onHostEvent } from './api';
import type { RunProgressPayload } from '../../shared/contract';
import { useAnalysisStore } from './stores/useAnalysisStore';
import { useAskStore } from './stores/useAskStore';
import { useCompletenessStore } from './stores/useCompletenessStore';
import { useDocumentsStore } from './stores/useDocumentsStore';
import { useFindingsStore } from './stores/useFindingsStore';
import { useMentionsStore } from './stores/useMentionsStore';
import { useRunsStore } from './stores/useRunsStore';
import { useSplitStore } from './stores/useSplitStore';
import { useTreeStore } from './stores/useTreeStore';
import { useReviewStore } from './stores/useReviewStore';
import { useOllamaStore } from './stores/useOllamaStore';
import { forgetTree } from './sourceCache';

let documentsTimer: ReturnType<typeof setTimeout> | undefined;
let analysisTimer: ReturnType<typeof setTimeout> | undefined;
let analysisDue = 0;

/**
 * While a run works on the open document, its tree appears and its chunks turn done one by one: reload the
 * tree once it exists and the chunk statuses at most twice a second.
 */
function followOpenDocument(payload: RunProgressPayload): void {
  const open = useTreeStore.getState().documentId;
  if (open === null) return;
  const current = payload.inputs.find((i) => i.status === 'running');
  // The event's document counts when the event is about the file being worked on (matched by ordinal, never by name).
  const documentId = (payload.event.ordinal === current?.ordinal ? payload.event.documentId : undefined) ?? current?.documentId ?? null;
  if (documentId !== open) return;
  const phase = payload.event.phase;
  if (!useTreeStore.getState().tree && !useTreeStore.getState().loading && phase !== 'ingest' && phase !== 'ocr' && phase !== 'rules') void useTreeStore.getState().reload();
  if (phase !== 'extract' && phase !== 'merge' && phase !== 'summary') return;
  if (analysisTimer) return;
  const wait = Math.max(0, analysisDue - Date.now());
  analysisTimer = setTimeout(() => {
    analysisTimer = undefined;
    analysisDue = Date.now() + 500;
    void useAnalysisStore.getState().load(open);
  }, wait);
}

/** Calls `work` at most once per `everyMs`, the last call always honoured. */
function throttled(everyMs: number, work: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let due = 0;
  return () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      due = Date.now() + everyMs;
      work();
    }, Math.max(0, due - Date.now()));
  };
}

const refreshReview = throttled(1000, () => {
  const review = useReviewStore.getState();
  if (review.documentId !== null) void review.load(review.documentId);
});
const refreshCounts = throttled(2000, () => void useDocumentsStore.getState().load());

/**
 * Findings appear as the chunks finish: each extraction step commits its chunk's findings, so the queue of the
 * document being analysed and the library's counts are refreshed while the run goes (throttled).
 */
function followFindings(payload: RunProgressPayload): void {
  if (payload.event.phase !== 'extract' && payload.event.phase !== 'merge') return;
  refreshCounts();
  const current = payload.inputs.find((i) => i.status === 'running');
  const documentId = payload.event.documentId ?? current?.documentId ?? null;
  if (documentId !== null && documentId === useReviewStore.getState().documentId) refreshReview();
}

/** Coalesces bursts of `documents.changed` into one reload. */
function reloadDocumentsSoon(): void {
  clearTimeout(documentsTimer);
  documentsTimer = setTimeout(() => {
    void useDocumentsStore.getState().load();
    const tree = useTreeStore.getState();
    // The open document may have been re-analysed: refresh its tree if it had none yet, and its mentions.
    if (tree.documentId !== null && !tree.tree) void tree.reload();
    const mentions = useMentionsStore.getState();
    if (mentions.documentId !== null) void mentions.load(mentions.documentId);
    const split = useSplitStore.getState();
    if (split.documentId !== null) void split.load(split.documentId);
    const analysis = useAnalysisStore.getState();
    if (analysis.documentId !== null) void analysis.load(analysis.documentId);
    const completeness = useCompletenessStore.getState();
    if (completeness.documentId !== null) void completeness.load(completeness.documentId);
  }, 150);
}

export function subscribeToHostEvents(): () => void {
  return onHostEvent((event) => {
    switch (event.type) {
      case 'run.progress':
        useRunsStore.getState().applyProgress(event.data);
        followOpenDocument(event.data);
        followFindings(event.data);
        break;
      case 'run.finished':
        useRunsStore.getState().applyFinished(event.data);
        for (const input of event.data.inputs) if (input.documentId !== null) forgetTree(input.documentId);
        if (event.data.inputs.some((i) => i.documentId !== null && i.documentId === useReviewStore.getState().documentId)) refreshReview();
        // A run that stopped may have stopped on Ollama: the status bar checks again.
        if (event.data.status !== 'done') void useOllamaStore.getState().check();
        // The open document was (re-)analysed: its current tree may be a new one.
        if (event.data.inputs.some((i) => i.documentId !== null && i.documentId === useTreeStore.getState().documentId)) void useTreeStore.getState().reload();
        reloadDocumentsSoon();
        if (useFindingsStore.getState().loaded) void useFindingsStore.getState().load();
        break;
      case 'documents.changed':
        reloadDocumentsSoon();
        break;
      case 'ask.event':
        useAskStore.getState().applyEvent(event.data);
        break;
    }
  });
}
