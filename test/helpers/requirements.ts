/**
 * What some tests need beyond Node (a browser, a build, the shared corpus,
 * qpdf, an Electron binary) and the one rule for tests that need it: when it
 * is missing, the suite or test is replaced by ONE skipped test whose note
 * says what is missing and how to get it; the skip summary printed at the end
 * of `npm test` (skipSummary.ts) lists every such note. Nothing of the suite
 * runs, not even its hooks. When TESTS_REQUIRE names the requirement (.ci/run
 * sets it for everything CI installs), a missing requirement FAILS instead.
 *
 * Tests never call describe.skip / it.skipIf themselves (an architecture
 * test checks that): a skip without its reason would be silent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, it, type TestContext } from 'vitest';
import { chromiumPath } from './chromium';
import { CORPUS_DIR, corpusFile, corpusGap, corpusInventory, type CorpusFileKind } from './corpus';

const root = resolve(import.meta.dirname, '../..');

export interface Requirement {
  /** Short name, as TESTS_REQUIRE spells it. */
  name: string;
  /** null when available; otherwise what is missing and how to get it, in one line. */
  missing: () => string | null;
}

function requirement(name: string, check: () => string | null): Requirement {
  let cached: string | null | undefined;
  return { name, missing: () => (cached === undefined ? (cached = check()) : cached) };
}

export const CHROMIUM = requirement('chromium', () => {
  const found = chromiumPath();
  return 'missing' in found ? found.missing : null;
});

export const BUILD = requirement('build', () =>
  existsSync(join(root, 'out/main/host.js')) && existsSync(join(root, 'out/cli/analyze.mjs'))
    ? null
    : 'no build in out/ (main and CLI): run `npm run build` first',
);

const NO_CORPUS = `the real-PDF corpus (pdfs/ and truth/) is not at ${CORPUS_DIR}: put ../shared/corpus next to this checkout, or set AUDIT_CORPUS_DIR`;

export const CORPUS = requirement('corpus', () => (existsSync(join(CORPUS_DIR, 'pdfs')) && existsSync(join(CORPUS_DIR, 'truth')) ? null : NO_CORPUS));

/**
 * These documents of the corpus, each with its PDF and (unless `kinds` says otherwise) its truth file. A test that
 * reads named documents needs this rather than CORPUS alone: a corpus being filled may hold a PDF whose truth file is
 * not written yet.
 */
export function corpusDocuments(names: readonly string[], kinds: readonly CorpusFileKind[] = ['pdf', 'truth']): Requirement {
  return requirement('corpus', () => {
    const whole = CORPUS.missing();
    if (whole !== null) return whole;
    const absent = names.flatMap((name) =>
      kinds.filter((kind) => !existsSync(corpusFile(name, kind))).map((kind) => `${name} (${kind === 'pdf' ? 'PDF' : 'truth file'})`),
    );
    return absent.length === 0 ? null : `the corpus at ${CORPUS_DIR} lacks ${absent.join(', ')}`;
  });
}

/**
 * For a test that goes over every document of the corpus (wholeCorpusDocuments): one skipped test per document the
 * corpus holds only half of (a PDF without its truth file, or the reverse), saying which, so nothing is left out silently.
 */
export function corpusGapStandIns(title = 'corpus document'): void {
  for (const entry of corpusInventory()) {
    const gap = corpusGap(entry);
    if (gap !== null) standIn(`${title} ${entry.name}`, [requirement('corpus', () => `the corpus at ${CORPUS_DIR} holds only half of ${gap}: it is left out`)]);
  }
}

/**
 * A real document of the corpus, by name: the shared corpus's copy (../shared/corpus/pdfs/<name>.pdf and
 * truth/<name>.json) when it is next to this checkout, else the repository's copy in test/fixtures/real/
 * (<name>.pdf, <name>.json; its README says where each came from). Null when neither has it.
 */
export function realDocument(name: string, kind: 'pdf' | 'truth'): string | null {
  const inCorpus = corpusFile(name, kind);
  const inRepo = join(root, 'test/fixtures/real', `${name}.${kind === 'pdf' ? 'pdf' : 'json'}`);
  return existsSync(inCorpus) ? inCorpus : existsSync(inRepo) ? inRepo : null;
}

/** The real audit / fix-review pair: Trail of Bits' Beanstalk security review and its fix review (test/fixtures/real/README.md). */
export const BEANSTALK_REVIEW = 'tob-beanstalk-securityreview-2022';
export const BEANSTALK_FIX_REVIEW = 'tob-beanstalk-fixreview-2022';

export const BEANSTALK_PAIR = requirement('beanstalk-pair', () => {
  const absent = [BEANSTALK_REVIEW, BEANSTALK_FIX_REVIEW].flatMap((name) =>
    (['pdf', 'truth'] as const).filter((kind) => realDocument(name, kind) === null).map((kind) => `${name} (${kind})`),
  );
  return absent.length === 0
    ? null
    : `the real Beanstalk pair is incomplete, missing ${absent.join(', ')} in ../shared/corpus and in test/fixtures/real: test/fixtures/real/README.md says where each PDF comes from (trailofbits/publications, reviews/2022-07-beanstalk-*.pdf)`;
});

export const QPDF = requirement('qpdf', () => {
  try {
    execFileSync('qpdf', ['--version'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'qpdf is not installed (it writes the encrypted test PDFs): sudo apt-get install qpdf';
  }
});

/**
 * A user whose file permissions are enforced: the tests run as themselves when they are not root; as root (which
 * may write any file) they run the command as `nobody` through util-linux's setpriv.
 */
export const UNPRIVILEGED_USER = requirement('unprivileged-user', () => {
  if (process.getuid?.() !== 0) return null;
  try {
    execFileSync('setpriv', ['--version'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'running as root, and setpriv (util-linux) is not installed to run the command as an unprivileged user: sudo apt-get install util-linux, or run the tests as a normal user';
  }
});

/** The command and arguments that run `command args` as an unprivileged user (UNPRIVILEGED_USER must be met). */
export function asUnprivilegedUser(command: string, args: readonly string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, [...args]];
  return ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', command, ...args]];
}

/**
 * Electron's binary cannot be downloaded on every machine (air-gapped
 * workstations, CI): `require('electron')` returns the binary's path when it
 * is installed and throws "Electron failed to install correctly" when only
 * the npm package is there.
 */
export const ELECTRON = requirement('electron', () => {
  // Electron's own message says "delete node_modules/electron and try installing again": no help where the download
  // from GitHub is what fails, so the reason says that, and where these specs do run.
  const missing =
    "no Electron binary on this machine: Electron's installer downloads it from GitHub during `npm ci`, and that download did not happen here (air-gapped, or CI); " +
    'the engine, the CLI and the UI (in Chromium through the WebSocket bridge) are tested without it, and these specs run on a machine where `npm ci` installs Electron';
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? null : missing;
  } catch {
    return missing;
  }
});

/** Requirement names TESTS_REQUIRE demands (comma-separated), e.g. "chromium,build". */
export function demanded(env: NodeJS.ProcessEnv = process.env): Set<string> {
  return new Set(
    (env.TESTS_REQUIRE ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

/** The first missing requirement with its reason, or null when all are there. */
export function firstMissing(requirements: readonly Requirement[]): { requirement: Requirement; reason: string } | null {
  for (const requirement of requirements) {
    const reason = requirement.missing();
    if (reason !== null) return { requirement, reason };
  }
  return null;
}

/** The stand-in test for something that cannot run here: skipped with its reason, or failing when demanded. */
function standIn(title: string, requirements: readonly Requirement[]): boolean {
  const gap = firstMissing(requirements);
  if (!gap) return false;
  if (demanded().has(gap.requirement.name)) {
    it(title, () => {
      throw new Error(`${gap.reason} (TESTS_REQUIRE demands "${gap.requirement.name}")`);
    });
  } else {
    it(title, (context: TestContext) => context.skip(gap.reason));
  }
  return true;
}

/** describe(title, options, body) when every requirement is there; otherwise one skipped (or, when demanded, failing) test. */
export function describeNeeding(requirements: readonly Requirement[], title: string, body: () => void, options: { timeout?: number } = {}): void {
  if (firstMissing(requirements)) describe(title, () => void standIn(`needs ${[...new Set(requirements.map((r) => r.name))].join(', ')}`, requirements));
  else describe(title, options, body);
}

/** it(title, test) when every requirement is there; otherwise skipped (or, when demanded, failing) with the reason. */
export function itNeeding(requirements: readonly Requirement[], title: string, test: (context: TestContext) => unknown): void {
  if (!standIn(title, requirements)) it(title, test);
}
