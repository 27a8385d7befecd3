/**
 * Dense documents whose findings differ by a phrase (test/fixtures/siblingRows.ts): a tracker's issue export with
 * wrapped summary cells, and a report with a 48-row summary table and wrapped detailed headings. A title that opens
 * a sibling's ("X" and "X in batch mode") is told apart only by the ID its row or heading prints. Through the whole
 * pipeline against the simulator answering from the truth, with a model that reports every sighting and reformats
 * IDs, and with one that reports each finding once per call, off-scale severities and lists ended after 10: every
 * finding found once, none merged into a sibling, nothing extra.
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
import { truthResponder, type ModelMode } from '../../eval/truthResponder';
import { issueExport, longSummaryReport, type GeneratedDocument } from '../../fixtures/siblingRows';
import { startOllamaSim } from '../../ollama-sim/index';

const documents = [issueExport(), longSummaryReport()];
const dir = mkdtempSync(join(tmpdir(), 'sibling-rows-'));
const fileOf = (d: GeneratedDocument) => join(dir, `${d.name}.pdf`);
beforeAll(async () => {
  for (const d of documents) writeFileSync(fileOf(d), await d.pdf());
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function analyse(document: GeneratedDocument, modes: ModelMode[], stopAfter?: number) {
  const sim = await startOllamaSim({ timeScale: 0, responder: truthResponder([document.truth], { modes, ...(stopAfter ? { stopAfter } : {}) }) });
  const db = openDatabase(join(dir, `${document.name}-${modes.join('+')}.sqlite`));
  try {
    const outcome = await createEngine({ db, appVersion: 'test' }).analyze([fileOf(document)], {
      llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: sim.url, cache: false },
    });
    const merged = listMergedFindings(db, outcome.run.id, outcome.inputs[0]!.documentId!);
    return { status: outcome.inputs[0]!.status, score: scoreStrict(document.truth.findings, merged), merged };
  } finally {
    db.close();
    await sim.close();
  }
}

describe('dense documents whose findings differ by a phrase', () => {
  it('are generated with titles that open a sibling\u2019s, on rows and headings that print their own IDs', () => {
    for (const d of documents) {
      const titles = d.truth.findings.map((f) => f.title);
      expect(new Set(titles).size).toBe(titles.length);
      expect(titles.some((t) => titles.some((u) => u !== t && u.startsWith(`${t} `)))).toBe(true);
    }
  });

  for (const [label, modes, stopAfter] of [
    ['a model that reports every sighting and reformats IDs', ['every-occurrence', 'reformatted-ids', 'verbose-replies'], undefined],
    [
      'a model that reports once per call, off the severity scale, ending its lists after 10',
      ['once-per-unit-first-occurrence', 'off-scale-severity', 'stops-after-n'],
      10,
    ],
  ] as const) {
    it(`${label}: every finding found once, none merged into its sibling`, async () => {
      for (const d of documents) {
        const { status, score, merged } = await analyse(d, [...modes], stopAfter);
        expect(status).toBe('done');
        expect({ document: d.name, ...score, problems: score.problems.slice(0, 5) }).toMatchObject({
          document: d.name,
          found: d.truth.findings.length,
          duplicates: 0,
          wrongMerges: 0,
          extra: 0,
          detailPages: d.truth.findings.length,
        });
        // Each sibling keeps its own printed ID.
        const keyed = new Map(merged.filter((m) => m.findingKey).map((m) => [m.findingKey!, m.title]));
        for (const t of d.truth.findings) expect(keyed.get(t.id!), t.id!).toBe(t.title);
      }
    }, 120_000);
  }
});
