/**
 * The completeness check in the whole pipeline on the real corpus PDFs, with
 * the truth-driven simulator (test/eval/truthResponder.ts) as the model, in
 * the faithful model modes (own numbering for ID-less findings, every
 * sighting reported). The stated-totals call, made for documents whose
 * totals no rule reads, is answered from the truth files too.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CompletenessVerdict } from '../../../shared/completeness';
import { DEFAULT_PROFILE, rankSeverity } from '../../../shared/findings';
import { getCompleteness } from '../../../electron/engine/completeness';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../../electron/engine/pipeline/settings';
import type { SimChatRequest, SimReply } from '../../ollama-sim/index';
import { promptBlocks } from '../../fixtures/plantedFindings';
import { defaultCorpusDir, FAITHFUL_MODES, loadCorpusTruth, truthResponder, type TruthDocument, type TruthFindingSpec } from '../../eval/truthResponder';
import { pipelineHarness, type PipelineHarness } from '../pipeline/helpers';
import { isStatedTotalsRequest } from './helpers';
import { corpusDocuments, describeNeeding } from '../../helpers/requirements';

const corpusDir = defaultCorpusDir();
const NAMES = ['tob-etcd-2020', 'tob-mosquitto-2023', 'oak-cosmwasm-2023', 'tob-zcash-2019'];

/**
 * The stated-totals call answered from the truth: each count the truth says
 * the document prints, quoted from the line of the prompt's document block
 * that shows its label and number. Documents printing no totals get none.
 */
function statedTotalsFromTruth(docs: readonly TruthDocument[]): (req: SimChatRequest) => SimReply {
  return (req) => {
    const lines = (promptBlocks(req).chunk ?? '').split('\n');
    const quoteOf = (label: string, count: number) => lines.find((l) => new RegExp(`\\b${label}\\b`, 'i').test(l) && new RegExp(`\\b${count}\\b`).test(l));
    for (const doc of docs) {
      const entries = Object.entries(doc.statedCounts ?? {});
      if (entries.length === 0 || !entries.every(([label, count]) => quoteOf(label, count))) continue;
      return JSON.stringify({ counts: entries.map(([label, count]) => ({ label, count, quote: quoteOf(label, count)!.trim() })) });
    }
    return JSON.stringify({ counts: [] });
  };
}

describeNeeding([corpusDocuments(NAMES)], 'completeness on the corpus through the pipeline (truth-driven simulator)', () => {
  const docs = loadCorpusTruth(corpusDir).filter((d) => NAMES.includes(d.name));
  let omitted: TruthFindingSpec | null = null;
  let h: PipelineHarness;

  beforeAll(async () => {
    const truth = truthResponder(docs, { modes: FAITHFUL_MODES, omit: (f) => f === omitted });
    const counts = statedTotalsFromTruth(docs);
    h = await pipelineHarness({ responder: (req) => (isStatedTotalsRequest(req) ? counts(req) : truth(req)) });
  });
  afterAll(async () => h?.close());

  async function verdictOf(name: string): Promise<CompletenessVerdict> {
    const outcome = await h.engine.analyze([join(corpusDir, 'pdfs', `${name}.pdf`)], { llm: { ...DEFAULT_RUN_LLM_SETTINGS, cache: false } });
    expect(outcome.run.status).toBe('done');
    const verdict = getCompleteness(h.db, outcome.run.id, outcome.inputs[0]!.documentId!);
    expect(verdict).not.toBeNull();
    return verdict!;
  }

  it(
    'every report that prints totals gets them right, and is complete; the others are complete when they list their findings, else neutral',
    { timeout: 600_000 },
    async () => {
      expect(docs.map((d) => d.name).sort()).toEqual([...NAMES].sort());
      for (const doc of docs) {
        const verdict = await verdictOf(doc.name);
        const stated = Object.fromEntries(verdict.stated.filter((c) => c.severity !== null).map((c) => [c.label, c.count]));
        if (Object.keys(doc.statedCounts ?? {}).length > 0) {
          expect(stated, doc.name).toEqual(doc.statedCounts);
          expect(
            verdict.stated.every((c) => c.source === 'rules'),
            doc.name,
          ).toBe(true);
          expect(verdict.places, doc.name).toEqual([]);
          expect(verdict.status, doc.name).toBe('complete');
          expect(verdict.foundTotal, doc.name).toBe(doc.findings.length);
        } else {
          expect(verdict.stated, doc.name).toEqual([]);
          // A report that lists its findings (a summary table) and has them all found is complete; one that states nothing is neutral.
          if (verdict.listed.length > 0) {
            expect(verdict.places, doc.name).toEqual([]);
            expect(verdict.status, doc.name).toBe('complete');
          } else {
            expect(verdict.status, doc.name).toBe('no-stated-totals');
            expect(verdict.headline, doc.name).toBe('No stated totals to check against');
          }
        }
      }
      // Only the documents whose totals no rule read cost the one stated-totals call, and only when their summary parts
      // print a number next to a severity word (oak-cosmwasm-2023); tob-zcash-2019's print none: no count could be quoted.
      const unread = docs.filter((d) => Object.keys(d.statedCounts ?? {}).length === 0).map((d) => d.name);
      expect(unread.sort()).toEqual(['oak-cosmwasm-2023', 'tob-zcash-2019']);
      expect(h.sim.requests.filter(isStatedTotalsRequest)).toHaveLength(1);
    },
  );

  it('with one finding left out of the answers, the verdict names its severity, its summary-table row and page', { timeout: 300_000 }, async () => {
    const doc = docs.find((d) => d.name === 'tob-mosquitto-2023')!;
    omitted = doc.findings.find((f) => f.id === 'TOB-MOSQ-CR-7')!;
    try {
      const verdict = await verdictOf(doc.name);
      const severity = rankSeverity(DEFAULT_PROFILE, omitted.severity).canonical;
      expect(verdict.status).toBe('check');
      // The row that names the missing finding comes first, then the count it leaves short. Its ID, printed in the heading
      // block of its (unreported) section, is the row's finding's own: no place of its own repeats the row's.
      expect(verdict.places.map((p) => [p.kind, p.severity])).toEqual([
        ['entry-without-finding', severity],
        ['stated-vs-found', severity],
      ]);
      expect(verdict.places[1]!.message).toBe('The document states High 9 on page 6; 8 High findings found.');
      const row = verdict.listed.find((e) => e.kind === 'summary-table' && e.number === '7')!;
      expect(verdict.places[0]!.page).toBe(row.page);
      expect(verdict.places[0]!.message).toBe(
        `Summary table row 7 on page ${row.page}, "${omitted.title}" (High), matches no finding reported from the text (at most its own row was read). Also listed in the contents on page 4.`,
      );
    } finally {
      omitted = null;
    }
  });
});
