/**
 * Read models of the auditor's workspace (issue 16): the original file of a
 * document, so the renderer can draw the source page beside a finding with
 * pdf.js, and what a document's analysis left out (pages without text,
 * unreadable pages, failed chunks) so every view can say "Done with problems".
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { ArrivingFindings, DocumentFile, DocumentHealth, ParsedInput } from '../../shared/contract';
import { AppError, ErrorCode } from '../../shared/errors';
import { getDocument, pagesWithoutTextLayer, unreadablePages, type Database } from '../engine/store';
import { documentArriving } from './arriving';
import { listOcrPages } from '../engine/ocr';
import { analysisView } from './findingViews';
import { samplePdf } from './samplePdf';

function storedDocument(db: Database, documentId: number) {
  const doc = getDocument(db, documentId);
  if (!doc) throw new AppError(ErrorCode.INVALID_INPUT, `There is no document ${documentId}. Refresh the library.`);
  return doc;
}

export function workspaceHandlers(db: Database) {
  return {
    async 'documents.file'({ documentId }: ParsedInput<'documents.file'>): Promise<DocumentFile> {
      const doc = storedDocument(db, documentId);
      if (!existsSync(doc.filePath)) {
        throw new AppError(
          ErrorCode.FILE_NOT_FOUND,
          `The original file of ${doc.fileName} is no longer at ${doc.filePath}, so its pages cannot be shown. The text read from it is still stored; add the file again to see its pages.`,
        );
      }
      const bytes = readFileSync(doc.filePath);
      // The page must be the one the text was read from: a file changed since would put the highlight in the wrong place.
      if (createHash('sha256').update(bytes).digest('hex') !== doc.sha256) {
        throw new AppError(
          ErrorCode.SOURCE_FILE_CHANGED,
          `${doc.fileName} has changed since it was analysed, so its pages would not match the findings. Add the new version to analyse it again.`,
        );
      }
      return { documentId, fileName: doc.fileName, kind: doc.kind === 'pdf' ? 'pdf' : 'text', bytes: bytes.toString('base64') };
    },
    async 'findings.arriving'({ documentId }: ParsedInput<'findings.arriving'>): Promise<ArrivingFindings> {
      storedDocument(db, documentId);
      return documentArriving(db, documentId);
    },
    /** Only main can open files (the desktop app answers this itself); the dev bridge says where the file is. */
    async 'reports.reveal'({ path }: ParsedInput<'reports.reveal'>): Promise<{ done: boolean; message: string }> {
      return { done: false, message: `Opening files needs the desktop app. The report is at ${path}.` };
    },
    async 'documents.sample'(): Promise<{ name: string; bytes: string }> {
      return { name: 'sample-audit-report.pdf', bytes: samplePdf().toString('base64') };
    },
    async 'documents.health'({ documentId }: ParsedInput<'documents.health'>): Promise<DocumentHealth> {
      storedDocument(db, documentId);
      const analysis = analysisView(db, documentId, undefined, () => []);
      // Pages OCR read and found no text on (no words, or a logo's few letters) hold only pictures: noted, not a loss.
      const picturePages = new Set(
        listOcrPages(db, documentId)
          .filter((p) => !p.hasText)
          .map((p) => p.page),
      );
      const withoutText = pagesWithoutTextLayer(db, documentId);
      return {
        documentId,
        pagesWithoutText: withoutText.filter((page) => !picturePages.has(page)),
        picturePages: withoutText.filter((page) => picturePages.has(page)),
        unreadablePages: unreadablePages(db, documentId).map((p) => p.page),
        failedChunks: analysis.counts.failed,
        failedChunkPages: pagesOfChunks(analysis.chunks.filter((c) => c.status === 'failed')),
      };
    },
  };
}

/** Every page the chunks cover, once each, in order. */
function pagesOfChunks(chunks: readonly { pageStart: number | null; pageEnd: number | null }[]): number[] {
  const pages = new Set<number>();
  for (const c of chunks) {
    if (c.pageStart === null) continue;
    for (let page = c.pageStart; page <= (c.pageEnd ?? c.pageStart); page++) pages.add(page);
  }
  return [...pages].sort((a, b) => a - b);
}
