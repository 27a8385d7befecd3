import { describeProblems, picturePagesNote, shownStatus } from '../../../shared/runOutcome';
import { formatPageList } from '../format';
import { useOpenPart, useStore } from '../store';

/**
 * "Done with problems: 5 pages without text" for the open document, so a scanned or half-failed document never looks
 * complete. `quiet`: also the one quiet sentence on pages that hold only pictures, where nothing was lost (the Document
 * view and the library say it; the triage queue leaves it out, its lines are for findings).
 */
export function DocumentHealthNote({ quiet = true }: { quiet?: boolean }) {
  const health = useOpenPart('health', (h) => h.health, null);
  const doc = useStore((s) => s.library.documents.find((d) => d.id === s.doc.openId));
  if (!health) return null;
  const problems = describeProblems({
    failedFiles: doc && shownStatus(doc.status, doc.error) === 'failed' ? 1 : 0,
    pagesWithoutText: health.pagesWithoutText.length,
    picturePages: health.picturePages ?? [],
    unreadablePages: health.unreadablePages.length,
    failedChunks: health.failedChunks,
    ...(health.failedChunkPages ? { failedChunkPages: health.failedChunkPages } : {}),
  });
  const pictures = picturePagesNote(health.picturePages ?? []);
  if (!problems) {
    return pictures && quiet ? (
      <p className="muted" role="note" data-testid="picture-pages">
        {pictures}
      </p>
    ) : null;
  }
  return (
    <div className="warning" role="note" data-testid="document-problems">
      <strong>{doc && shownStatus(doc.status, doc.error) === 'done' ? 'Done with problems' : 'Problems'}:</strong> {problems}.
      {health.pagesWithoutText.length > 0
        ? ` No text layer on ${formatPageList(health.pagesWithoutText)}: findings there cannot be seen until OCR reads them.`
        : ''}
      {pictures ? ` ${pictures}` : ''}
      {health.failedChunks > 0 ? ' Resume or re-run the analysis to finish the parts that failed.' : ''}
    </div>
  );
}
