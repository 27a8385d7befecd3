import { describe, expect, it } from 'vitest';
import { plantedReport } from '../../fixtures/plantedFindings';
import { runEval } from '../../eval/run';
import { loadCorpusTruth } from '../../eval/truthResponder';
import { CORPUS, describeNeeding } from '../../helpers/requirements';

describe('npm run eval against the simulator', () => {
  it('measures what the scripted model did: misses and unverifiable paraphrases are not found, invented findings never count', async () => {
    const truth = plantedReport().truth;
    const { rows, totals } = await runEval({ sim: true });
    const planted = rows.find((r) => r.name === 'planted-report')!;
    const clean = rows.find((r) => r.name.startsWith('clean-report'))!;
    // The scripted model misses one finding and paraphrases one beyond recognition: neither can count as found.
    const findable = truth.filter((t) => t.behaviour !== 'miss' && t.behaviour !== 'paraphrase-heavy').length;
    expect(planted).toMatchObject({ status: 'done', pages: 6, truth: truth.length, found: findable, detailPages: findable, extra: 0, duplicates: 0, wrongMerges: 0 });
    // The invented finding and the heavy paraphrase are listed, apart, as ungrounded.
    expect(planted.ungrounded).toBe(2);
    expect(clean).toMatchObject({ status: 'done', truth: 0, found: 0, grounded: 0 });
    expect(totals.recall).toBeCloseTo(findable / truth.length, 5);
    expect(totals.secondsPerPage).toBeGreaterThan(0);
  });
});

// The CI gate of `npm run eval -- --sim --corpus`: every real PDF of the corpus, a model that numbers ID-less findings
// itself or leaves them null, and reports every sighting (summary table, contents, detailed section, references).
// Counts come from the truth files, so a document added to the corpus is gated without editing this test.
describeNeeding([CORPUS], 'corpus eval gate (faithful model modes)', () => {
  it('finds every truth finding once, with its detail page; no duplicate, no wrong merge, nothing on the negative control', async () => {
    const truths = loadCorpusTruth();
    const { rows, gate } = await runEval({ sim: true, corpus: true });
    const corpus = rows.filter((r) => r.corpus);
    expect(corpus.map((r) => r.name).sort()).toEqual(truths.map((t) => t.name).sort());
    expect(corpus.map((r) => r.name)).toEqual(expect.arrayContaining(['oak-cosmwasm-2023', 'tob-etcd-2020', 'tob-mosquitto-2023', 'tob-zcash-2019']));
    expect(gate).toEqual([]);
    expect(corpus.reduce((a, r) => a + r.found, 0)).toBe(truths.reduce((a, t) => a + t.findings.length, 0));
    expect(rows.find((r) => r.name === 'tob-zcash-2019')).toMatchObject({ status: 'done', grounded: 0 });
    // Every real PDF through the whole simulated pipeline: minutes on a busy 2-core machine.
  }, 900_000);
});
