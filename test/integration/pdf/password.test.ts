/**
 * Password-protected PDFs: a generated report encrypted with qpdf opens with
 * its user password on both extraction paths (worker threads and in-process),
 * fails with PDF_ENCRYPTED without one and PDF_PASSWORD_WRONG with a wrong
 * one; an owner-password-only file still opens with no password at all.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors';
import { ingestFile } from '../../../electron/engine/pdf';
import { makeTextPdf, sampleReportSpec, writeFixture } from '../../fixtures/pdfFactory';
import { corpusFile as corpusPath } from '../../helpers/corpus';
import { corpusDocuments, describeNeeding, QPDF as QPDF_INSTALLED } from '../../helpers/requirements';

const corpusFile = corpusPath('hard-encrypted-userpw', 'pdf');

let dir: string;
const file = (name: string): string => path.join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pdf-password-'));
  writeFixture(file('plain.pdf'), await makeTextPdf(sampleReportSpec()));
  if (QPDF_INSTALLED.missing() === null) {
    execFileSync('qpdf', ['--encrypt', 'S3cret pass', 'owner-pw', '256', '--', file('plain.pdf'), file('locked.pdf')]);
    execFileSync('qpdf', ['--encrypt', '', 'owner-pw', '256', '--print=none', '--extract=n', '--', file('plain.pdf'), file('owner-only.pdf')]);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describeNeeding([QPDF_INSTALLED], 'encrypted PDFs', () => {
  for (const workers of [0, 1]) {
    const how = workers === 0 ? 'in-process' : 'in a worker';
    it(`opens with the user password (${how}) and reads the same text as the unencrypted file`, async () => {
      const plain = await ingestFile(file('plain.pdf'), { workers });
      const unlocked = await ingestFile(file('locked.pdf'), { workers, password: 'S3cret pass' });
      expect(unlocked.document.text).toBe(plain.document.text);
      expect(unlocked.document.pages).toEqual(plain.document.pages);
      expect(unlocked.document.text.length).toBeGreaterThan(500);
    });

    it(`without a password: PDF_ENCRYPTED saying how to give one (${how})`, async () => {
      const error = await failure(ingestFile(file('locked.pdf'), { workers }));
      expect(error.code).toBe(ErrorCode.PDF_ENCRYPTED);
      expect(error.message).toContain('"locked.pdf" is protected by a password');
    });

    it(`a wrong password: PDF_PASSWORD_WRONG, and the password is not in the error (${how})`, async () => {
      const error = await failure(ingestFile(file('locked.pdf'), { workers, password: 'guess-123' }));
      expect(error.code).toBe(ErrorCode.PDF_PASSWORD_WRONG);
      expect(error.message).toMatch(/password for "locked\.pdf" is wrong.*try again\./);
      expect(JSON.stringify(error.toInfo())).not.toContain('guess-123');
    });
  }

  it('an owner-password-only PDF (printing and copying forbidden) opens without any password, as before', async () => {
    const plain = await ingestFile(file('plain.pdf'));
    const restricted = await ingestFile(file('owner-only.pdf'));
    expect(restricted.document.text).toBe(plain.document.text);
  });
});

describeNeeding([corpusDocuments(['hard-encrypted-userpw'], ['pdf'])], 'corpus: hard-encrypted-userpw.pdf (RC4, user password "test")', () => {
  it('opens with "test" and has text on its 4 pages; a wrong password is refused', async () => {
    const { document } = await ingestFile(corpusFile, { password: 'test' });
    expect(document.pageCount).toBe(4);
    expect(document.pages.filter((page) => page.hasTextLayer).length).toBeGreaterThan(0);
    expect(document.text.replace(/\s+/g, ' ')).toMatch(/[A-Za-z]{4,}/);
    expect((await failure(ingestFile(corpusFile, { password: 'Test' }))).code).toBe(ErrorCode.PDF_PASSWORD_WRONG);
  });
});
