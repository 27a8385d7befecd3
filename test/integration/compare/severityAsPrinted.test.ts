/**
 * The re-audit comparison reads each side's severity as its document prints it (issue 36): an audit that rates each
 * finding in its section and its fix review that rates them only in its summary table's Severity column. Analysed
 * through the simulator (real HTTP, real PDFs, real SQLite) by a model that answers with bare titles (no severity),
 * and by one that follows the reply protocol; compared with and without the model's findings. "Severity changed" only
 * where both sides print a severity and the words differ: the one finding the fix review re-rates.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareDocuments, comparisonJson } from '../../../electron/engine/compare';
import { createEngine, DEFAULT_RUN_LLM_SETTINGS } from '../../../electron/engine';
import { openDatabase } from '../../../electron/engine/store';
import { BARE_TITLE_MODES, FAITHFUL_MODES, truthResponder, type ModelMode } from '../../eval/truthResponder';
import { makeTextPdf, writeFixture } from '../../fixtures/pdfFactory';
import { ratedInTablePair, versionSpec, versionTruth } from '../../fixtures/reportPairs';
import { useSims } from '../../helpers/sim';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir('audit-compare-severity-');
const startSim = useSims();

async function analysedPair(modes: readonly ModelMode[]) {
  const dir = tempDir();
  const { sim } = await startSim();
  const pair = ratedInTablePair();
  const db = openDatabase(join(dir, 's.sqlite'));
  const engine = createEngine({ db, appVersion: 'test' });
  const settings = {
    strategy: 'headings' as const,
    judge: false,
    llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: sim.url, models: { default: 'qwen3:8b' }, cache: false },
  };
  const ids: number[] = [];
  for (const [name, version, seed] of [
    ['earlier', pair.earlier, 1],
    ['later', pair.later, 2],
  ] as const) {
    // Each document answered from its own truth: both print the same titles.
    sim.setResponder(truthResponder([versionTruth(version, name)], { modes }));
    const file = writeFixture(join(dir, `${name}.pdf`), await makeTextPdf(versionSpec(version, seed)));
    const outcome = await engine.analyze([file], settings);
    expect(outcome.inputs[0]!.status).toBe('done');
    ids.push(outcome.inputs[0]!.documentId!);
  }
  return { db, pair, earlierDocumentId: ids[0]!, laterDocumentId: ids[1]! };
}

const bySide = (c: ReturnType<typeof compareDocuments>) =>
  c.pairs
    .map((p) => ({ id: p.earlier?.id ?? p.later?.id, label: p.label, earlier: p.earlier?.severity ?? null, later: p.later?.severity ?? null }))
    .sort((a, b) => String(a.id).localeCompare(String(b.id)));

const EXPECTED = [
  { id: 'ACME-01', label: 'still_present', earlier: 'High', later: 'High' },
  { id: 'ACME-02', label: 'still_present', earlier: 'Medium', later: 'Medium' },
  { id: 'ACME-03', label: 'still_present', earlier: 'Low', later: 'Low' },
  // Re-rated by the fix review: the one real change, "Undetermined" kept as its own word.
  { id: 'ACME-04', label: 'severity_changed', earlier: 'Undetermined', later: 'Medium' },
];

describe('re-audit comparison: severities as each document prints them', () => {
  for (const [name, modes] of [
    ['a model that answers with bare titles', BARE_TITLE_MODES],
    ['a model that follows the reply protocol', FAITHFUL_MODES],
  ] as const) {
    it(`reads the fix review's severities from its summary table, for ${name}; severity changed only for the re-rated finding`, async () => {
      const { db, earlierDocumentId, laterDocumentId } = await analysedPair(modes);
      const comparison = compareDocuments(db, { earlierDocumentId, laterDocumentId });
      expect(comparison.later.mode).toBe('full');
      expect(bySide(comparison)).toEqual(EXPECTED);
      expect(comparison.summary.severityChanged).toBe(1);
      // The JSON export carries every severity read: none is null.
      const json = JSON.parse(comparisonJson(comparison)) as { pairs: { earlier: { severity: string | null }; later: { severity: string | null } }[] };
      expect(json.pairs.flatMap((p) => [p.earlier.severity, p.later.severity]).every((s) => typeof s === 'string' && s.length > 0)).toBe(true);
      db.close();
    }, 180_000);
  }

  it('reads them the same way from the printed IDs alone (no model findings)', async () => {
    const { db, earlierDocumentId, laterDocumentId } = await analysedPair(BARE_TITLE_MODES);
    const comparison = compareDocuments(db, { earlierDocumentId, laterDocumentId, mode: 'rules-only' });
    expect(comparison.later.mode).toBe('rules-only');
    expect(bySide(comparison)).toEqual(EXPECTED);
    db.close();
  }, 180_000);
});
