import { afterEach, describe, expect, it } from 'vitest';
import { addManualFinding, addNote, getReviewedFinding, getReviewView, listTrail, mergeReviewed, splitMerged } from '../../../electron/engine/review';
import { plantedResponder } from '../../fixtures/plantedFindings';
import { byKey, carriedOver, reviewHarness, variant, type ReviewHarness } from './helpers';

let h: ReviewHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ids = (f: { sources: { findingId: number }[] }) => f.sources.map((s) => s.findingId).sort((a, b) => a - b);

describe('split and merge of reviewed findings', () => {
  it('splits a merge without losing a source, merges back, and carries the split over to a re-run', async () => {
    h = await reviewHarness();
    const { documentId } = await h.run();
    const sqli = byKey(getReviewView(h.db, documentId), 'PBI-1201');
    expect(sqli.sources).toHaveLength(2);
    const all = ids(sqli);
    const row = sqli.sources.find((s) => s.page === 1)!; // the summary-table row

    expect(() => splitMerged(h!.db, { reviewedId: sqli.id, findingIds: all, reviewer: 'Ann' })).toThrow(/At least one source/);
    expect(() => splitMerged(h!.db, { reviewedId: sqli.id, findingIds: [999_999], reviewer: 'Ann' })).toThrow(/not sources/);
    const { reviewedId: splitId } = splitMerged(h.db, { reviewedId: sqli.id, findingIds: [row.findingId], reviewer: 'Ann' });

    const v = getReviewView(h.db, documentId);
    const kept = v.findings.find((f) => f.id === sqli.id)!;
    const split = v.findings.find((f) => f.id === splitId)!;
    expect(ids(kept)).toEqual(all.filter((id) => id !== row.findingId));
    expect(ids(split)).toEqual([row.findingId]);
    expect(split).toMatchObject({ origin: 'split', state: 'new', splitFromId: sqli.id, findingKey: 'PBI-1201', mainPage: 1 });
    expect(split.original.title).toBe('SQL injection in report export');
    expect(kept.original).toEqual(sqli.original);
    expect(listTrail(h.db, { reviewedId: sqli.id }).at(-1)).toMatchObject({ action: 'split', field: 'sources', from: JSON.stringify(all), reviewer: 'Ann' });

    // A re-run with the same model: both halves are matched, nothing vanishes, no duplicate appears.
    const second = await h.run();
    const carried = carriedOver(h, second.runId, documentId);
    expect(carried.vanished).toEqual([]);
    expect(carried.created).toEqual([]);
    const v2 = getReviewView(h.db, documentId);
    expect(v2.findings.find((f) => f.id === sqli.id)!.sources.map((s) => s.page)).toEqual([2]);
    expect(v2.findings.find((f) => f.id === splitId)!.sources.map((s) => s.page)).toEqual([1]);

    // Merge back: every source of both (in the linked run) on the kept finding, notes moved, the absorbed one no longer listed.
    addNote(h.db, { reviewedId: splitId, text: 'Table row only.', reviewer: 'Ann' });
    const keptBefore = v2.findings.find((f) => f.id === sqli.id)!;
    const splitBefore = v2.findings.find((f) => f.id === splitId)!;
    mergeReviewed(h.db, { keepId: sqli.id, absorbId: splitId, reviewer: 'Bob' });
    const v3 = getReviewView(h.db, documentId);
    const merged = v3.findings.find((f) => f.id === sqli.id)!;
    expect(ids(merged)).toEqual([...ids(keptBefore), ...ids(splitBefore)].sort((a, b) => a - b));
    expect(merged.absorbedIds).toEqual([splitId]);
    expect(merged.notes.map((n) => n.text)).toEqual(['Table row only.']);
    expect(v3.findings.some((f) => f.id === splitId)).toBe(false);
    expect(v3.findings).toHaveLength(v2.findings.length - 1);
    // The absorbed finding stays readable, and every link of the first run is still there too.
    expect(getReviewedFinding(h.db, splitId)).toMatchObject({ origin: 'split', original: { title: 'SQL injection in report export' } });
    const firstRunLinks = h.db.prepare('SELECT COUNT(*) AS n FROM review_sources WHERE reviewed_id = ?').get(sqli.id) as { n: number };
    expect(firstRunLinks.n).toBe(4);
    expect(() => mergeReviewed(h!.db, { keepId: sqli.id, absorbId: splitId, reviewer: 'Bob' })).toThrow(/merged into/);
    expect(listTrail(h.db, { reviewedId: splitId }).at(-1)).toMatchObject({ action: 'merge', field: 'merged_into', reviewer: 'Bob' });
  });

  it('merges two findings the engine kept apart and keeps them together on a re-run', async () => {
    h = await reviewHarness();
    const { documentId } = await h.run();
    const v = getReviewView(h.db, documentId);
    const cert = byKey(v, 'PBI-1410');
    const firewall = byKey(v, 'PBI-1420');
    mergeReviewed(h.db, { keepId: cert.id, absorbId: firewall.id, reviewer: 'Ann' });
    const both = getReviewView(h.db, documentId).findings.find((f) => f.id === cert.id)!;
    expect(ids(both)).toEqual([...ids(cert), ...ids(firewall)].sort((a, b) => a - b));
    expect(both.mergedIds.sort()).toEqual([...cert.mergedIds, ...firewall.mergedIds].sort());

    const second = await h.run();
    const carried = carriedOver(h, second.runId, documentId);
    expect(carried.created).toEqual([]);
    expect(carried.vanished).toEqual([]);
    const after = getReviewView(h.db, documentId).findings.find((f) => f.id === cert.id)!;
    expect(after.mergedIds).toHaveLength(2);
    expect(after.sources).toHaveLength(2);
  });
});

describe('manual findings', () => {
  it('are grounded by construction on the right page and matched when a later run reports them', async () => {
    h = await reviewHarness();
    const { documentId } = await h.run();
    const text = (h.db.prepare('SELECT canonical_text FROM documents WHERE id = ?').get(documentId) as { canonical_text: string }).canonical_text;
    const backup = h.report.truth.find((t) => t.key === 'CR-310')!;
    const start = text.indexOf(backup.sentence);
    expect(start).toBeGreaterThan(0);
    // The selection includes surrounding whitespace: trimmed away.
    const { reviewedId } = addManualFinding(h.db, {
      documentId,
      start: start - 1,
      end: start + backup.sentence.length + 1,
      title: 'Backup restore never tested',
      severity: 'High',
      type: 'control deficiency',
      description: 'Missed by the model.',
      reviewer: 'Ann',
    });
    const manual = getReviewView(h.db, documentId).findings.find((f) => f.id === reviewedId)!;
    expect(manual).toMatchObject({ origin: 'manual', state: 'new', grounded: true, mainPage: 3, runId: null, sources: [] });
    expect(manual.manualEvidence).toEqual({ start, end: start + backup.sentence.length, text: backup.sentence, page: 3, match: 'exact' });
    expect(listTrail(h.db, { reviewedId }).map((e) => [e.action, e.reviewer])).toEqual([['create', 'Ann']]);
    expect(() =>
      addManualFinding(h!.db, { documentId, start: 10, end: 5, title: 'x', severity: 'Low', type: 'risk', description: '', reviewer: 'Ann' }),
    ).toThrow(/not inside/);
    expect(() =>
      addManualFinding(h!.db, { documentId, start: 0, end: text.length + 1, title: 'x', severity: 'Low', type: 'risk', description: '', reviewer: 'Ann' }),
    ).toThrow(/not inside/);
    expect(() =>
      addManualFinding(h!.db, { documentId, start: 0, end: 10, title: ' ', severity: 'Low', type: 'risk', description: '', reviewer: 'Ann' }),
    ).toThrow(/title/);

    // A manual finding on the last page: page from the offset.
    const lastPage = h.report.pageTexts.length;
    const endText = 'End of report.';
    const at = text.indexOf(endText);
    const late = addManualFinding(h.db, {
      documentId,
      start: at,
      end: at + endText.length,
      title: 'Report end',
      severity: 'Informational',
      type: 'other',
      description: '',
      reviewer: 'Ann',
    });
    expect(getReviewedFinding(h.db, late.reviewedId)!.mainPage).toBe(lastPage);

    // The next model reports CR-310: matched to the manual finding by position, not added twice; manual findings never vanish.
    h.sim.setResponder(
      plantedResponder(
        variant(h.report, (r) => {
          const t = r.truth.find((x) => x.key === 'CR-310')!;
          t.behaviour = 'report';
          t.occurrences = [{ anchor: t.sentence, quote: t.sentence, title: t.title, description: 'Found this time.', statedPage: 3 }];
        }),
      ),
    );
    const second = await h.run();
    const carried = carriedOver(h, second.runId, documentId);
    expect(carried.created).toEqual([]);
    expect(carried.vanished).toEqual([]);
    expect(carried.matched.find((m) => m.reviewedId === reviewedId)?.rule).toBe('position');
    const after = getReviewedFinding(h.db, reviewedId)!;
    expect(after).toMatchObject({ origin: 'manual', runId: second.runId, changedFields: [], effective: { title: 'Backup restore never tested' } });
    expect(after.sources).toHaveLength(1);
    expect(getReviewedFinding(h.db, late.reviewedId)).toMatchObject({ vanished: false });
  });
});
