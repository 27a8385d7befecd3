/**
 * The CLI's memory stays bounded on PDFs built to exhaust it (security probe 2026-11-28, rows 26 and 28): pages
 * with nothing on them went to OCR and each kept ~22 MB of canvas memory (200 pages: 4 GB), and one 20000 x 20000
 * image was decoded whole (4.9 GB). Each run here is the built CLI in a child process, its peak resident set size
 * measured (test/helpers/peakMemory.ts), and it must end with a coded result under 1 GB.
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { expect, it } from 'vitest';
import { blankPagesPdf, hugeImagePdf, mixedBlankPagesPdf } from '../../fixtures/hostilePdfs';
import { writeFixture } from '../../fixtures/pdfFactory';
import { analyzeCliNodeArgs, runMeasured } from '../../helpers/peakMemory';
import { BUILD, describeNeeding } from '../../helpers/requirements';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir('audit-cli-memory-');
const LIMIT_MB = 1024;
/** Well above the limit, so a failing run is recognised (and stopped) in seconds. */
const KILL_ABOVE_MB = 1300;

describeNeeding([BUILD], 'the CLI on PDFs built to exhaust memory', () => {
  it('reads 300 pages with nothing on them in bounded memory: 240 that paint nothing, 60 painted white', async () => {
    const dir = tempDir();
    // The white pages are rendered (something is painted) and found blank by their pixels; the empty ones are not rendered at all.
    const kinds = Array.from({ length: 300 }, (_, i) => (i % 5 === 4 ? ('white' as const) : ('empty' as const)));
    const file = writeFixture(join(dir, 'blank300.pdf'), mixedBlankPagesPdf(kinds));
    const db = join(dir, 'store.sqlite');
    const run = await runMeasured(analyzeCliNodeArgs([file, '--rules-only', '--db', db, '--out', join(dir, 'report.md')]), {
      cwd: dir,
      killAboveMb: KILL_ABOVE_MB,
    });

    expect(run.killedAtMb, `killed at ${run.killedAtMb} MB`).toBeNull();
    expect(run.peakMb).toBeLessThan(LIMIT_MB);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/blank300\.pdf: failed: PDF_NO_TEXT_LAYER: No page of this PDF has text/);
    const store = new BetterSqlite3(db, { readonly: true });
    expect(store.prepare('SELECT page_count AS pages FROM documents').get()).toEqual({ pages: 300 });
    store.close();
  });

  it('a PDF of 300 empty pages is the same coded result', async () => {
    const dir = tempDir();
    const file = writeFixture(join(dir, 'empty300.pdf'), blankPagesPdf(300));
    const run = await runMeasured(analyzeCliNodeArgs([file, '--rules-only', '--db', join(dir, 'store.sqlite'), '--out', join(dir, 'report.md')]), {
      cwd: dir,
      killAboveMb: KILL_ABOVE_MB,
    });
    expect(run.killedAtMb).toBeNull();
    expect(run.peakMb).toBeLessThan(LIMIT_MB);
    expect(run.stdout).toMatch(/empty300\.pdf: failed: PDF_NO_TEXT_LAYER/);
  });

  it('leaves a 20000 x 20000 image out of OCR with PDF_IMAGE_TOO_LARGE, in bounded memory', async () => {
    const dir = tempDir();
    const file = writeFixture(join(dir, 'bigimage.pdf'), hugeImagePdf(20_000, 20_000));
    const run = await runMeasured(analyzeCliNodeArgs([file, '--rules-only', '--db', join(dir, 'store.sqlite'), '--out', join(dir, 'report.md')]), {
      cwd: dir,
      killAboveMb: KILL_ABOVE_MB,
    });

    expect(run.killedAtMb, `killed at ${run.killedAtMb} MB`).toBeNull();
    expect(run.peakMb).toBeLessThan(LIMIT_MB);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /bigimage\.pdf: failed: PDF_IMAGE_TOO_LARGE: "bigimage\.pdf" holds an image too large to read \(20000 x 20000 pixels; .*page 1 reads as blank/,
    );
  });
});
