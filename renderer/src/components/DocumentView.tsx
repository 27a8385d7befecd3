import { useEffect } from 'react';
import { store, useStore } from '../store';
import { AnalysisPanel } from './AnalysisPanel';
import { CompletenessPanel } from './CompletenessPanel';
import { ChunkTextView } from './ChunkTextView';
import { ChunkTree } from './ChunkTree';
import { MentionsPanel } from './MentionsPanel';
import { SplitAttempts } from './SplitAttempts';
import { DocumentPicker } from './DocumentPicker';
import { DocumentHealthNote } from './DocumentHealthNote';
import { OcrPagesNote } from './OcrPagesNote';

/** "Reconcile with…": this document against a population (a tracker's CSV or XLSX), in the Reconcile place. */
function ReconcileWithButton({ documentId }: { documentId: number }) {
  return (
    <button
      type="button"
      className="button button--small"
      onClick={() => {
        store().reconcile.chooseDocument(documentId);
        store().nav.setView('reconcile');
      }}
    >
      Reconcile with…
    </button>
  );
}

/** The open document: its chunk tree, the selected node's text, its ID mentions and tree-split attempts. */
export function DocumentView() {
  const documentId = useStore((s) => s.doc.openId);
  const loading = useStore((s) => s.tree.loading && s.tree.documentId === documentId);
  const error = useStore((s) => (s.tree.documentId === documentId ? s.tree.error : null));
  const tree = useStore((s) => (s.tree.documentId === documentId ? s.tree.tree : null));
  const documents = useStore((s) => s.library.documents);
  const doc = documents.find((d) => d.id === documentId);
  const backTo = useStore((s) => s.nav.backTo);

  useEffect(() => store().doc.ensureOpen(), [documents.length]);

  return (
    <div className="document-view">
      <section aria-labelledby="tree-title" className="panel tree-panel">
        {backTo ? (
          <button type="button" className="button button--small back-button" onClick={() => store().nav.goBack()}>
            ← Back to {backTo === 'findings' ? 'the finding' : backTo}
          </button>
        ) : null}
        <div className="panel__head">
          <h2 id="tree-title">{doc ? doc.fileName : 'Chunk tree'}</h2>
          <DocumentPicker documents={documents} value={documentId} onChoose={(id) => void store().doc.open(id)} />
          {documentId !== null ? <ReconcileWithButton documentId={documentId} /> : null}
        </div>
        {documentId === null ? (
          <p className="empty">
            Open a document from the{' '}
            <button type="button" className="link" onClick={() => store().nav.setView('library')}>
              library
            </button>
            .
          </p>
        ) : null}
        {documentId !== null ? <DocumentHealthNote /> : null}
        {documentId !== null ? <OcrPagesNote documentId={documentId} /> : null}
        {error ? <p role="alert">{error}</p> : null}
        {loading && !tree ? <p role="status">Loading the chunk tree…</p> : null}
        {documentId !== null && !loading && !tree && !error ? (
          <p className="empty">This document has no chunk tree yet; it is built when a run analyses it.</p>
        ) : null}
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
