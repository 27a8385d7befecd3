/**
 * `npm run compare` as a real child process over generated report pairs (pdf-lib), against the Ollama
 * simulator over real HTTP (a faithful model that reports every finding heading it is shown), and with
 * --rules-only (no model at all).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { makeTextPdf, writeFixture } from '../../fixtures/pdfFactory';
import {
  fixReviewPair,
  headingResponder,
  secondRoundPair,
  sentenceStatusPair,
  statusQuoteResponder,
  versionSpec,
  type ReportVersion,
} from '../../fixtures/reportPairs';
import { useSims } from '../../helpers/sim';
import { useTempDir } from '../../helpers/tempDir';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-compare-');
const startSim = useSims();

/** Asynchronous, so the simulator in this process keeps answering while the CLI runs. */
function runCompare(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'electron/cli/compare.ts'), ...args], { cwd, env: { ...process.env, CI: 'true' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

async function writePair(dir: string, pair: { earlier: ReportVersion; later: ReportVersion }): Promise<[string, string]> {
  return [
    writeFixture(join(dir, 'earlier.pdf'), await makeTextPdf(versionSpec(pair.earlier, 1))),
    writeFixture(join(dir, 'later.pdf'), await makeTextPdf(versionSpec(pair.later, 2))),
  ];
}

interface JsonSide {
  id: string | null;
  title: string;
  pages: number[];
  quote: string;
  page: number | null;
  severity: string | null;
}
interface JsonPair {
  earlier: JsonSide | null;
  later: JsonSide | null;
  label: string;
  rule: string | null;
  stated_status: { text: string; category: string; quote: string; page: number; source: string } | null;
}
interface JsonComparison {
  earlier: { file: string };
  later: { file: string };
  summary: { resolved: number; stillOpen: number; noLongerPresent: number; new: number; severityChanged: number; candidates: number };
  pairs: JsonPair[];
  candidates: { earlierPair: number; laterPair: number; reason: string }[];
}

const validate = new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(join(root, 'docs/compare.schema.json'), 'utf8')) as object);

/** The JSON the CLI wrote, checked against its documented schema. */
function readJson(file: string): JsonComparison {
  const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  expect(validate(value) ? [] : validate.errors).toEqual([]);
  return value as JsonComparison;
}
const pairOf = (c: JsonComparison, title: string) => c.pairs.find((p) => p.earlier?.title === title || (p.earlier === null && p.later?.title === title));

describe('npm run compare (CLI, real child process)', () => {
  it('a second-round report over the simulator: removed, renumbered, re-rated, retitled, sibling and new findings, statuses in three layouts', async () => {
    const dir = tempDir();
    const { sim } = await startSim({ responder: headingResponder });
    const [earlier, later] = await writePair(dir, secondRoundPair());
    const out = join(dir, 'comparison.json');
    const html = join(dir, 'comparison.html');
    const args = [
      earlier,
      later,
      '--json',
      out,
      '--out',
      html,
      '--db',
      join(dir, 's.sqlite'),
      '--host',
      sim.url,
      '--model',
      'qwen3:8b',
      '--strategy',
      'headings',
      '--no-judge',
    ];
    const run = await runCompare(args, dir);
    expect(run.stderr + run.stdout).not.toMatch(/Error/);
    expect(run.code).toBe(0);
    const c = readJson(out);
    expect(c.earlier.file).toBe('earlier.pdf');
    expect(c.later.file).toBe('later.pdf');

    // Paired by printed ID, with the later document's own status words and the line they stand on.
    expect(pairOf(c, 'Reentrancy in withdraw')).toMatchObject({
      label: 'still_present',
      rule: 'printed-id',
      later: { id: 'ACME-01' },
      stated_status: { text: 'Fixed', category: 'resolved', quote: 'Status: Fixed', page: 2 },
    });
    expect(pairOf(c, 'Missing rate limiting on login')).toMatchObject({
      label: 'still_present',
      later: { id: 'ACME-02' },
      stated_status: { text: 'Acknowledged', category: 'accepted' },
    });
    expect(pairOf(c, 'Missing rate limiting on password reset')).toMatchObject({
      later: { id: 'ACME-03' },
      stated_status: { text: 'Partially Resolved', category: 'partial' },
    });
    // ACME-04 was removed; its ID now names the old ACME-05, which is paired by its title and re-rated.
    expect(pairOf(c, 'Hard-coded admin key in deployment script')).toMatchObject({ label: 'no_longer_present', later: null, stated_status: null });
    expect(pairOf(c, 'Unchecked return value of token transfer')).toMatchObject({
      label: 'severity_changed',
      earlier: { id: 'ACME-05', severity: 'Medium' },
      later: { id: 'ACME-04', severity: 'High' },
      stated_status: { text: 'Unresolved' },
    });
    // Retitled and renumbered, no ID.
    expect(pairOf(c, 'Outdated compiler version')).toMatchObject({
      label: 'title_changed',
      rule: 'similarity',
      later: { id: null, title: 'Use of an outdated Solidity compiler version' },
      stated_status: { text: 'Risk accepted' },
    });
    // Siblings: the deposit finding is gone, the withdraw one is new; they are offered as a candidate, never paired.
    expect(pairOf(c, 'Missing input validation in deposit')).toMatchObject({ label: 'no_longer_present' });
    expect(pairOf(c, 'Missing input validation in withdraw')).toMatchObject({ label: 'new', earlier: null });
    expect(c.candidates).toEqual([
      expect.objectContaining({
        earlierPair: c.pairs.indexOf(pairOf(c, 'Missing input validation in deposit')!),
        laterPair: c.pairs.indexOf(pairOf(c, 'Missing input validation in withdraw')!),
      }),
    ]);
    expect(pairOf(c, 'Front-running of price updates')).toMatchObject({ label: 'new', later: { id: 'ACME-05' } });
    // Every side carries its quote and page.
    for (const p of c.pairs)
      for (const side of [p.earlier, p.later]) if (side) expect(side.quote.length > 0 && side.page !== null && side.pages.length > 0).toBe(true);

    // The summary is counted from the pairs.
    const counted = {
      resolved: c.pairs.filter((p) => p.earlier && p.later && p.stated_status?.category === 'resolved').length,
      stillOpen: c.pairs.filter((p) => p.earlier && p.later && p.stated_status?.category !== 'resolved').length,
      noLongerPresent: c.pairs.filter((p) => p.label === 'no_longer_present').length,
      new: c.pairs.filter((p) => p.label === 'new').length,
    };
    expect(c.summary).toMatchObject({ ...counted, severityChanged: 1, candidates: 1 });
    expect(counted).toEqual({ resolved: 1, stillOpen: 4, noLongerPresent: 2, new: 2 });

    // The HTML report escapes what comes from the documents and leads with the summary.
    const page = readFileSync(html, 'utf8');
    expect(page).toMatch(/<th>Resolved \(as the later document states\)<\/th><td>1<\/td>/);
    expect(page).toContain('“Partially Resolved”');

    // A second run reuses both stored analyses (no extraction call) and gives the same pairs.
    const extractionCalls = () => sim.requests.filter((r) => JSON.stringify(r.format ?? null).includes('"findings"')).length;
    const calls = extractionCalls();
    expect(calls).toBeGreaterThan(0);
    const again = await runCompare([...args.slice(0, 2), '--json', join(dir, 'again.json'), ...args.slice(6)], dir);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/earlier: reusing the stored analysis/);
    expect(extractionCalls()).toBe(calls);
    expect(readJson(join(dir, 'again.json')).pairs).toEqual(c.pairs);
  }, 120_000);

  it('--rules-only: an audit and its fix review paired by printed IDs, statuses read from the fix-review table, no model', async () => {
    const dir = tempDir();
    const [earlier, later] = await writePair(dir, fixReviewPair());
    const out = join(dir, 'c.json');
    const md = join(dir, 'c.md');
    const csv = join(dir, 'c.csv');
    // No --host: a model call would fail to connect; rules-only makes none.
    const run = await runCompare([earlier, later, '--rules-only', '--json', out, '--out', md, '--db', join(dir, 's.sqlite')], dir);
    expect(run.stderr).not.toMatch(/OLLAMA/);
    expect(run.code).toBe(0);
    const c = readJson(out);
    const byId = Object.fromEntries(c.pairs.map((p) => [p.earlier?.id ?? p.later?.id, p]));
    expect(Object.keys(byId).sort()).toEqual(['BEAM-1', 'BEAM-2', 'BEAM-3']);
    expect(byId['BEAM-1']).toMatchObject({ label: 'still_present', rule: 'printed-id', stated_status: { text: 'Resolved', category: 'resolved', page: 1 } });
    expect(byId['BEAM-1']!.stated_status!.quote).toMatch(/BEAM-1 +Oracle price can be stale +Resolved/);
    expect(byId['BEAM-2']).toMatchObject({ stated_status: { text: 'Unresolved', category: 'open' } });
    expect(byId['BEAM-3']).toMatchObject({ stated_status: { text: 'Partially Resolved', category: 'partial' } });
    expect(c.summary).toMatchObject({ resolved: 1, stillOpen: 2, new: 0, noLongerPresent: 0, severityChanged: 0 });
    expect(readFileSync(md, 'utf8')).toMatch(/\| Resolved \(as the later document states\) \| 1 \|/);

    // The later titles are the words printed beside the ID, without the table's status column.
    expect(byId['BEAM-1']!.later!.title).toBe('Oracle price can be stale');

    const asCsv = await runCompare([earlier, later, '--rules-only', '--out', csv, '--db', join(dir, 's.sqlite')], dir);
    expect(asCsv.code).toBe(0);
    const rows = readFileSync(csv, 'utf8').trim().split('\r\n');
    expect(rows[0]).toMatch(/^label,stated_status,status_category/);
    expect(rows).toHaveLength(4);
  }, 120_000);

  it('--rules-only never pairs by an ID that a renumbering gave to another finding', async () => {
    const dir = tempDir();
    const [earlier, later] = await writePair(dir, secondRoundPair());
    const out = join(dir, 'c.json');
    const run = await runCompare([earlier, later, '--rules-only', '--json', out, '--db', join(dir, 's.sqlite')], dir);
    expect(run.code).toBe(0);
    const c = readJson(out);
    const rows = c.pairs.map((p) => [p.earlier?.id ?? null, p.later?.id ?? null, p.label, p.stated_status?.text ?? null]);
    expect(rows).toEqual([
      ['ACME-01', 'ACME-01', 'still_present', 'Fixed'],
      ['ACME-02', 'ACME-02', 'still_present', 'Acknowledged'],
      ['ACME-03', 'ACME-03', 'still_present', 'Partially Resolved'],
      ['ACME-04', null, 'no_longer_present', null],
      // Re-rated Medium -> High: the printed IDs alone read each side's severity from its section too.
      ['ACME-05', 'ACME-04', 'severity_changed', 'Unresolved'],
      // New, and its section states no status: the one above it (ACME-04's) is never taken.
      [null, 'ACME-05', 'new', null],
    ]);
  }, 120_000);

  it('--rules-only on reports that print no finding IDs says that nothing could be paired and what to do', async () => {
    const dir = tempDir();
    const pair = secondRoundPair();
    const withoutIds = (v: ReportVersion): ReportVersion => ({ ...v, findings: v.findings.map((f) => ({ ...f, id: null })) });
    const [earlier, later] = await writePair(dir, { earlier: withoutIds(pair.earlier), later: withoutIds(pair.later) });
    const out = join(dir, 'c.json');
    const run = await runCompare([earlier, later, '--rules-only', '--json', out, '--db', join(dir, 's.sqlite')], dir);
    expect(run.code).toBe(0);
    expect(readJson(out).pairs).toEqual([]);
    expect(run.stderr).toContain('The earlier file earlier.pdf prints no finding ID where it announces a finding');
    expect(run.stderr).toContain('The later file later.pdf prints no finding ID where it announces a finding');
    expect(run.stderr).toContain('Run without --rules-only');
  }, 120_000);

  it("a status the rules cannot read is read by one model call whose quote must be in the finding's section; an invented quote is dropped", async () => {
    const dir = tempDir();
    const { sim } = await startSim({ responder: statusQuoteResponder });
    const [earlier, later] = await writePair(dir, sentenceStatusPair());
    const out = join(dir, 'c.json');
    const run = await runCompare(
      [earlier, later, '--json', out, '--db', join(dir, 's.sqlite'), '--host', sim.url, '--model', 'qwen3:8b', '--strategy', 'headings', '--no-judge'],
      dir,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      "1 status(es) the rules could not read were read by qwen3:8b, each quote found in its finding's section; 1 quote(s) not found in their finding's section and dropped.",
    );
    const c = readJson(out);
    expect(c.pairs.find((p) => p.earlier?.id === 'KITE-1')).toMatchObject({
      label: 'still_present',
      stated_status: {
        text: 'fixed',
        category: 'resolved',
        quote: 'After the review the developers fixed the issue in commit 4f2a.',
        page: 2,
        source: 'model',
      },
    });
    expect((c as unknown as { model_status: unknown }).model_status).toEqual({ model: 'qwen3:8b', read: 1, dropped: 1, problem: null });
    // The model said "Status: Resolved" for KITE-2; the document does not: nothing is shown.
    expect(c.pairs.find((p) => p.earlier?.id === 'KITE-2')).toMatchObject({ label: 'still_present', stated_status: null });
    expect(c.summary).toMatchObject({ resolved: 1, stillOpen: 1 });
  }, 120_000);

  it('usage errors exit 2 with what to do', async () => {
    const dir = tempDir();
    const one = await runCompare([join(dir, 'a.pdf')], dir);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/Give exactly two files, the earlier version first/);
    const missing = await runCompare([join(dir, 'a.pdf'), join(dir, 'b.pdf')], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/FILE_NOT_FOUND/);
  }, 60_000);
});
