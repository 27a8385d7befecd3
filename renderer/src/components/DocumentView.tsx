import { useEffect } from 'react';
import { useAnalysisStore } from '../stores/useAnalysisStore';
import { useAppStore } from '../stores/useAppStore';
import { useDocumentsStore } from '../stores/useDocumentsStore';
import { useMentionsStore } from '../stores/useMentionsStore';
import { useSplitStore } from '../stores/useSplitStore';
import { useReconcileStore } from '../stores/useReconcileStore';
import { useTreeStore } from '../stores/useTreeStore';
import { AnalysisPanel } from './AnalysisPanel';
import { CompletenessPanel } from './CompletenessPanel';
import { ChunkTextView } from './ChunkTextView';
import { ChunkTree } from './ChunkTree';
import { MentionsPanel } from './MentionsPanel';
import { SplitAttempts } from './SplitAttempts';
import { DocumentPicker } from './DocumentPicker';
import { DocumentHealthNote } from './DocumentHealthNote';
import { OcrPagesNote } from './OcrPagesNote';

/** One document: its chunk tree, the selected node's text, its ID mentions and tree-split attempts. */
/** "Reconcile with…": this document against a population (a tracker's CSV or XLSX), in the Reconcile place. */
function ReconcileWithButton({ documentId }: { documentId: number }) {
  return (
    <button
      type="button"
      className="button button--small"
      onClick={() => {
        useReconcileStore.getState().chooseDocument(documentId);
        useAppStore.getState().setView('reconcile');
      }}
    >
      Reconcile with…
    </button>
  );
}

export function DocumentView() {
  const documentId = useTreeStore((s) => s.documentId);
  const loading = useTreeStore((s) => s.loading);
  const error = useTreeStore((s) => s.error);
  const tree = useTreeStore((s) => s.tree);
  const documents = useDocumentsStore((s) => s.documents);
  const doc = documents.find((d) => d.id === documentId);
  const backTo = useAppStore((s) => s.backTo);

  // Shown again after Findings (or the library's Findings button): open the document chosen there last, so
  // the tree and the panels beside it are about the same document.
  useEffect(() => {
    const last = useAppStore.getState().lastDocumentId;
    if (last !== null && last !== useTreeStore.getState().documentId) void useTreeStore.getState().open(last);
  }, []);

  useEffect(() => {
    if (documentId === null) return;
    void useMentionsStore.getState().load(documentId);
    void useSplitStore.getState().load(documentId);
    void useAnalysisStore.getState().load(documentId);
  }, [documentId]);

  return (
    <div className="document-view">
      <section aria-labelledby="tree-title" className="panel tree-panel">
        {backTo ? (
          <button type="button" className="button button--small back-button" onClick={() => useAppStore.getState().goBack()}>
            ← Back to {backTo === 'findings' ? 'the finding' : backTo}
          </button>
        ) : null}
        <div className="panel__head">
          <h2 id="tree-title">{doc ? doc.fileName : 'Chunk tree'}</h2>
          <DocumentPicker documents={documents} value={documentId} onChoose={(id) => void useTreeStore.getState().open(id)} />
          {documentId !== null ? <ReconcileWithButton documentId={documentId} /> : null}
        </div>
        {documentId === null ? (
          <p className="empty">
            Open a document from the{' '}
            <button type="button" className="link" onClick={() => useAppStore.getState().setView('library')}>
              library
            </button>
            .
          </p>
        ) : null}
        {documentId !== null ? <DocumentHealthNote documentId={documentId} /> : null}
        {documentId !== null ? <OcrPagesNote documentId={documentId} /> : null}
        {error ? <p role="alert">{error}</p> : null}
        {loading ? <p role="status">Loading the chunk tree…</p> : null}
        {documentId !== null && !loading && !tree && !error ? <p className="empty">This document has no chunk tree yet; it is built when a run analyses it.</p> : null}
        <ChunkTree />
      </section>
      <div className="document-view__side">
        <ChunkTextView />
        <CompletenessPanel />
        <AnalysisPanel />
        <SplitAttempts />
        <MentionsPanel />
      </div>
    </div>
  );
}
