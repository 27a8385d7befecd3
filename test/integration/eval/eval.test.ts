import { expect, it } from 'vitest';
import { runEval } from '../../eval/run';
import { BARE_TITLE_MODES, FAITHFUL_MODES, loadCorpusTruth, skippedFindings } from '../../eval/truthResponder';
import { wholeCorpusDocuments } from '../../helpers/corpus';
import { CORPUS, corpusDocuments, describeNeeding } from '../../helpers/requirements';

// The CI gate of `npm run eval -- --sim --corpus`: every real PDF of the corpus, a model that numbers ID-less findings
// itself or leaves them null, and reports every sighting (summary table, contents, detailed section, references).
// Counts come from the truth files, so a document added to the corpus is gated without editing this test.
/** Documents the gate names below: the reports every model mode must pass, and the negative control. */
const NAMED = ['oak-cosmwasm-2023', 'tob-etcd-2020', 'tob-mosquitto-2023', 'tob-zcash-2019'];

describeNeeding([CORPUS, corpusDocuments(NAMED)], 'corpus eval gate (faithful model modes)', () => {
  it('finds every truth finding once, with its detail page; no duplicate, no wrong merge, nothing on the negative control', async () => {
    const truths = loadCorpusTruth();
    const { rows, gate } = await runEval({ sim: true, corpus: true });
    const corpus = rows.filter((r) => r.corpus);
    expect(corpus.map((r) => r.name).sort()).toEqual(truths.map((t) => t.name).sort());
    expect(corpus.map((r) => r.name)).toEqual(expect.arrayContaining(NAMED));
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
    // A half document (its PDF or its truth file missing) is left out, as the faithful gate leaves it out.
    const whole = wholeCorpusDocuments();
    const reports = loadCorpusTruth()
      .filter((d) => d.findings.length > 0 && whole.includes(d.name))
      .map((d) => d.name);
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
describeNeeding([CORPUS, corpusDocuments(NAMED)], 'corpus completeness gate (a model that skips findings)', () => {
  it('names every missed finding with its page; no stated total read wrong', async () => {
    const reports = loadCorpusTruth()
      .filter((d) => skippedFindings(d).length > 0)
      .map((d) => d.name);
    expect(reports.length).toBeGreaterThanOrEqual(3);
    const { rows, gate } = await runEval({ sim: true, corpus: true, generated: false, only: reports, modes: [...FAITHFUL_MODES, 'skips-findings'] });
    expect(rows.map((r) => r.name).sort()).toEqual([...reports].sort());
    const missed = rows.reduce((a, r) => a + r.completeness!.missed, 0);
    // The mode really leaves findings out (about 15% of them), so the gate has something to check.
    expect(missed).toBeGreaterThan(0.08 * rows.reduce((a, r) => a + r.truth, 0));
    expect(gate).toEqual([]);
    expect(rows.reduce((a, r) => a + r.completeness!.missedNamed, 0)).toBe(missed);
    // A finding the model skipped, known from its contents line and summary row, still opens on its detailed section:
    // the rules read the section's heading (pipeline/documentPipeline.ts recordUnnamedSections), and it stays named above.
    expect(rows.reduce((a, r) => a + r.detailPages, 0)).toBe(rows.reduce((a, r) => a + r.found, 0));
  }, 900_000);
});
