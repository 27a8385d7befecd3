/**
 * The ingest benchmark's baseline loop over one file: getDocument and getTextContent on every page, nothing else,
 * default options (plainPdfjsOnce.mjs on one thread, plainPdfjsTwoThreads.mjs on two).
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
