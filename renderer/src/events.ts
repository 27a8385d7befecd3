/**
 * The one place host events enter the UI: each event is written into the
 * store, so data flows one way (host -> store -> components). Components
 * never subscribe to the transport themselves.
 */
import { onHostEvent } from './api';
import type { RunProgressPayload } from '../../shared/contract';
import { store } from './store';
import { forgetTree } from './sourceCache';

/** Calls `work` at most once per `everyMs`, the last call always honoured. */
function throttled(everyMs: number, work: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let due = 0;
  return () => {
    if (timer) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        due = Date.now() + everyMs;
        work();
      },
      Math.max(0, due - Date.now()),
    );
  };
}

const refreshAnalysis = throttled(500, () => store().doc.refresh(['analysis']));
const refreshReview = throttled(1000, () => store().doc.refresh(['review']));
const refreshCounts = throttled(2000, () => void store().library.load());

/** The document a progress event is about: the event's own, when it concerns the file being worked on. */
function documentOf(payload: RunProgressPayload): number | null {
  const current = payload.inputs.find((i) => i.status === 'running');
  // Matched by ordinal, never by name: a pool works on several files at once.
  return (payload.event.ordinal === current?.ordinal ? payload.event.documentId : undefined) ?? payload.event.documentId ?? current?.documentId ?? null;
}

/**
 * While a run works on the open document, its tree appears, its chunks turn done one by one and its findings
 * arrive: the tree is loaded once it exists, the chunk statuses and the arriving findings at most every half second
 * and second. The library's counts follow every run (throttled).
 */
function followProgress(payload: RunProgressPayload): void {
  const phase = payload.event.phase;
  if (phase === 'extract' || phase === 'merge') refreshCounts();
  const open = store().doc.openId;
  if (open === null || documentOf(payload) !== open) return;
  const tree = store().tree;
  if (tree.documentId === open && !tree.tree && !tree.loading && phase !== 'ingest' && phase !== 'ocr' && phase !== 'rules') store().doc.refresh(['tree']);
  if (phase !== 'extract' && phase !== 'merge' && phase !== 'completeness' && phase !== 'summary') return;
  refreshAnalysis();
  if (phase === 'extract' || phase === 'merge') refreshReview();
}

let documentsTimer: ReturnType<typeof setTimeout> | undefined;

/** Coalesces bursts of `documents.changed` into one reload of the library and of the open document's parts. */
function reloadDocumentsSoon(): void {
  clearTimeout(documentsTimer);
  documentsTimer = setTimeout(() => {
    void store().library.load();
    // The open document may have been (re-)analysed: its parts may have changed, and its tree may exist only now.
    const tree = store().tree;
    store().doc.refresh(
      tree.tree || tree.loading
        ? ['mentions', 'splits', 'analysis', 'completeness', 'health']
        : ['tree', 'mentions', 'splits', 'analysis', 'completeness', 'health'],
    );
  }, 150);
}

export function subscribeToHostEvents(): () => void {
  return onHostEvent((event) => {
    switch (event.type) {
      case 'run.progress':
        store().runs.applyProgress(event.data);
        followProgress(event.data);
        break;
      case 'run.finished': {
        store().runs.applyFinished(event.data);
        for (const input of event.data.inputs) if (input.documentId !== null) forgetTree(input.documentId);
        // A run that stopped may have stopped on Ollama: the status bar checks again.
        if (event.data.status !== 'done') void store().ollama.check();
        // The open document was (re-)analysed, or stopped part-way: its review, tree and findings may be new.
        if (event.data.inputs.some((i) => i.documentId !== null && i.documentId === store().doc.openId)) store().doc.refresh();
        reloadDocumentsSoon();
        if (store().table.loaded) void store().table.load();
        break;
      }
      case 'documents.changed':
        reloadDocumentsSoon();
        break;
      case 'ask.event':
        store().ask.applyEvent(event.data);
        break;
    }
  });
}
