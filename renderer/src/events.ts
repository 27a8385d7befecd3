/**
 * The one place host events enter the UI: each event is written into its
 * store, so data flows one way (host -> stores -> components). Components
 * never subscribe to the transport themselves.
 */
import { onHostEvent } from './api';
import { useDocumentsStore } from './stores/useDocumentsStore';
import { useFindingsStore } from './stores/useFindingsStore';
import { useMentionsStore } from './stores/useMentionsStore';
import { useRunsStore } from './stores/useRunsStore';
import { useTreeStore } from './stores/useTreeStore';

let documentsTimer: ReturnType<typeof setTimeout> | undefined;

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
  }, 150);
}

export function subscribeToHostEvents(): () => void {
  return onHostEvent((event) => {
    switch (event.type) {
      case 'run.progress':
        useRunsStore.getState().applyProgress(event.data);
        break;
      case 'run.finished':
        useRunsStore.getState().applyFinished(event.data);
        reloadDocumentsSoon();
        if (useFindingsStore.getState().loaded) void useFindingsStore.getState().load();
        break;
      case 'documents.changed':
        reloadDocumentsSoon();
        break;
    }
  });
}
