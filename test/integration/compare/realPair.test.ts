/**
 * The real audit / fix-review pair: Trail of Bits' Beanstalk security review and its fix review, compared with
 * --rules-only (no model), held against the truth of both (docs/corpus-proposals/ for the earlier one until it
 * is in the corpus; the corpus's fix-review truth gives each finding's stated status). Skipped with its reason
 * when the earlier PDF is not next to this checkout.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { BEANSTALK_PAIR, describeNeeding } from '../../helpers/requirements';
import { useSims } from '../../helpers/sim';
import { useTempDir } from '../../helpers/tempDir';
import { FAITHFUL_MODES, loadCorpusTruth, truthResponder, type TruthDocument } from '../../eval/truthResponder';

const root = resolve(import.meta.dirname, '../../..');
const corpus = join(root, '../shared/corpus');
const tempDir = useTempDir('audit-compare-real-');
const startSim = useSims();

interface Truth {
  findings: { id: string; title: string; detail_title?: string; severity: string; page: number; type?: string; status?: string }[];
}

function earlierTruth(): Truth {
  const inCorpus = join(corpus, 'truth/tob-beanstalk-securityreview-2022.json');
  return JSON.parse(readFileSync(existsSync(inCorpus) ? inCorpus : join(root, 'docs/corpus-proposals/tob-beanstalk-securityreview-2022.json'), 'utf8')) as Truth;
}

interface Result {
  pairs: { earlier: { id: string; page: number } | null; later: { id: string; page: number } | null; label: string; stated_status: { text: string; page: number } | null }[];
  summary: { resolved: number; stillOpen: number; noLongerPresent: number; new: number };
}

function runCompare(args: string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const files = [join(corpus, 'pdfs/tob-beanstalk-securityreview-2022.pdf'), join(corpus, 'pdfs/tob-beanstalk-fixreview-2022.pdf')];
    const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'electron/cli/compare.ts'), ...files, ...args], { cwd, env: { ...process.env, CI: 'true' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stderr }));
  });
}

/** Every earlier finding paired with the later finding of its ID, the fix review's status for each, nothing paired wrongly. */
function expectTruth(c: Result): void {
  const earlier = earlierTruth().findings;
  const later = (JSON.parse(readFileSync(join(corpus, 'truth/tob-beanstalk-fixreview-2022.json'), 'utf8')) as Truth).findings;
  expect(c.pairs.filter((p) => p.earlier && p.later && p.earlier.id !== p.later.id)).toEqual([]);
  for (const t of earlier) {
    const pair = c.pairs.find((p) => p.earlier?.id === t.id);
    const counterpart = later.find((l) => l.id === t.id)!;
    expect(pair, t.id).toMatchObject({ later: { id: t.id }, label: 'still_present' });
    expect(pair!.stated_status, t.id).toMatchObject({ text: counterpart.status, page: counterpart.page });
  }
  expect(c.pairs).toHaveLength(earlier.length);
  const resolved = later.filter((l) => l.status === 'Resolved').length;
  expect(c.summary).toMatchObject({ resolved, stillOpen: earlier.length - resolved, noLongerPresent: 0, new: 0 });
}

describeNeeding([BEANSTALK_PAIR], 'the real Beanstalk review and its fix review', () => {
  it('--rules-only pairs every finding with its counterpart, reads every stated status, and pairs nothing wrongly', async () => {
    const dir = tempDir();
    const out = join(dir, 'c.json');
    const run = await runCompare(['--rules-only', '--json', out, '--db', join(dir, 's.sqlite')], dir);
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.code).toBe(0);
    const c = JSON.parse(readFileSync(out, 'utf8')) as Result;
    expectTruth(c);
    // Without a model the earlier side is where its "Finding ID:" field stands: the detailed section's page.
    for (const t of earlierTruth().findings) expect(c.pairs.find((p) => p.earlier?.id === t.id)!.earlier!.page, t.id).toBe(t.page);
  });

  it('with a model (the simulator answering faithfully from both truths over HTTP) gives the same pairs and statuses', async () => {
    const dir = tempDir();
    const truths: TruthDocument[] = [
      ...loadCorpusTruth().filter((d) => d.name === 'tob-beanstalk-fixreview-2022'),
      {
        name: 'tob-beanstalk-securityreview-2022',
        findings: earlierTruth().findings.map((t) => ({ id: t.id, title: t.title, ...(t.detail_title ? { detailTitle: t.detail_title } : {}), severity: t.severity, page: t.page, ...(t.type ? { type: t.type } : {}) })),
      },
    ];
    const { sim } = await startSim({ responder: truthResponder(truths, { modes: FAITHFUL_MODES }) });
    const out = join(dir, 'c.json');
    const run = await runCompare(['--json', out, '--db', join(dir, 's.sqlite'), '--host', sim.url, '--model', 'qwen3:8b', '--no-judge'], dir);
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.code).toBe(0);
    expectTruth(JSON.parse(readFileSync(out, 'utf8')) as Result);
  });
}, { timeout: 180_000 });
