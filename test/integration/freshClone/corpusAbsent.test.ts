/**
 * A fresh clone has no ../shared beside it, and a corpus being filled holds PDFs whose truth is not written yet: in
 * both cases every test that reads the corpus is skipped with a reason that names what is missing, and none fails.
 * This runs those test files in a child vitest with AUDIT_CORPUS_DIR pointing at (a) nothing and (b) half a corpus,
 * and reads the skip summary they end with (test/helpers/skipSummary.ts).
 *
 * The files are found by what they import, so a new corpus test is covered without editing this one.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTextPdf, sampleReportSpec, writeFixture } from '../../fixtures/pdfFactory';
import { useTempDir } from '../../helpers/tempDir';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-corpus-absent-');

/** Test files that read the corpus: they import the corpus helpers or a corpus requirement. */
function corpusTestFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (
        entry.name.endsWith('.test.ts') &&
        path !== import.meta.filename &&
        /helpers\/corpus'|corpusDocuments|\bCORPUS\b|loadCorpusTruth|corpusQuestions/.test(readFileSync(path, 'utf8'))
      )
        files.push(relative(root, path));
    }
  };
  walk(join(root, 'test/integration'));
  return files.sort();
}

interface ChildRun {
  code: number | null;
  failed: number;
  passed: number;
  /** Skip reason -> "file > test" lines, from the skip summary. */
  skips: Map<string, string[]>;
  output: string;
}

function runWithCorpus(corpusDir: string, files: readonly string[]): ChildRun {
  const report = join(tempDir(), 'report.json');
  const child = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...files, '--reporter=./test/helpers/skipSummary.ts', '--reporter=json', `--outputFile=${report}`],
    {
      cwd: root,
      // TESTS_REQUIRE cleared: as on a newcomer's machine, a missing requirement is a skip, not a failure. The parent
      // vitest's own variables are left out, so the child starts as `npm test` would.
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'))),
        AUDIT_CORPUS_DIR: corpusDir,
        TESTS_REQUIRE: '',
      },
      encoding: 'utf8',
      timeout: 600_000,
    },
  );
  const output = `${child.stdout}${child.stderr}`;
  const json = JSON.parse(readFileSync(report, 'utf8')) as { numFailedTests: number; numPassedTests: number };
  const skips = new Map<string, string[]>();
  let reason: string | null = null;
  for (const line of child.stdout.slice(child.stdout.indexOf('\nSkipped:')).split('\n')) {
    if (line.startsWith('  - ')) skips.set((reason = line.slice(4)), []);
    else if (line.startsWith('      ') && reason !== null) skips.get(reason)!.push(line.trim());
  }
  return { code: child.status, failed: json.numFailedTests, passed: json.numPassedTests, skips, output };
}

const skippedFiles = (run: ChildRun) => new Set([...run.skips.values()].flat().map((line) => line.split(' > ')[0]));

describe('npm test on a machine without the corpus, or with part of it', () => {
  const files = corpusTestFiles();

  it('finds the corpus tests', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'test/integration/completeness/corpus.test.ts',
        'test/integration/retrieval/corpus.test.ts',
        'test/integration/eval/eval.test.ts',
      ]),
    );
  });

  it('no corpus: every corpus test file is skipped with the reason, none fails', { timeout: 600_000 }, () => {
    const absent = join(tempDir(), 'no-such-corpus');
    const run = runWithCorpus(absent, files);
    expect(run.failed, run.output).toBe(0);
    expect(run.code, run.output).toBe(0);
    expect(
      [...run.skips.keys()].some((reason) => reason.includes(`not at ${absent}`)),
      [...run.skips.keys()].join('\n'),
    ).toBe(true);
    expect([...skippedFiles(run)].sort()).toEqual(files);
  });

  it(
    'half a corpus (a PDF without its truth file, a truth file without its PDF): those two are named, the rest skips, none fails',
    { timeout: 600_000 },
    async () => {
      const corpus = join(tempDir(), 'partial-corpus');
      mkdirSync(join(corpus, 'pdfs'), { recursive: true });
      mkdirSync(join(corpus, 'truth'), { recursive: true });
      writeFixture(join(corpus, 'pdfs', 'only-pdf.pdf'), await makeTextPdf(sampleReportSpec()));
      writeFileSync(
        join(corpus, 'truth', 'only-truth.json'),
        JSON.stringify({ pages: 1, has_text_layer: true, outline: [], findings: [], stated_counts: null }),
      );
      const run = runWithCorpus(corpus, files);
      expect(run.failed, run.output).toBe(0);
      expect(run.code, run.output).toBe(0);
      const reasons = [...run.skips.keys()];
      expect(
        reasons.some((r) => r.includes('only-pdf (no truth file)')),
        reasons.join('\n'),
      ).toBe(true);
      expect(
        reasons.some((r) => r.includes('only-truth (no PDF)')),
        reasons.join('\n'),
      ).toBe(true);
      expect([...skippedFiles(run)].sort()).toEqual(files);
    },
  );
});
