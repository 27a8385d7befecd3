import { useEffect, useState } from 'react';
import type { DocumentHealth } from '../../../shared/contract';
import { describeProblems, picturePagesNote } from '../../../shared/runOutcome';
import { formatPageList } from '../format';
import { invoke } from '../api';
import { useDocumentsStore } from '../stores/useDocumentsStore';

/** "Done with problems: 5 pages without text" for one document, so a scanned or half-failed document never looks complete. */
export function DocumentHealthNote({ documentId }: { documentId: number }) {
  const [health, setHealth] = useState<DocumentHealth | null>(null);
  const doc = useDocumentsStore((s) => s.documents.find((d) => d.id === documentId));
  useEffect(() => {
    let current = true;
    void invoke('documents.health', { documentId }).then((r) => current && setHealth(r.ok ? r.data : null));
    return () => {
      current = false;
    };
  }, [documentId, doc?.status, doc?.findingsCount]);
  if (!health || health.documentId !== documentId) return null;
  const problems = describeProblems({
    failedFiles: doc?.status === 'failed' ? 1 : 0,
    pagesWithoutText: health.pagesWithoutText.length,
    picturePages: health.picturePages ?? [],
    unreadablePages: health.unreadablePages.length,
    failedChunks: health.failedChunks,
  });
  const pictures = picturePagesNote(health.picturePages ?? []);
  if (!problems) {
    return pictures ? (
      <p className="muted" role="note" data-testid="picture-pages">
        {pictures}
      </p>
    ) : null;
  }
  return (
    <div className="warning" role="note" data-testid="document-problems">
      <strong>{doc?.status === 'done' ? 'Done with problems' : 'Problems'}:</strong> {problems}.
      {health.pagesWithoutText.length > 0 ? ` No text layer on ${formatPageList(health.pagesWithoutText)}: findings there cannot be seen until OCR reads them.` : ''}
      {pictures ? ` ${pictures}` : ''}
      {health.failedChunks > 0 ? ' Resume or re-run the analysis to finish the parts that failed.' : ''}
    </div>
  );
}
