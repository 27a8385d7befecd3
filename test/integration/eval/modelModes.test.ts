/**
 * Each way real local models answer (../shared/docs/model-behaviours.md, the simulator's MODEL_MODES): the
 * pipeline's result on the real audit reports of ../shared/corpus stays correct under it, and the mode really
 * happened (a mode that silently did nothing would pass otherwise).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { DEFAULT_PROFILE, LISTED_ENTRY_TYPE, RECORDED_FINDING_TYPE, rankSeverity, type StoredFinding } from '../../../shared/findings';
import { listFindings } from '../../../electron/engine/extract';
import { comparableId } from '../../../electron/engine/printed';
import { listMergedFindings, unreviewedMentions } from '../../../electron/engine/merge';
import { getCompleteness } from '../../../electron/engine/completeness';
import { loadMentions, openDatabase } from '../../../electron/engine/store';
import { corpusGate, runEval, type EvalRow } from '../../eval/run';
import { carriersOf } from '../../eval/strictScore';
import { isIdString, loadCorpusTruth, missedFinding, type ModelMode } from '../../eval/truthResponder';
import { corpusDocuments, describeNeeding } from '../../helpers/requirements';

const REPORTS = ['oak-cosmwasm-2023', 'tob-etcd-2020', 'tob-mosquitto-2023', 'tob-zcash-2019'];
// One store for the whole file: the PDFs are read once and reused by every run.
const workDir = mkdtempSync(join(tmpdir(), 'audit-modes-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

async function runModes(
  modes: ModelMode[],
  { generated = false, replyTokens, stopAfter }: { generated?: boolean; replyTokens?: number; stopAfter?: number } = {},
) {
  const { rows } = await runEval({
    sim: true,
    corpus: true,
    generated,
    only: REPORTS,
    modes,
    workDir,
    ...(replyTokens !== undefined ? { replyTokens } : {}),
    ...(stopAfter ? { stopAfter } : {}),
  });
  const db = openDatabase(join(workDir, 'eval.sqlite'));
  try {
    const raw = rows.flatMap((r) => listFindings(db, r.runId, r.documentId ?? undefined));
    const merged = new Map(rows.map((r) => [r.name, r.documentId === null ? [] : listMergedFindings(db, r.runId, r.documentId)]));
    const unreviewed = new Map(rows.map((r) => [r.name, r.documentId === null ? [] : unreviewedMentions(loadMentions(db, r.documentId), merged.get(r.name)!)]));
    const verdicts = new Map(rows.map((r) => [r.name, r.documentId === null ? null : getCompleteness(db, r.runId, r.documentId)]));
    return { rows, raw, merged, unreviewed, verdicts };
  } finally {
    db.close();
  }
}

/** The extraction calls of the rows' runs, as the call log holds them. */
function extractCalls(rows: readonly EvalRow[]) {
  const db = openDatabase(join(workDir, 'eval.sqlite'));
  try {
    const runs = rows.map((r) => r.runId);
    return (
      db
        .prepare(
          "SELECT run_id AS runId, outcome, done_reason AS doneReason, error_code AS errorCode, chunk_ref AS ref, COALESCE(eval_count, 0) AS evalCount FROM llm_calls WHERE purpose = 'extract'",
        )
        .all() as {
        runId: number;
        evalCount: number;
        outcome: string;
        doneReason: string | null;
        errorCode: string | null;
        ref: string;
      }[]
    ).filter((c) => runs.includes(c.runId));
  } finally {
    db.close();
  }
}

const truths = loadCorpusTruth().filter((t) => REPORTS.includes(t.name));
/** Truth findings the reports print no ID for: each is reported at least once with the model's own label. */
const unprintedIds = () => truths.flatMap((t) => t.findings).filter((f) => !isIdString(f.id)).length;
const passes = (rows: EvalRow[]) => expect(corpusGate(rows.filter((r) => r.gated))).toEqual([]);
const grounded = (f: StoredFinding) => f.grounding.status === 'grounded';

// A behaviour of the model's quotes is tried with 'ignores-recorded' and 'ignores-id-lines' (every finding written in
// full): a model that follows the instructions gives most findings of these reports as a RECORDED FINDINGS line
// number, and one whose ID the text prints as one line without a quote.
// Whole-pipeline runs over four real reports each (the first also reads the PDFs): more than the default minute on a busy machine.
describeNeeding(
  [corpusDocuments(REPORTS)],
  'the pipeline stays correct under each real-model behaviour',
  () => {
    it('invented per-chunk IDs: the model labels never join or split findings', async () => {
      const { rows, raw, merged } = await runModes(['invented-ids', 'summary-and-detail', 'ignores-recorded']);
      passes(rows);
      const invented = raw.filter((f) => /^F-\d+$/.test(f.id ?? ''));
      // Oak prints no ID strings: each of its findings carries a label of the model's at least once.
      expect(invented.length).toBeGreaterThanOrEqual(unprintedIds());
      expect(invented.every((f) => f.findingKey === null)).toBe(true);
      // Oak prints no ID strings: every finding shows the model's labels, marked as the model's.
      expect(
        merged
          .get('oak-cosmwasm-2023')!
          .filter((m) => m.grounded)
          .every((m) => m.findingKey === null && m.modelLabels.length > 0),
      ).toBe(true);
    });

    it('null IDs: findings join by their printed numbers and titles', async () => {
      const { rows, raw } = await runModes(['null-ids', 'summary-and-detail']);
      passes(rows);
      expect(raw.filter((f) => f.id === null).length).toBeGreaterThan(30);
      expect(raw.filter((f) => f.printedNumber !== null).length).toBeGreaterThan(30);
    });

    it('section numbers as IDs: bare numbers are never keys, the number printed before the title is', async () => {
      const { rows, raw } = await runModes(['section-number-ids', 'summary-and-detail', 'ignores-recorded']);
      passes(rows);
      const numbered = raw.filter((f) => /^\d+(\.\d+)*$/.test(f.id ?? ''));
      expect(numbered.length).toBeGreaterThanOrEqual(unprintedIds());
      expect(numbered.every((f) => f.findingKey === null)).toBe(true);
    });

    it('IDs with other spacing, case, padding or the title glued on: the key is the ID as the document prints it', async () => {
      const { rows, raw, merged } = await runModes(['reformatted-ids', 'summary-and-detail', 'ignores-recorded']);
      passes(rows);
      expect(raw.some((f) => f.id !== null && /^tob/.test(f.id))).toBe(true);
      expect(raw.some((f) => f.id !== null && /^TOB ETCD/.test(f.id))).toBe(true);
      const etcdKeys = merged
        .get('tob-etcd-2020')!
        .filter((m) => m.grounded)
        .map((m) => m.findingKey);
      expect(new Set(etcdKeys)).toEqual(new Set(truths.find((t) => t.name === 'tob-etcd-2020')!.findings.map((f) => f.id)));
    });

    it('paraphrased quotes: grounded by normalisation or token alignment, never lost', async () => {
      const { rows, raw } = await runModes(['paraphrased-quotes', 'summary-and-detail', 'ignores-recorded', 'ignores-id-lines']);
      passes(rows);
      const loose = raw.filter((f) => grounded(f) && f.grounding.match !== 'exact');
      expect(loose.length).toBeGreaterThan(30);
      expect(loose.some((f) => f.grounding.match === 'fuzzy')).toBe(true);
    });

    it('quotes that run across a page break: grounded across the page separator', async () => {
      const { rows, raw } = await runModes(['page-break-quotes', 'summary-and-detail', 'ignores-recorded', 'ignores-id-lines']);
      passes(rows);
      const db = openDatabase(join(workDir, 'eval.sqlite'));
      const pageStarts = db.prepare('SELECT document_id AS d, start_offset AS s FROM pages WHERE page_number > 1').all() as { d: number; s: number }[];
      db.close();
      const crossing = raw.filter((f) => grounded(f) && pageStarts.some((p) => p.d === f.documentId && f.grounding.start! < p.s && f.grounding.end! > p.s));
      expect(crossing.length).toBeGreaterThan(3);
    });

    it('summary-table row, contents line and detailed section: one finding with every place as a source, its main page the detail', async () => {
      const { rows, merged } = await runModes(['summary-and-detail', 'null-ids']);
      passes(rows);
      for (const t of truths.find((x) => x.name === 'oak-cosmwasm-2023')!.findings) {
        const [m] = carriersOf(t, merged.get('oak-cosmwasm-2023')!);
        expect(m!.sources.length, t.title).toBeGreaterThanOrEqual(3);
        expect(m!.sources.find((s) => s.isMain)!.page, t.title).toBeGreaterThanOrEqual(t.page);
      }
    });

    it('invented findings whose quote is not in the text: listed as ungrounded, never as findings', async () => {
      const { rows, merged } = await runModes(['invented-finding', 'invented-ids', 'summary-and-detail']);
      passes(rows);
      const ungrounded = [...merged.values()].flat().filter((m) => !m.grounded);
      expect(ungrounded.length).toBeGreaterThan(0);
      expect(ungrounded.every((m) => m.sources.every((s) => !s.grounded))).toBe(true);
    });

    it('a finding left out: found from its listed rows and opened on its detailed section the rules read, the check naming its row; else missing, its printed ID named', async () => {
      const { rows, merged, unreviewed, verdicts } = await runModes(['missed-finding', 'summary-and-detail']);
      for (const r of rows.filter((x) => x.truth > 0)) {
        expect(r, r.name).toMatchObject({ duplicates: 0, wrongMerges: 0, extra: 0 });
        const t = missedFinding(truths.find((x) => x.name === r.name)!)!;
        const carriers = carriersOf(t, merged.get(r.name)!);
        if (carriers.length === 0) {
          // Not in any list the rules read: missing, and its printed ID (when it has one) is an unreviewed mention.
          expect(r, r.name).toMatchObject({ found: r.truth - 1, detailPages: r.truth - 1 });
          if (/[A-Z]/.test(t.id ?? ''))
            expect(
              unreviewed.get(r.name)!.map((m) => m.id),
              r.name,
            ).toContain(t.id);
        } else {
          // Known from the document's own lists alone: shown as such, and the check names its row with the row's page.
          expect(
            carriers.map((m) => m.type),
            r.name,
          ).toEqual([LISTED_ENTRY_TYPE]);
          const places = verdicts.get(r.name)!.places.filter((p) => p.kind === 'entry-without-finding');
          expect(
            places.some((p) => carriers[0]!.sources.some((src) => src.page === p.page)),
            r.name,
          ).toBe(true);
          // Yet it opens on its detailed section, whose heading the rules read (pipeline/documentPipeline.ts recordUnnamedSections).
          expect(carriers[0]!.mainPage, `${r.name}: ${t.title}`).toBe(t.page);
          expect(r, r.name).toMatchObject({ found: r.truth, detailPages: r.truth });
        }
      }
    });

    it('the same finding twice in one reply: merged into one', async () => {
      const { rows, raw } = await runModes(['duplicates-in-reply', 'summary-and-detail', 'ignores-recorded', 'ignores-id-lines']);
      passes(rows);
      const twice = raw.filter((f, i) =>
        raw.some((g, j) => j < i && g.documentId === f.documentId && g.nodeIndex === f.nodeIndex && g.evidence === f.evidence && g.title === f.title),
      );
      expect(twice.length).toBeGreaterThan(10);
    });

    it("siblings described alike, a later sibling's rows titled like the first: each row stored under the title it prints, each sibling found once", async () => {
      // A model that reports every occurrence, whatever it is asked: the summary table is unnumbered (no list the rules read).
      const { rows, raw, merged } = await runModes(['siblings-same-title', 'every-occurrence', 'null-ids'], { generated: true });
      passes(rows);
      const report = rows.find((r) => r.name === 'sibling-report')!;
      expect(report).toMatchObject({ gated: true, truth: 6, found: 6, duplicates: 0, wrongMerges: 0, detailPages: 6 });
      // The mode gives a later sibling's rows the earlier sibling's title (test/unit/eval/siblingsMode.test.ts); the
      // engine gives them back the title their row prints before anything else reads them (printed/sightings.ts rowOwnTitle).
      const ofReport = raw.filter((f) => f.documentId === report.documentId);
      const tableRows = ofReport.filter((f) => /Open$/.test(f.evidence.trim()));
      expect(tableRows).toHaveLength(6);
      // Each row is stored under the title it prints, and is a source of that finding, never of its sibling.
      const findings = merged.get('sibling-report')!;
      for (const row of tableRows) {
        expect(row.evidence.startsWith(row.title), row.evidence).toBe(true);
        const holder = findings.find((m) => m.sources.some((s) => s.findingId === row.findingId))!;
        expect(row.evidence.startsWith(holder.title), row.evidence).toBe(true);
      }
    });

    // The table rows print no cell borders ("Title High Open"): a row the model described at length must not outrank
    // the finding's heading (merge/result.ts isBorderlessRow).
    it("each finding reported once per unit at its first occurrence (its table row): the unit's heading of it is recorded too, and is its main page", async () => {
      const { rows, raw, merged } = await runModes(['once-per-unit-first-occurrence', 'invented-ids'], { generated: true });
      passes(rows);
      const report = rows.find((r) => r.name === 'sibling-report')!;
      expect(report).toMatchObject({ gated: true, truth: 6, found: 6, detailPages: 6 });
      // The model quoted only the table rows; the headings are the sightings the engine found in the same unit.
      const ofReport = raw.filter((f) => f.documentId === report.documentId);
      expect(ofReport.filter((f) => /Open$/.test(f.evidence.trim()))).toHaveLength(6);
      expect(ofReport.filter((f) => f.evidence.trim() === f.title)).toHaveLength(6);
      const siblings = merged.get('sibling-report')!.filter((m) => m.grounded);
      expect(siblings.map((m) => m.mainPage)).toEqual([2, 3, 4, 5, 6, 7]);
    });

    it('severity words off the scale: mapped onto the profile scale, the model word kept', async () => {
      const { rows, raw, merged } = await runModes(['off-scale-severity', 'summary-and-detail']);
      passes(rows);
      expect(raw.some((f) => f.severity === 'Moderate')).toBe(true);
      expect(raw.some((f) => f.severity === 'Very High')).toBe(true);
      for (const doc of truths) {
        for (const t of doc.findings) {
          const [m] = carriersOf(t, merged.get(doc.name)!);
          expect(m!.severityCanonical, `${doc.name}: ${t.title}`).toBe(rankSeverity(DEFAULT_PROFILE, t.severity).canonical);
        }
      }
    });

    it('recorded findings given by their line number: read from their detailed sections, each found once with its detail page, far fewer entries written', async () => {
      const { rows, raw, merged } = await runModes(['summary-and-detail', 'null-ids', 'verbose-replies']);
      passes(rows);
      const truthCount = truths.reduce((n, t) => n + t.findings.length, 0);
      const read = raw.filter((f) => f.type === RECORDED_FINDING_TYPE);
      // Most findings of these reports are in their summary tables: the model named their sections by number.
      expect(read.length).toBeGreaterThan(truthCount / 2);
      expect(read.every((f) => f.grounding.status === 'grounded' && f.grounding.match === 'exact')).toBe(true);
      // Entries the model wrote (anything that is neither a row nor a section the rules read) are the rest, not one per sighting.
      const written = raw.filter((f) => f.type !== RECORDED_FINDING_TYPE && f.type !== LISTED_ENTRY_TYPE);
      expect(written.length).toBeLessThan(truthCount / 2);
      // A finding read from its section carries the section's opening sentence, not its heading again.
      const described = [...merged.values()].flat().filter((m) => m.type === RECORDED_FINDING_TYPE && m.description !== '');
      expect(described.length).toBeGreaterThan(read.length / 2);
    });

    it('a finding whose ID the text prints written as one line: grounded on the text that prints the ID, found once, for far fewer tokens', async () => {
      const outputOf = (rows: readonly EvalRow[]) => extractCalls(rows).reduce((n, c) => n + c.evalCount, 0);
      const inFull = await runModes(['summary-and-detail', 'null-ids', 'verbose-replies', 'ignores-recorded', 'ignores-id-lines']);
      const lines = await runModes(['summary-and-detail', 'null-ids', 'verbose-replies', 'ignores-recorded']);
      passes(inFull.rows);
      passes(lines.rows);
      // Every written finding with a printed ID is grounded on text that prints it; none is left unverified.
      const keyed = lines.raw.filter((f) => f.findingKey !== null && f.type !== LISTED_ENTRY_TYPE && f.type !== RECORDED_FINDING_TYPE);
      // Each finding these reports print an ID for is written from its detailed section (the model ignores the numbering).
      expect(keyed.length).toBeGreaterThanOrEqual(truths.flatMap((t) => t.findings).filter((f) => isIdString(f.id)).length);
      expect(keyed.filter((f) => f.grounding.status !== 'grounded')).toEqual([]);
      const printsId = (f: StoredFinding) => comparableId(f.evidence).includes(comparableId(f.findingKey!));
      expect(keyed.filter(printsId).length).toBeGreaterThan(keyed.length * 0.9);
      // The same findings for under two thirds of the output tokens.
      expect(outputOf(lines.rows)).toBeLessThan(outputOf(inFull.rows) * 0.67);
    });

    // Dense documents (issue 25): replies as long as real models write them, and lists ended early.
    it('replies as long as a real model writes them (pretty-printed, fields at their word limits): cut replies are continued, never regenerated', async () => {
      // A model that also writes every sighting, whatever the once rule says, in a small reply room (768 tokens, a
      // small-context setup): a unit whose sightings do not fit is cut at its limit.
      const { rows } = await runModes(['verbose-replies', 'every-occurrence', 'null-ids'], { replyTokens: 768 });
      passes(rows);
      const calls = extractCalls(rows);
      expect(calls.filter((c) => c.doneReason === 'length' && c.outcome === 'ok').length).toBeGreaterThan(0);
      expect(calls.filter((c) => c.errorCode === 'LLM_REPLY_CUT')).toEqual([]);
    });

    it('a model that ends its lists early: what it skipped is asked for again, nothing lost', async () => {
      // After 20 findings no reply of these reports is ended early (a unit holds fewer); after 5, many are.
      const { rows } = await runModes(['stops-after-n', 'summary-and-detail', 'null-ids', 'ignores-recorded'], { stopAfter: 5 });
      passes(rows);
      expect(extractCalls(rows).filter((c) => /[+?]\d+$/.test(c.ref)).length).toBeGreaterThan(0);
    });
  },
  { timeout: 300_000 },
);
