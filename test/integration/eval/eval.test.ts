import { describe, expect, it } from 'vitest';
import { plantedReport } from '../../fixtures/plantedFindings';
import { runEval } from '../../eval/run';
import { BARE_TITLE_MODES, FAITHFUL_MODES, loadCorpusTruth, skippedFindings } from '../../eval/truthResponder';
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
    // The completeness check on the same run (part of the gate above): scored on every report, never a wrong total.
    // Every analysed report (the encrypted one fails without its password, as it should) gets its completeness score.
    expect(corpus.filter((r) => r.status === 'done' && r.completeness === null).map((r) => r.name)).toEqual([]);
    expect(corpus.filter((r) => r.status === 'done').length).toBeGreaterThan(truths.length - 2);
    expect(corpus.filter((r) => r.completeness?.totals === 'wrong').map((r) => r.name)).toEqual([]);
    // Every real PDF through the whole simulated pipeline: minutes on a busy 2-core machine.
  }, 900_000);
});

// The same gate with a weaker model that answers every finding with its bare title (no ID, severity or quote): every
// finding found once with the ID, number and severity its document prints, on its detailed section's page. Only the
// reports with findings (the others hold nothing a reply shape could change, and the faithful run above gates them).
describeNeeding([CORPUS], 'corpus eval gate (a model that answers with bare titles)', () => {
  it('finds every truth finding once with its printed ID and severity and its detail page; the completeness check stays clean', async () => {
    const reports = loadCorpusTruth().filter((d) => d.findings.length > 0).map((d) => d.name);
    const { rows, gate } = await runEval({ sim: true, corpus: true, only: reports, modes: BARE_TITLE_MODES });
    const corpus = rows.filter((r) => r.corpus);
    expect(corpus.map((r) => r.name).sort()).toEqual([...reports].sort());
    expect(gate).toEqual([]);
    expect(corpus.reduce((a, r) => a + r.withPrintedId, 0)).toBe(corpus.reduce((a, r) => a + r.idScored, 0));
    expect(corpus.reduce((a, r) => a + r.severityAsPrinted, 0)).toBe(corpus.reduce((a, r) => a + r.truth, 0));
  }, 900_000);
});

// With a model that skips about 15% of the findings: every finding the run misses is named by the completeness check
// (its listed entry or its ID, with the page), and no total is read wrong. Only the reports the mode leaves findings
// out of: the others (and the negative controls) have nothing to miss, their totals are gated on the faithful run
// above, and leaving them out keeps this second run short.
describeNeeding([CORPUS], 'corpus completeness gate (a model that skips findings)', () => {
  it('names every missed finding with its page; no stated total read wrong', async () => {
    const reports = loadCorpusTruth().filter((d) => skippedFindings(d).length > 0).map((d) => d.name);
    expect(reports.length).toBeGreaterThanOrEqual(3);
    const { rows, gate } = await runEval({ sim: true, corpus: true, generated: false, only: reports, modes: [...FAITHFUL_MODES, 'skips-findings'] });
    expect(rows.map((r) => r.name).sort()).toEqual([...reports].sort());
    const missed = rows.reduce((a, r) => a + r.completeness!.missed, 0);
    // The mode really leaves findings out (about 15% of them), so the gate has something to check.
    expect(missed).toBeGreaterThan(0.08 * rows.reduce((a, r) => a + r.truth, 0));
    expect(gate).toEqual([]);
    expect(rows.reduce((a, r) => a + r.completeness!.missedNamed, 0)).toBe(missed);
  }, 900_000);
});
