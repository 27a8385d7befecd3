import type { ExtractedDocument } from '../../../shared/types';
import type { ErrorCode } from '../../../shared/errors';

export interface IngestOptions {
  signal?: AbortSignal;
  /** Called after each page is assembled (PDF) or once (text files). */
  onProgress?: (pagesDone: number, pageCount: number) => void;
  /**
   * Worker threads for PDF parsing; default min(2, availableParallelism()). One worker reads short documents,
   * documents of WORKER_MIN_PAGES pages or more get up to this many. 0 parses on the calling thread.
   */
  workers?: number;
  /** User password of an encrypted PDF (PDF_ENCRYPTED without it, PDF_PASSWORD_WRONG when it does not open the file). Never stored. */
  password?: string;
}

/** Something the user should know about a document that still ingested. */
export interface IngestWarning {
  code: ErrorCode;
  message: string;
  pages?: number[];
  /** OCR read these pages and found no words (a picture-only cover, a blank page): nothing on them was lost. */
  picturesOnly?: true;
}

export interface IngestResult {
  document: ExtractedDocument;
  warnings: IngestWarning[];
}
