import { describe, expect, it } from 'vitest';
import { plantedReport } from '../../fixtures/plantedFindings';
import { runEval } from '../../eval/run';

describe('npm run eval against the simulator', () => {
  it('measures what the scripted model did: misses and unverifiable paraphrases lower recall, invented findings never count', async () => {
    const truth = plantedReport().truth;
    const { rows, totals } = await runEval({ sim: true });
    const planted = rows.find((r) => r.name === 'planted-report')!;
    const clean = rows.find((r) => r.name.startsWith('clean-report'))!;
    // The scripted model misses one finding and paraphrases one beyond recognition: neither can count as found.
    const findable = truth.filter((t) => t.behaviour !== 'miss' && t.behaviour !== 'paraphrase-heavy').length;
    expect(planted).toMatchObject({ status: 'done', pages: 6, truth: truth.length, found: findable, extra: 0, duplicates: 0 });
    expect(clean).toMatchObject({ status: 'done', truth: 0, found: 0, grounded: 0 });
    expect(totals.recall).toBeCloseTo(findable / truth.length, 5);
    expect(totals.precision).toBe(1);
    expect(totals.groundedShare).toBeLessThan(1);
    expect(totals.secondsPerPage).toBeGreaterThan(0);
  });
});
