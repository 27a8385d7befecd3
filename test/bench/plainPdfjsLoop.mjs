/**
 * The ingest benchmark's baseline loop over one file: getDocument and getTextContent on every page, nothing else,
 * default options (plainPdfjsOnce.mjs on one thread, plainPdfjsTwoThreads.mjs on two); and the engine's own
 * extractor over one file, for the floor of our reading alone.
 */
import { readFileSync } from 'node:fs';

/**
 * The pages of `file` read with pdf.js (the module passed in, loaded by the caller inside its timing); an encrypted
 * or broken file costs what pdf.js spent finding out, as on the ingest side, and counts the pages read before.
 * @param {typeof import('pdfjs-dist')} pdfjs @param {string} file @returns {Promise<number>}
 */
export async function readEveryPage(pdfjs, file) {
  let pages = 0;
  const task = pdfjs.getDocument({ data: new Uint8Array(readFileSync(file)), verbosity: pdfjs.VerbosityLevel.ERRORS });
  try {
    const pdf = await task.promise;
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      const page = await pdf.getPage(pageNumber);
      await page.getTextContent();
      page.cleanup();
      pages++;
    }
  } catch {
    // counted as read so far
  } finally {
    await task.destroy();
  }
  return pages;
}

/**
 * The pages of `file` read with the engine's extractor (rawExtractor.mjs: its pdf.js options, item positions and
 * bold flags), with the document info its first worker reads; counted like readEveryPage.
 * @param {typeof import('../../electron/engine/pdf/rawExtractor.mjs')} extractor @param {string} file @returns {Promise<number>}
 */
export async function extractEveryPage(extractor, file) {
  let pages = 0;
  const task = extractor.openPdf(new Uint8Array(readFileSync(file)));
  try {
    const pdf = await task.promise;
    await extractor.readDocumentInfo(pdf);
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      await extractor.extractRawPage(pdf, pageNumber);
      pages++;
    }
  } catch {
    // counted as read so far
  } finally {
    await extractor.closePdf(task);
  }
  return pages;
}
