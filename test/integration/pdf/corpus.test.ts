/**
 * Real third-party PDFs with ground truth (../shared/corpus, see its MANIFEST.md).
 * Skipped when the corpus is not present on this machine.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ErrorCode } from '../../../shared/errors';
import type { ExtractedDocument } from '../../../shared/types';
import { ingestFile, type IngestResult } from '../../../electron/engine/pdf';
import { expectConsistentOffsets } from './offsets';
import { corpusFile } from '../../helpers/corpus';
import { corpusDocuments, describeNeeding } from '../../helpers/requirements';

/** The corpus documents these tests read. */
const DOCUMENTS = [
  'tob-etcd-2020',
  'tob-mosquitto-2023',
  'hard-r-exts-manual',
  'hard-encrypted-userpw',
  'hard-federal-register-3col',
  'hard-nics-rotated-table',
  'hard-scanned-no-text',
  'hard-tracemonkey-2col',
];

interface Truth {
  pages: number;
  outline: { title: string; level: number; page: number }[];
  findings: { id: string; title: string; detail_title?: string; page: number }[];
}

const truth = (name: string): Truth => JSON.parse(readFileSync(corpusFile(name, 'truth'), 'utf8')) as Truth;
const cache = new Map<string, Promise<IngestResult>>();
const ingest = (name: string): Promise<IngestResult> => {
  if (!cache.has(name)) cache.set(name, ingestFile(corpusFile(name, 'pdf')));
  return cache.get(name)!;
};
const flat = (text: string): string => text.replace(/\s+/g, ' ').trim();
const pageText = (document: ExtractedDocument, page: number): string => {
  const span = document.pages[page - 1];
  return span ? document.text.slice(span.start, span.end) : '';
};

describeNeeding([corpusDocuments(DOCUMENTS)], 'corpus PDFs', () => {
  it('tob-etcd-2020: 48 pages, every finding title on its page (±1)', async () => {
    const { document } = await ingest('tob-etcd-2020');
    const expected = truth('tob-etcd-2020');
    expect(document.pageCount).toBe(expected.pages);
    expect(document.pages.every((page) => page.hasTextLayer)).toBe(true);
    for (const finding of expected.findings) {
      const title = flat(finding.detail_title ?? finding.title);
      const nearby = [finding.page - 1, finding.page, finding.page + 1].map((page) => flat(pageText(document, page))).join(' ');
      expect(nearby, finding.id).toContain(title);
    }
    // Font weight comes from the embedded font names (OpenSans-Bold for the finding's "Description" label, OpenSans-Regular for its text).
    const lineText = (line: (typeof document.lines)[number]) => document.text.slice(line.start, line.end);
    const page14 = document.lines.filter((line) => line.page === 14);
    expect(page14.find((line) => lineText(line) === 'Description')?.bold).toBe(true);
    expect(page14.filter((line) => lineText(line).startsWith('Secure endpoint validation')).map((line) => line.bold)).toEqual([false]);
    expectConsistentOffsets(document);
  });

  it('tob-mosquitto-2023: IDs intact once bidi controls are stripped', async () => {
    const { document } = await ingest('tob-mosquitto-2023');
    expect(document.text).not.toMatch(/[\u202A-\u202E\u200B]/);
    for (const finding of truth('tob-mosquitto-2023').findings) expect(document.text, finding.id).toContain(finding.id);
  });

  it('hard-r-exts-manual: 187 outline entries resolved to the truth pages', async () => {
    const { document } = await ingest('hard-r-exts-manual');
    const expected = truth('hard-r-exts-manual').outline;
    expect(document.outline).toHaveLength(187);
    expect(document.outline.map((entry) => entry.level)).toEqual(expected.map((entry) => entry.level));
    expect(document.outline.slice(0, 20)).toEqual(expected.slice(0, 20));
    const matching = document.outline.filter((entry, index) => entry.page === expected[index]!.page).length;
    expect(matching).toBe(187);
    expectConsistentOffsets(document);
  });

  it('hard-tracemonkey-2col: columns are not interleaved', async () => {
    const { document } = await ingest('hard-tracemonkey-2col');
    // Left column of page 2, wrapped over two lines; the right column shares those baselines.
    expect(flat(pageText(document, 2))).toContain('Every compiled trace contains all the guards (checks) required to validate the speculation.');
    expect(flat(pageText(document, 1))).toContain('Dynamic languages such as JavaScript are more difficult to compile than statically typed ones.');
  });

  it('hard-federal-register-3col: three columns read one by one', async () => {
    const { document } = await ingest('hard-federal-register-3col');
    expect(flat(pageText(document, 2))).toContain(
      'Investigation of the accident has been completed by the Indonesian authorities (Komite Nasional Keselamatan Transportasi (KNKT)) with assistance from the National Transportation Safety Board (NTSB)',
    );
  });

  it('hard-nics-rotated-table: the /Rotate 90 table reads in rows', async () => {
    const { document } = await ingest('hard-nics-rotated-table');
    expect(document.text).toContain('NICS Firearm Background Checks');
    // A table none of whose cells wraps is still written as rows, its cells set apart (see pdf/tableRows.ts).
    expect(document.text).toContain('Alabama | 18,870 | 23,022 | 22,650 | 859 | 1,178');
  });

  it('hard-scanned-no-text: image pages flagged, the OCR page kept', async () => {
    const { document, warnings } = await ingest('hard-scanned-no-text');
    expect(document.pageCount).toBe(6);
    expect(warnings).toContainEqual(expect.objectContaining({ code: ErrorCode.PDF_NO_TEXT_LAYER, pages: [1, 2, 3, 5, 6] }));
    expect(warnings[0]!.message).toContain('pages 1-3, 5-6');
    expect(document.outline.map((entry) => entry.page)).toEqual([1, 2, 3, 4]);
  });

  it('hard-encrypted-userpw: PDF_ENCRYPTED', async () => {
    await expect(ingest('hard-encrypted-userpw')).rejects.toMatchObject({ code: ErrorCode.PDF_ENCRYPTED });
  });
});
