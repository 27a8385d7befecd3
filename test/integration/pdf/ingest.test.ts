import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SEPARATOR } from '../../../shared/canonical';
import { AppError, ErrorCode } from '../../../shared/errors';
import { ingestFile, type IngestResult } from '../../../electron/engine/pdf';
import {
  BODY_SIZE,
  HEADING_SIZE,
  makePdfWithBlankPages,
  makeRotatedPdf,
  makeTextPdf,
  makeTwoColumnPdf,
  makeZeroPagePdf,
  notAPdfBytes,
  proseLines,
  sampleReportSpec,
  truncate,
  writeFixture,
} from '../../fixtures/pdfFactory';
import { expectConsistentOffsets } from './offsets';
import { itNeeding, QPDF } from '../../helpers/requirements';

let dir: string;
const file = (name: string): string => path.join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pdf-ingest-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function expectAppError(promise: Promise<unknown>, code: ErrorCode): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  // A user sentence: names the file or the problem, ends with a full stop.
  expect((error as AppError).message).toMatch(/^.{20,}\.$/);
  return error as AppError;
}

describe('ingestFile on generated PDFs', () => {
  let report: IngestResult;
  beforeAll(async () => {
    report = await ingestFile(writeFixture(file('report.pdf'), await makeTextPdf(sampleReportSpec())), { workers: 0 });
  });

  it('reads pages, headings and metadata', () => {
    const { document, warnings } = report;
    expect(warnings).toEqual([]);
    expect(document.kind).toBe('pdf');
    expect(document.pageCount).toBe(4);
    expect(document.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(document.metadata.title).toBe('Sample Audit Report');
    const heading = document.lines.find((line) => document.text.slice(line.start, line.end) === '2.1 Missing input validation');
    expect(heading?.page).toBe(2);
    expect(heading?.fontSize).toBeGreaterThan(BODY_SIZE);
    const title = document.lines.find((line) => document.text.slice(line.start, line.end) === '1 Introduction');
    expect(title?.fontSize).toBeCloseTo(HEADING_SIZE, 1);
    // Headings are set in Helvetica-Bold, body and running header/footer in Helvetica.
    expect(heading?.bold).toBe(true);
    expect(title?.bold).toBe(true);
    const body = document.lines.filter((line) => line.fontSize === BODY_SIZE);
    expect(body.length).toBeGreaterThan(10);
    expect(body.every((line) => !line.bold)).toBe(true);
    expectConsistentOffsets(document);
  });

  it('joins hyphenated line breaks and keeps IDs', () => {
    expect(report.document.text).toContain('The parser accepts any document without checking its size, see TOB-ACME-001.');
  });

  it('resolves the hand-built outline to pages with levels', () => {
    expect(report.document.outline).toEqual(sampleReportSpec().outline!.map(({ title, level, pageIndex }) => ({ title, level, page: pageIndex + 1 })));
  });

  it('gives the same document with worker threads as in-process', async () => {
    const threaded = await ingestFile(file('report.pdf'), { workers: 2 });
    expect(threaded.document).toEqual(report.document);
  });

  it('flags pages without a text layer with a page-range message', async () => {
    const { document, warnings } = await ingestFile(writeFixture(file('blank.pdf'), await makePdfWithBlankPages(8, [2, 3, 4, 6])));
    expect(document.pages.map((page) => page.hasTextLayer)).toEqual([true, true, false, false, false, true, false, true]);
    expect(warnings).toEqual([
      { code: ErrorCode.PDF_NO_TEXT_LAYER, message: expect.stringContaining('No text layer on pages 3-5, 7') as string, pages: [3, 4, 5, 7] },
    ]);
    expectConsistentOffsets(document);
  });

  it('returns a document even when no page has text', async () => {
    const { document, warnings } = await ingestFile(writeFixture(file('allblank.pdf'), await makePdfWithBlankPages(2, [0, 1])));
    expect(document.text).toBe(PAGE_SEPARATOR);
    expect(warnings[0]?.pages).toEqual([1, 2]);
  });

  it('reads a two-column page column by column', async () => {
    const left = proseLines(20, 11, 50);
    const right = proseLines(20, 12, 50);
    const { document } = await ingestFile(writeFixture(file('twocol.pdf'), await makeTwoColumnPdf(left, right)));
    expect(document.text).toBe(['Two Column Article', ...left, ...right].join('\n'));
  });

  it('reads a /Rotate 90 page upright', async () => {
    const lines = ['First rotated line of text here', 'Second rotated line follows it'];
    const { document } = await ingestFile(writeFixture(file('rotated.pdf'), await makeRotatedPdf(lines)));
    expect(document.text).toBe(lines.join('\n'));
  });

  it('reports progress and honours cancellation', async () => {
    const progress: number[] = [];
    await ingestFile(file('report.pdf'), { onProgress: (done, total) => progress.push(done * 10 + total) });
    expect(progress).toEqual([14, 24, 34, 44]);
    const controller = new AbortController();
    controller.abort();
    await expectAppError(ingestFile(file('report.pdf'), { signal: controller.signal }), ErrorCode.CANCELLED);
    const midway = new AbortController();
    await expectAppError(ingestFile(file('report.pdf'), { workers: 0, signal: midway.signal, onProgress: () => midway.abort() }), ErrorCode.CANCELLED);
  });
});

describe('ingestFile on text files', () => {
  it('splits .txt pages at form feeds and normalises line endings', async () => {
    const { document } = await ingestFile(writeFixture(file('notes.txt'), 'first\r\nTOB-\u200BX-1\fsecond page\n'));
    expect(document.kind).toBe('txt');
    expect(document.pageCount).toBe(2);
    expect(document.text).toBe(`first\nTOB-X-1${PAGE_SEPARATOR}second page\n`);
    expect(document.lines.every((line) => line.fontSize === 0 && !line.bold)).toBe(true);
    expectConsistentOffsets(document);
  });

  it('marks Markdown ATX headings outside code fences', async () => {
    const { document } = await ingestFile(writeFixture(file('notes.md'), '# Title\n\n```\n# code\n```\n## Section\ntext\n'));
    expect(document.lines.map((line) => line.markdownLevel)).toEqual([1, undefined, undefined, undefined, undefined, 2, undefined, undefined]);
  });
});

describe('ingestFile on bad input', () => {
  it('missing file -> FILE_NOT_FOUND', async () => {
    await expectAppError(ingestFile(file('nope.pdf')), ErrorCode.FILE_NOT_FOUND);
  });
  it('empty file -> FILE_EMPTY', async () => {
    await expectAppError(ingestFile(writeFixture(file('empty.pdf'), new Uint8Array())), ErrorCode.FILE_EMPTY);
    await expectAppError(ingestFile(writeFixture(file('empty.txt'), '')), ErrorCode.FILE_EMPTY);
  });
  it('renamed non-PDF -> PDF_NOT_A_PDF', async () => {
    await expectAppError(ingestFile(writeFixture(file('zip.pdf'), notAPdfBytes())), ErrorCode.PDF_NOT_A_PDF);
  });
  it('unsupported extension names the supported types', async () => {
    const error = await expectAppError(ingestFile(writeFixture(file('report.docx'), 'x')), ErrorCode.FILE_UNSUPPORTED);
    expect(error.message).toContain('.pdf');
  });
  it('truncated PDF -> PDF_CORRUPT', async () => {
    const bytes = await makeTextPdf(sampleReportSpec());
    await expectAppError(ingestFile(writeFixture(file('cut.pdf'), truncate(bytes, 0.6))), ErrorCode.PDF_CORRUPT);
  });
  it('zero pages -> PDF_NO_PAGES', async () => {
    await expectAppError(ingestFile(writeFixture(file('zero.pdf'), await makeZeroPagePdf())), ErrorCode.PDF_NO_PAGES);
  });
  it('invalid UTF-8 text -> TEXT_NOT_UTF8', async () => {
    await expectAppError(ingestFile(writeFixture(file('latin1.txt'), new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]))), ErrorCode.TEXT_NOT_UTF8);
  });
  itNeeding([QPDF], 'password-protected PDF -> PDF_ENCRYPTED', async () => {
    execFileSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--', file('report.pdf'), file('locked.pdf')]);
    const error = await expectAppError(ingestFile(file('locked.pdf')), ErrorCode.PDF_ENCRYPTED);
    expect(error.message).toContain('--password');
  });

  it('a batch keeps going: good files ingest, bad ones fail with their codes', async () => {
    const inputs = [
      writeFixture(file('batch-good.pdf'), await makeTextPdf(sampleReportSpec())),
      file('batch-missing.pdf'),
      writeFixture(file('batch-zip.pdf'), notAPdfBytes()),
      writeFixture(file('batch-notes.md'), '# Notes\nok\n'),
      writeFixture(file('batch-empty.txt'), ''),
    ];
    const outcomes = await Promise.allSettled(inputs.map((input) => ingestFile(input)));
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'ok' : (outcome.reason as AppError).code))).toEqual([
      'ok',
      ErrorCode.FILE_NOT_FOUND,
      ErrorCode.PDF_NOT_A_PDF,
      'ok',
      ErrorCode.FILE_EMPTY,
    ]);
  });
});
