/**
 * The real audit / fix-review pair: Trail of Bits' Beanstalk security review and its fix review, compared with
 * --rules-only (no model), held against the truth of both (docs/corpus-proposals/ for the earlier one until it
 * is in the corpus; the corpus's fix-review truth gives each finding's stated status). Skipped with its reason
 * when the earlier PDF is not next to this checkout.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { BEANSTALK_PAIR, describeNeeding } from '../../helpers/requirements';
import { useTempDir } from '../../helpers/tempDir';

const root = resolve(import.meta.dirname, '../../..');
const corpus = join(root, '../shared/corpus');
const tempDir = useTempDir('audit-compare-real-');

interface Truth {
  findings: { id: string; title: string; severity: string; page: number; status?: string }[];
}

function earlierTruth(): Truth {
  const inCorpus = join(corpus, 'truth/tob-beanstalk-securityreview-2022.json');
  return JSON.parse(readFileSync(existsSync(inCorpus) ? inCorpus : join(root, 'docs/corpus-proposals/tob-beanstalk-securityreview-2022.json'), 'utf8')) as Truth;
}

describeNeeding([BEANSTALK_PAIR], 'the real Beanstalk review and its fix review', () => {
  it('--rules-only pairs every finding with its counterpart, reads every stated status, and pairs nothing wrongly', () => {
    const dir = tempDir();
    const out = join(dir, 'c.json');
    const run = spawnSync(
      join(root, 'node_modules/.bin/tsx'),
      [join(root, 'electron/cli/compare.ts'), join(corpus, 'pdfs/tob-beanstalk-securityreview-2022.pdf'), join(corpus, 'pdfs/tob-beanstalk-fixreview-2022.pdf'), '--rules-only', '--json', out, '--db', join(dir, 's.sqlite')],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: 'true' } },
    );
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    const c = JSON.parse(readFileSync(out, 'utf8')) as {
      pairs: { earlier: { id: string; page: number } | null; later: { id: string; page: number } | null; label: string; stated_status: { text: string; page: number } | null }[];
      summary: { resolved: number; stillOpen: number; noLongerPresent: number; new: number };
    };
    const earlier = earlierTruth().findings;
    const later = (JSON.parse(readFileSync(join(corpus, 'truth/tob-beanstalk-fixreview-2022.json'), 'utf8')) as Truth).findings;
    const wrong = c.pairs.filter((p) => p.earlier && p.later && p.earlier.id !== p.later.id);
    expect(wrong).toEqual([]);
    for (const t of earlier) {
      const pair = c.pairs.find((p) => p.earlier?.id === t.id);
      const counterpart = later.find((l) => l.id === t.id)!;
      expect(pair, t.id).toMatchObject({ earlier: { page: t.page }, later: { id: t.id, page: counterpart.page }, label: 'still_present' });
      expect(pair!.stated_status, t.id).toMatchObject({ text: counterpart.status, page: counterpart.page });
    }
    expect(c.pairs).toHaveLength(earlier.length);
    const resolved = later.filter((l) => l.status === 'Resolved').length;
    expect(c.summary).toMatchObject({ resolved, stillOpen: earlier.length - resolved, noLongerPresent: 0, new: 0 });
  });
}, { timeout: 180_000 });
