/**
 * Statuses stated inside the same report, in the layouts of several audit firms (fixtures/reportPairs.ts,
 * FIRM_STATUS_LAYOUTS): for each firm a generated audit and its later version (real PDFs), analysed through the
 * simulator over HTTP into a real SQLite store, then compared with the model's findings and by the rules alone.
 * Every stated status must be read by the rules, in the document's words, from its own finding's section and
 * page; a finding whose section states none gets none (never its neighbour's).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareDocuments } from '../../../electron/engine/compare';
import { createEngine, DEFAULT_RUN_LLM_SETTINGS } from '../../../electron/engine';
import { openDatabase } from '../../../electron/engine/store';
import { makeTextPdf, writeFixture } from '../../fixtures/pdfFactory';
import { FIRM_STATUS_LAYOUTS, firmStatusPair, headingResponder, versionSpec } from '../../fixtures/reportPairs';
import { useSims } from '../../helpers/sim';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir('audit-compare-firms-');
const startSim = useSims();

describe('statuses stated inside the same report, firm by firm', () => {
  it.each(Object.keys(FIRM_STATUS_LAYOUTS))(
    '%s layout: every stated status read by the rules, with its line and page',
    async (firm) => {
      const dir = tempDir();
      const { sim } = await startSim({ responder: headingResponder });
      const pair = firmStatusPair(firm);
      const files = [
        writeFixture(join(dir, 'earlier.pdf'), await makeTextPdf(versionSpec(pair.earlier, 1))),
        writeFixture(join(dir, 'later.pdf'), await makeTextPdf(versionSpec(pair.later, 2))),
      ];
      const db = openDatabase(join(dir, 's.sqlite'));
      const engine = createEngine({ db, appVersion: 'test' });
      const settings = { strategy: 'headings' as const, judge: false, llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: sim.url, models: { default: 'qwen3:8b' } } };
      const ids: number[] = [];
      for (const file of files) {
        const outcome = await engine.analyze([file], settings);
        expect(outcome.inputs[0]!.status).toBe('done');
        ids.push(outcome.inputs[0]!.documentId!);
      }
      const expected = FIRM_STATUS_LAYOUTS[firm]!;
      for (const mode of ['auto', 'rules-only'] as const) {
        const c = compareDocuments(db, { earlierDocumentId: ids[0]!, laterDocumentId: ids[1]!, mode });
        expect(c.later.mode, mode).toBe(mode === 'auto' ? 'full' : 'rules-only');
        expect(
          c.pairs.map((p) => [p.earlier?.id, p.later?.id, p.label]),
          mode,
        ).toEqual(pair.earlier.findings.map((f) => [f.id, f.id, 'still_present']));
        for (const [i, want] of expected.entries()) {
          const status = c.pairs[i]!.statedStatus;
          if (want.expected === null) {
            expect(status, `${mode} ${pair.later.findings[i]!.id}`).toBeNull();
            continue;
          }
          // The finding's own page (page 1 is the summary), its own status line quoted.
          const lines = [...(want.layout?.top ?? []), ...(want.layout?.end ?? [])].map((l) => l.replace(/\s+/g, ' '));
          expect(status, `${mode} ${pair.later.findings[i]!.id}`).toMatchObject({ ...want.expected, page: i + 2, source: 'section-line' });
          // The quote is the status line itself, or a label alone on its line with the line after it.
          const quotable = [...lines, ...lines.slice(1).map((l, j) => `${lines[j]} ${l}`)];
          expect(quotable, status!.quote).toContain(status!.quote);
        }
        const resolved = expected.filter((e) => e.expected?.category === 'resolved').length;
        expect(c.summary, mode).toMatchObject({ resolved, stillOpen: expected.length - resolved, noLongerPresent: 0, new: 0 });
      }
      db.close();
    },
    60_000,
  );
});
