/**
 * Where the real-PDF corpus is, and which of its documents are whole. The corpus is a folder beside the checkout
 * (../shared/corpus, with pdfs/<name>.pdf and truth/<name>.json); AUDIT_CORPUS_DIR points elsewhere (a test uses it to
 * prove that the suite skips, with its reasons, on a machine without the corpus or with part of it).
 *
 * A corpus document is WHOLE when both its PDF and its truth file are there. A fresh clone has no corpus at all, and a
 * corpus being filled has PDFs whose truth is not written yet (or the reverse): tests and benchmarks read only whole
 * documents, and say which were left out (requirements.ts turns each gap into a skipped test with its reason).
 *
 * No vitest import here: the eval and the benchmark read the corpus through this module too.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

export const CORPUS_DIR = process.env.AUDIT_CORPUS_DIR ? resolve(process.env.AUDIT_CORPUS_DIR) : resolve(root, '../shared/corpus');

export type CorpusFileKind = 'pdf' | 'truth';

export function corpusFile(name: string, kind: CorpusFileKind, dir = CORPUS_DIR): string {
  return kind === 'pdf' ? join(dir, 'pdfs', `${name}.pdf`) : join(dir, 'truth', `${name}.json`);
}

export interface CorpusEntry {
  name: string;
  pdf: boolean;
  truth: boolean;
}

function namesIn(folder: string, extension: string): string[] {
  return existsSync(folder)
    ? readdirSync(folder)
        .filter((f) => f.endsWith(extension))
        .map((f) => f.slice(0, -extension.length))
    : [];
}

/** Every document the corpus has a PDF or a truth file of, sorted by name, with which of the two are there. */
export function corpusInventory(dir = CORPUS_DIR): CorpusEntry[] {
  const pdfs = new Set(namesIn(join(dir, 'pdfs'), '.pdf'));
  const truths = new Set(namesIn(join(dir, 'truth'), '.json'));
  return [...new Set([...pdfs, ...truths])].sort().map((name) => ({ name, pdf: pdfs.has(name), truth: truths.has(name) }));
}

/** The names of the corpus documents that have both their PDF and their truth file. */
export function wholeCorpusDocuments(dir = CORPUS_DIR): string[] {
  return corpusInventory(dir)
    .filter((e) => e.pdf && e.truth)
    .map((e) => e.name);
}

/** "tob-x (no truth file)": what a document of the corpus lacks, in words; null when it is whole. */
export function corpusGap(entry: CorpusEntry): string | null {
  if (entry.pdf && entry.truth) return null;
  return `${entry.name} (${entry.pdf ? 'no truth file' : entry.truth ? 'no PDF' : 'neither PDF nor truth file'})`;
}
