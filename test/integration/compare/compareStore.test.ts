/**
 * The comparison in the engine over a real SQLite store: two generated reports analysed through the
 * simulator (real HTTP), the auditor's note on an earlier finding shown on its pair, a candidate confirmed
 * and rejected (kept across re-computation), the stored comparison read back, and the exports escaping
 * what comes from the documents.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compareDocuments,
  renderComparison,
  comparisonCsv,
  comparisonHtml,
  comparisonMarkdown,
  findingKeyOf,
  getComparison,
  saveComparison,
  saveDecision,
} from '../../../electron/engine/compare';
import { createEngine, DEFAULT_RUN_LLM_SETTINGS } from '../../../electron/engine';
import { addNote, syncReview } from '../../../electron/engine/review';
import { openDatabase } from '../../../electron/engine/store';
import { makeTextPdf, writeFixture } from '../../fixtures/pdfFactory';
import { headingResponder, secondRoundPair, versionSpec } from '../../fixtures/reportPairs';
import { useSims } from '../../helpers/sim';
import { CHROMIUM, itNeeding } from '../../helpers/requirements';
import type { Responder } from '../../ollama-sim/index';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir('audit-compare-store-');
const startSim = useSims();

async function analysedPair(responder: Responder = headingResponder) {
  const dir = tempDir();
  const { sim } = await startSim({ responder });
  const pair = secondRoundPair();
  // A title that would be markup if an export forgot to escape it.
  pair.later.findings[6]!.title = 'Front-running of <script>alert(1)</script> price updates';
  const earlierFile = writeFixture(join(dir, 'earlier.pdf'), await makeTextPdf(versionSpec(pair.earlier, 1)));
  const laterFile = writeFixture(join(dir, 'later.pdf'), await makeTextPdf(versionSpec(pair.later, 2)));
  const db = openDatabase(join(dir, 's.sqlite'));
  const engine = createEngine({ db, appVersion: 'test' });
  const settings = { strategy: 'headings' as const, judge: false, llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: sim.url, models: { default: 'qwen3:8b' } } };
  const ids: number[] = [];
  for (const file of [earlierFile, laterFile]) {
    const outcome = await engine.analyze([file], settings);
    expect(outcome.inputs[0]!.status).toBe('done');
    ids.push(outcome.inputs[0]!.documentId!);
  }
  return { db, earlierId: ids[0]!, laterId: ids[1]! };
}

describe('comparison store, notes, candidates and exports', () => {
  it("shows the auditor's note on the earlier finding on its pair", async () => {
    const { db, earlierId, laterId } = await analysedPair();
    const runId = syncReview(db, earlierId)!;
    const first = compareDocuments(db, { earlierDocumentId: earlierId, laterDocumentId: laterId });
    const pair = first.pairs.find((p) => p.earlier?.id === 'ACME-05')!;
    expect(pair.notes).toEqual([]);
    const finding = db.prepare('SELECT main_finding_id FROM merged_findings WHERE id = ?').get(pair.earlier!.mergedId) as { main_finding_id: number };
    const { reviewed_id: reviewedId } = db
      .prepare('SELECT reviewed_id FROM review_sources WHERE run_id = ? AND finding_id = ?')
      .get(runId, finding.main_finding_id) as { reviewed_id: number };
    addNote(db, { reviewedId, reviewer: 'Ada', text: 'Client promised a fix with SafeERC20.', now: '2026-01-02T03:04:05Z' });

    const again = compareDocuments(db, { earlierDocumentId: earlierId, laterDocumentId: laterId });
    expect(again.pairs.find((p) => p.earlier?.id === 'ACME-05')!.notes).toEqual([
      { reviewer: 'Ada', at: '2026-01-02T03:04:05Z', text: 'Client promised a fix with SafeERC20.' },
    ]);
    expect(again.pairs.filter((p) => p.notes.length > 0)).toHaveLength(1);
    expect(comparisonMarkdown(again)).toContain('Notes: Ada: Client promised a fix with SafeERC20.');
    db.close();
  }, 120_000);

  it('a confirmed candidate becomes one pair labelled by the auditor; a rejected one stays apart; both survive re-computation', async () => {
    const { db, earlierId, laterId } = await analysedPair();
    const before = compareDocuments(db, { earlierDocumentId: earlierId, laterDocumentId: laterId });
    expect(before.candidates).toHaveLength(1);
    const candidate = before.candidates[0]!;
    const earlierSide = before.pairs[candidate.earlierIndex]!.earlier!;
    const laterSide = before.pairs[candidate.laterIndex]!.later!;
    const keys = {
      earlierDocumentId: earlierId,
      laterDocumentId: laterId,
      earlierKey: findingKeyOf(earlierSide),
      laterKey: findingKeyOf(laterSide),
      reviewer: 'Ada',
      at: '2026-01-02T00:00:00Z',
    };

    saveDecision(db, { ...keys, decision: 'confirmed' });
    const confirmed = compareDocuments(db, { earlierDocumentId: earlierId, laterDocumentId: laterId });
    const joined = confirmed.pairs.find((p) => p.earlier?.title === earlierSide.title)!;
    expect(joined).toMatchObject({ rule: 'auditor', later: { title: laterSide.title }, label: 'title_changed' });
    expect(confirmed.pairs).toHaveLength(before.pairs.length - 1);
    expect(confirmed.candidates).toEqual([expect.objectContaining({ decision: 'confirmed' })]);
    expect(confirmed.summary.candidates).toBe(0);
    expect(confirmed.summary.noLongerPresent).toBe(before.summary.noLongerPresent - 1);

    saveDecision(db, { ...keys, decision: 'rejected' });
    const rejected = compareDocuments(db, { earlierDocumentId: earlierId, laterDocumentId: laterId });
    expect(rejected.pairs).toHaveLength(before.pairs.length);
    expect(rejected.candidates).toEqual([expect.objectContaining({ decision: 'rejected' })]);
    expect(rejected.summary.candidates).toBe(0);

    // Stored whole and read back as it was.
    const id = saveComparison(db, rejected);
    expect(getComparison(db, id)).toEqual({ ...rejected, id });
    db.close();
  }, 120_000);

  it('exports escape what comes from the documents (HTML, Markdown) and disarm formulas (CSV)', async () => {
    const { db, earlierId, laterId } = await analysedPair();
    const c = compareDocuments(db, { earlierDocumentId: earlierId, laterDocumentId: laterId });
    const page = comparisonHtml(c);
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(comparisonMarkdown(c)).not.toContain('<script>');
    const hostile = { ...c, pairs: c.pairs.map((p, i) => (i === 0 ? { ...p, earlier: { ...p.earlier!, title: '=HYPERLINK("http://x")' } } : p)) };
    expect(comparisonCsv(hostile)).toContain(`"'=HYPERLINK(""http://x"")"`);
    db.close();
  }, 120_000);

  it('an earlier finding the model missed in the later report is still paired where the later report prints its ID, with its status', async () => {
    // The model never reports ACME-02 in the later report (its heading says "Round Two" on that page's footer).
    const missing: Responder = async (req) => {
      const reply = await headingResponder(req);
      if (typeof reply !== 'string' || !/Round Two/.test(JSON.stringify(req.messages))) return reply;
      const parsed = JSON.parse(reply) as { findings: { id: string | null }[]; summary: string };
      return JSON.stringify({ ...parsed, findings: parsed.findings.filter((f) => f.id !== 'ACME-02') });
    };
    const { db, earlierId, laterId } = await analysedPair(missing);
    const c = compareDocuments(db, { earlierDocumentId: earlierId, laterDocumentId: laterId });
    expect(c.later.mode).toBe('full');
    const pair = c.pairs.find((p) => p.earlier?.id === 'ACME-02')!;
    expect(pair).toMatchObject({
      label: 'still_present',
      rule: 'printed-id',
      later: { id: 'ACME-02', mergedId: null, title: 'Missing rate limiting on login', page: 3 },
      statedStatus: { text: 'Acknowledged' },
    });
    db.close();
  }, 120_000);

  it('a finding the model missed in the earlier report is paired where the earlier report prints its ID, never shown as new', async () => {
    // The model never reports ACME-02 in the earlier report (only the later one's pages say "Round Two").
    const missing: Responder = async (req) => {
      const reply = await headingResponder(req);
      if (typeof reply !== 'string' || /Round Two/.test(JSON.stringify(req.messages))) return reply;
      const parsed = JSON.parse(reply) as { findings: { id: string | null }[]; summary: string };
      return JSON.stringify({ ...parsed, findings: parsed.findings.filter((f) => f.id !== 'ACME-02') });
    };
    const { db, earlierId, laterId } = await analysedPair(missing);
    const c = compareDocuments(db, { earlierDocumentId: earlierId, laterDocumentId: laterId });
    expect(c.earlier.mode).toBe('full');
    expect(c.pairs.filter((p) => p.earlier?.id === 'ACME-02' || p.later?.id === 'ACME-02')).toEqual([
      expect.objectContaining({
        label: 'still_present',
        rule: 'printed-id',
        earlier: expect.objectContaining({ id: 'ACME-02', mergedId: null, title: 'Missing rate limiting on login', page: 3 }),
        later: expect.objectContaining({ id: 'ACME-02', title: 'Missing rate limiting on login' }),
        statedStatus: expect.objectContaining({ text: 'Acknowledged' }),
      }),
    ]);
    expect(c.summary.new).toBe(2);
    db.close();
  }, 120_000);

  itNeeding([CHROMIUM], 'prints the comparison to PDF with headless Chromium', async () => {
    const { db, earlierId, laterId } = await analysedPair();
    const pdf = await renderComparison(compareDocuments(db, { earlierDocumentId: earlierId, laterDocumentId: laterId }), 'pdf');
    expect(Buffer.isBuffer(pdf)).toBe(true);
    expect((pdf as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
    expect((pdf as Buffer).length).toBeGreaterThan(5000);
    db.close();
  });
});
