/**
 * A report that prints each finding's severity only in the group heading above it (Cyfrin-style: "5.2 High Risk",
 * "5.6 Gas Optimization"; test/fixtures/groupSeverityReport.ts), through the whole pipeline against the simulator
 * answering from the truth: with a model that follows the reply protocol (recorded numbers, objects) and with one that
 * answers every finding with its bare title. Every finding comes out with the severity word its group heading prints,
 * its printed number and its detailed section as main source (never a contents line, whose neighbours are other
 * findings); the executive summary's counts agree with what was found, so the completeness check finds nothing to say.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine';
import { getCompleteness } from '../../../electron/engine/completeness';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../../electron/engine/pipeline/settings';
import { listMergedFindings } from '../../../electron/engine/merge';
import { openDatabase } from '../../../electron/engine/store';
import { carriersOf, scoreStrict } from '../../eval/strictScore';
import { BARE_TITLE_MODES, FAITHFUL_MODES, truthResponder, type ModelMode } from '../../eval/truthResponder';
import { groupSeverityReport, type GroupSeverityReport } from '../../fixtures/groupSeverityReport';
import { startOllamaSim } from '../../ollama-sim/index';

const reports = [groupSeverityReport(), groupSeverityReport({ chapter: 'Detailed Results' })];
const dir = mkdtempSync(join(tmpdir(), 'group-severity-'));
const fileOf = (r: GroupSeverityReport) => join(dir, `${r.name}.pdf`);
beforeAll(async () => {
  for (const r of reports) writeFileSync(fileOf(r), await r.pdf());
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function analyse(report: GroupSeverityReport, modes: readonly ModelMode[]) {
  const sim = await startOllamaSim({ timeScale: 0, responder: truthResponder([report.truth], { modes }) });
  const db = openDatabase(join(dir, `${report.name}-${modes.join('+')}.sqlite`));
  try {
    const outcome = await createEngine({ db, appVersion: 'test' }).analyze([fileOf(report)], {
      llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: sim.url, cache: false },
    });
    const documentId = outcome.inputs[0]!.documentId!;
    const merged = listMergedFindings(db, outcome.run.id, documentId);
    return { status: outcome.inputs[0]!.status, merged, verdict: getCompleteness(db, outcome.run.id, documentId)! };
  } finally {
    db.close();
    await sim.close();
  }
}

describe('severities printed only in group headings', () => {
  it('the generated reports rate their findings in group headings only, and state their counts', () => {
    for (const r of reports) {
      expect(new Set(r.truth.findings.map((f) => f.severity))).toEqual(new Set(['Critical', 'High', 'Medium', 'Low', 'Informational', 'Gas']));
      expect(r.truth.statedCounts).toMatchObject({ High: 2, Gas: 2 });
    }
  });

  for (const [label, modes] of [
    ['a model that follows the reply protocol', FAITHFUL_MODES],
    ['a model that answers with bare titles', BARE_TITLE_MODES],
  ] as const) {
    it(`${label}: every finding with its group's severity word, its number and its detailed section; the stated counts agree`, async () => {
      for (const r of reports) {
        const { status, merged, verdict } = await analyse(r, modes);
        expect(status).toBe('done');
        const score = scoreStrict(r.truth.findings, merged);
        expect({ report: r.name, ...score, problems: score.problems.slice(0, 5) }).toMatchObject({
          report: r.name,
          found: r.truth.findings.length,
          duplicates: 0,
          wrongMerges: 0,
          extra: 0,
          problems: [],
        });
        for (const t of r.truth.findings) {
          const [f] = carriersOf(t, merged);
          // The printed word, "Gas" kept as such (ranked with the informational ones), never the model's or none.
          expect({ title: t.title, severity: f!.severity, number: f!.printedNumber, mainPage: f!.mainPage }).toEqual({
            title: t.title,
            severity: t.severity,
            number: t.id,
            mainPage: t.page,
          });
          // Its description is its own opening sentence, not a contents line and its neighbours.
          expect(f!.description, t.title).not.toMatch(/\. \. \./);
          expect(f!.description.length, t.title).toBeGreaterThan(40);
        }
        expect(verdict.places, r.name).toEqual([]);
        expect(verdict.status, r.name).toBe('complete');
        expect(
          verdict.tallies.find((t) => t.severity === 'Gas'),
          r.name,
        ).toMatchObject({ stated: 2, found: 2 });
      }
    }, 300_000);
  }
});
