/**
 * `npm run eval` on the generated documents (no corpus needed): what the scripted model did is measured, not assumed.
 * The corpus gates are in eval.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { plantedReport } from '../../fixtures/plantedFindings';
import { runEval } from '../../eval/run';

describe('npm run eval against the simulator', () => {
  it('measures what the scripted model did: misses and unverifiable paraphrases are not found, invented findings never count', async () => {
    const truth = plantedReport().truth;
    const { rows, totals } = await runEval({ sim: true });
    const planted = rows.find((r) => r.name === 'planted-report')!;
    const clean = rows.find((r) => r.name.startsWith('clean-report'))!;
    // The scripted model misses one finding and paraphrases one beyond recognition: neither can count as found.
    const findable = truth.filter((t) => t.behaviour !== 'miss' && t.behaviour !== 'paraphrase-heavy').length;
    expect(planted).toMatchObject({
      status: 'done',
      pages: 6,
      truth: truth.length,
      found: findable,
      detailPages: findable,
      extra: 0,
      duplicates: 0,
      wrongMerges: 0,
    });
    // The invented finding and the heavy paraphrase are listed, apart, as ungrounded.
    expect(planted.ungrounded).toBe(2);
    expect(clean).toMatchObject({ status: 'done', truth: 0, found: 0, grounded: 0 });
    // The generated set also holds documents answered from their truth and gated like the corpus: the sibling report
    // (near-identical titles, no IDs), the reports that rate findings only in group headings, the one of long titles one
    // word apart. Every one of their findings found once, with the severity its document prints.
    const gated = rows.filter((r) => r.gated);
    expect(gated.map((r) => r.name)).toEqual(['sibling-report', 'group-severity-report', 'group-severity-report-detailed-results', 'one-word-siblings-report']);
    for (const r of gated) {
      expect(r, r.name).toMatchObject({ status: 'done', found: r.truth, duplicates: 0, wrongMerges: 0, extra: 0, severityAsPrinted: r.severityScored });
      expect(r.severityScored, r.name).toBe(r.truth);
    }
    const gatedTruth = gated.reduce((n, r) => n + r.truth, 0);
    expect(totals.recall).toBeCloseTo((findable + gatedTruth) / (truth.length + gatedTruth), 5);
    expect(totals.secondsPerPage).toBeGreaterThan(0);
  });
});
