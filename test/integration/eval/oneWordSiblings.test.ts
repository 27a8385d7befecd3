/**
 * An Oak-style report whose findings come in pairs of long titles one word apart ("... by spamming Deposit
 * transactions" / "... by spamming Grant transactions"; test/fixtures/oneWordSiblings.ts), the word printed where the
 * title wraps, through the whole pipeline against the simulator answering from its truth: with a model that follows
 * the reply protocol, one that answers with bare titles, the imperfect one (skips, paraphrases, drops IDs, slips on
 * recorded numbers, ends lists early) and one that reports every sighting and gives a sibling's rows its neighbour's
 * title. Each sibling stays a finding of its own, found once, never joined to the other by a number printed on the
 * neighbouring line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../../electron/engine/pipeline/settings';
import { listMergedFindings } from '../../../electron/engine/merge';
import { openDatabase } from '../../../electron/engine/store';
import { scoreStrict } from '../../eval/strictScore';
import { BARE_TITLE_MODES, FAITHFUL_MODES, IMPERFECT_MODES, skippedFindings, truthResponder, type ModelMode } from '../../eval/truthResponder';
import { oneWordSiblingsReport } from '../../fixtures/oneWordSiblings';
import { startOllamaSim } from '../../ollama-sim/index';

const report = oneWordSiblingsReport();
const dir = mkdtempSync(join(tmpdir(), 'one-word-siblings-'));
const file = join(dir, `${report.name}.pdf`);
beforeAll(async () => writeFileSync(file, await report.pdf()));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('siblings one word apart', () => {
  it('are generated as pairs of titles that differ in one word', () => {
    const titles = report.truth.findings.map((f) => f.title);
    expect(titles).toContain('Attackers can exhaust the validator queue and halt block production by spamming Deposit transactions');
    expect(titles).toContain('Attackers can exhaust the validator queue and halt block production by spamming Grant transactions');
  });

  for (const [label, modes] of [
    ['a model that follows the reply protocol', FAITHFUL_MODES],
    ['a model that answers with bare titles', BARE_TITLE_MODES],
    ['an imperfect model', IMPERFECT_MODES],
    [
      'a model that reports every sighting and gives a sibling\u2019s rows its neighbour\u2019s title',
      ['every-occurrence', 'siblings-same-title', 'reformatted-ids'],
    ],
  ] as const) {
    it(`${label}: each sibling found once, none joined to the other`, async () => {
      const sim = await startOllamaSim({ timeScale: 0, responder: truthResponder([report.truth], { modes: modes as readonly ModelMode[] }) });
      const db = openDatabase(join(dir, `${label.replace(/\W+/g, '-')}.sqlite`));
      try {
        const outcome = await createEngine({ db, appVersion: 'test' }).analyze([file], { llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: sim.url, cache: false } });
        expect(outcome.inputs[0]!.status).toBe('done');
        const score = scoreStrict(report.truth.findings, listMergedFindings(db, outcome.run.id, outcome.inputs[0]!.documentId!));
        // A finding the imperfect model skips is known from its summary-table row alone: found, without its detail page.
        const skipped = (modes as readonly ModelMode[]).includes('skips-findings') ? skippedFindings(report.truth).length : 0;
        expect({ ...score, problems: score.problems.filter((p) => !p.startsWith('no detail page')) }).toMatchObject({
          found: report.truth.findings.length,
          duplicates: 0,
          wrongMerges: 0,
          extra: 0,
          problems: [],
        });
        expect(score.detailPages).toBe(report.truth.findings.length - skipped);
      } finally {
        db.close();
        await sim.close();
      }
    }, 300_000);
  }
});
