/**
 * The real audit / fix-review pair: Trail of Bits' Beanstalk security review and its fix review, compared with
 * --rules-only (no model) and with a model (the simulator answering from both truths), held against the truth
 * of both (the fix review's truth gives each finding's stated status). Each file is the shared corpus's copy,
 * else the repository's (test/fixtures/real/, README there); skipped with its reason when neither has it.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { BEANSTALK_FIX_REVIEW, BEANSTALK_PAIR, BEANSTALK_REVIEW, describeNeeding, realDocument } from '../../helpers/requirements';
import { useSims } from '../../helpers/sim';
import { useTempDir } from '../../helpers/tempDir';
import { FAITHFUL_MODES, truthResponder, type TruthDocument } from '../../eval/truthResponder';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-compare-real-');
const startSim = useSims();

interface Truth {
  findings: { id: string; title: string; detail_title?: string; severity: string; page: number; type?: string; status?: string }[];
}

function truthOf(name: string): Truth {
  return JSON.parse(readFileSync(realDocument(name, 'truth')!, 'utf8')) as Truth;
}
const earlierTruth = () => truthOf(BEANSTALK_REVIEW);

interface Result {
  pairs: {
    earlier: { id: string; page: number } | null;
    later: { id: string; page: number } | null;
    label: string;
    stated_status: { text: string; page: number } | null;
  }[];
  summary: { resolved: number; stillOpen: number; noLongerPresent: number; new: number };
}

function runCompare(args: string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const files = [realDocument(BEANSTALK_REVIEW, 'pdf')!, realDocument(BEANSTALK_FIX_REVIEW, 'pdf')!];
    const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'electron/cli/compare.ts'), ...files, ...args], {
      cwd,
      env: { ...process.env, CI: 'true' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stderr }));
  });
}

/** Every earlier finding paired with the later finding of its ID, the fix review's status for each, nothing paired wrongly. */
function expectTruth(c: Result): void {
  const earlier = earlierTruth().findings;
  const later = truthOf(BEANSTALK_FIX_REVIEW).findings;
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

describeNeeding(
  [BEANSTALK_PAIR],
  'the real Beanstalk review and its fix review',
  () => {
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
      const truths: TruthDocument[] = [BEANSTALK_REVIEW, BEANSTALK_FIX_REVIEW].map((name) => ({
        name,
        findings: truthOf(name).findings.map((t) => ({
          id: t.id,
          title: t.title,
          ...(t.detail_title ? { detailTitle: t.detail_title } : {}),
          severity: t.severity,
          page: t.page,
          ...(t.type ? { type: t.type } : {}),
        })),
      }));
      const { sim } = await startSim({ responder: truthResponder(truths, { modes: FAITHFUL_MODES }) });
      const out = join(dir, 'c.json');
      const run = await runCompare(['--json', out, '--db', join(dir, 's.sqlite'), '--host', sim.url, '--model', 'qwen3:8b', '--no-judge'], dir);
      expect(run.stderr).not.toMatch(/Error/);
      expect(run.code).toBe(0);
      expectTruth(JSON.parse(readFileSync(out, 'utf8')) as Result);
    });
  },
  { timeout: 180_000 },
);
