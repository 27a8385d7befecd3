/**
 * Every review action can be taken back (issue 16): a note, a split and a
 * merge each have an undo that restores the findings as they were, and the
 * append-only trail keeps both the action and its undo.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  addNote,
  getReviewedFinding,
  getReviewView,
  listTrail,
  mergeReviewed,
  removeNote,
  setState,
  splitMerged,
  undoSplit,
  unmergeReviewed,
} from '../../../electron/engine/review';
import { byKey, reviewHarness, type ReviewHarness } from './helpers';

let h: ReviewHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ids = (f: { sources: { findingId: number }[] }) => f.sources.map((s) => s.findingId).sort((a, b) => a - b);

describe('undo of review actions', () => {
  it('removes a note again, and the trail keeps the note added and removed', async () => {
    h = await reviewHarness();
    const { documentId } = await h.run();
    const f = byKey(getReviewView(h.db, documentId), 'PBI-1201');
    addNote(h.db, { reviewedId: f.id, text: 'Keep this one.', reviewer: 'Ann' });
    const { noteId } = addNote(h.db, { reviewedId: f.id, text: 'Typed on the wrong finding.', reviewer: 'Ann' });
    expect(getReviewedFinding(h.db, f.id)!.notes.map((n) => n.text)).toEqual(['Keep this one.', 'Typed on the wrong finding.']);

    expect(removeNote(h.db, { noteId, reviewer: 'Bob' })).toEqual({ reviewedId: f.id });
    expect(getReviewedFinding(h.db, f.id)!.notes.map((n) => n.text)).toEqual(['Keep this one.']);
    const notes = listTrail(h.db, { reviewedId: f.id }).filter((e) => e.action === 'note');
    expect(notes.map((e) => [e.reviewer, e.from, e.to])).toEqual([
      ['Ann', null, 'Keep this one.'],
      ['Ann', null, 'Typed on the wrong finding.'],
      ['Bob', 'Typed on the wrong finding.', null],
    ]);
    expect(() => removeNote(h!.db, { noteId, reviewer: 'Bob' })).toThrow(/no note/);
    expect(() => removeNote(h!.db, { noteId: 1, reviewer: ' ' })).toThrow();
  });

  it('merges a split-out finding back into the finding it came from', async () => {
    h = await reviewHarness();
    const { documentId } = await h.run();
    const sqli = byKey(getReviewView(h.db, documentId), 'PBI-1201');
    const all = ids(sqli);
    const moving = sqli.sources.find((s) => s.page === 1)!.findingId;
    const { reviewedId: splitId } = splitMerged(h.db, { reviewedId: sqli.id, findingIds: [moving], reviewer: 'Ann' });
    expect(() => undoSplit(h!.db, { reviewedId: sqli.id, reviewer: 'Ann' })).toThrow(/not split out/);

    expect(undoSplit(h.db, { reviewedId: splitId, reviewer: 'Ann' })).toEqual({ keepId: sqli.id });
    const view = getReviewView(h.db, documentId);
    expect(view.findings.some((f) => f.id === splitId)).toBe(false);
    const back = view.findings.find((f) => f.id === sqli.id)!;
    expect(ids(back)).toEqual(all);
    expect(back.original).toEqual(sqli.original);
    const trail = listTrail(h.db, { reviewedId: sqli.id });
    expect(trail.map((e) => e.action).slice(-2)).toEqual(['split', 'merge']);
    expect(trail.at(-1)!.detail).toMatch(/split undone/);
  });

  it('takes a merge back: sources, notes, state and run go back where they were, and the trail keeps both', async () => {
    h = await reviewHarness();
    const { documentId } = await h.run();
    const v = getReviewView(h.db, documentId);
    const cert = byKey(v, 'PBI-1410');
    const firewall = byKey(v, 'PBI-1420');
    setState(h.db, { reviewedId: firewall.id, state: 'needs_follow_up', reviewer: 'Ann' });
    addNote(h.db, { reviewedId: firewall.id, text: 'Ask the network team.', reviewer: 'Ann' });
    addNote(h.db, { reviewedId: cert.id, text: 'Certificate list attached.', reviewer: 'Ann' });
    const countBefore = v.findings.length;

    mergeReviewed(h.db, { keepId: cert.id, absorbId: firewall.id, reviewer: 'Bob' });
    expect(getReviewView(h.db, documentId).findings).toHaveLength(countBefore - 1);
    expect(() => unmergeReviewed(h!.db, { absorbId: cert.id, reviewer: 'Bob' })).toThrow(/no merge to undo/);

    expect(unmergeReviewed(h.db, { absorbId: firewall.id, reviewer: 'Bob' })).toEqual({ keepId: cert.id });
    const after = getReviewView(h.db, documentId);
    expect(after.findings).toHaveLength(countBefore);
    const certAfter = after.findings.find((f) => f.id === cert.id)!;
    const firewallAfter = after.findings.find((f) => f.id === firewall.id)!;
    expect(ids(certAfter)).toEqual(ids(cert));
    expect(ids(firewallAfter)).toEqual(ids(firewall));
    expect(certAfter.notes.map((n) => n.text)).toEqual(['Certificate list attached.']);
    expect(firewallAfter.notes.map((n) => n.text)).toEqual(['Ask the network team.']);
    expect(firewallAfter).toMatchObject({ state: 'needs_follow_up', runId: firewall.runId, absorbedIds: [] });
    expect(certAfter.absorbedIds).toEqual([]);

    const keptTrail = listTrail(h.db, { reviewedId: cert.id }).map((e) => [e.action, e.reviewer]);
    expect(keptTrail.slice(-2)).toEqual([
      ['merge', 'Bob'],
      ['split', 'Bob'],
    ]);
    const absorbedTrail = listTrail(h.db, { reviewedId: firewall.id }).slice(-2);
    expect(absorbedTrail.map((e) => [e.action, e.field, e.from, e.to])).toEqual([
      ['merge', 'merged_into', null, cert.label],
      ['merge', 'merged_into', cert.label, null],
    ]);
    // Undone once: nothing left to undo; the pair can be merged again.
    expect(() => unmergeReviewed(h!.db, { absorbId: firewall.id, reviewer: 'Bob' })).toThrow(/no merge to undo/);
    mergeReviewed(h.db, { keepId: firewall.id, absorbId: cert.id, reviewer: 'Bob' });
    expect(getReviewView(h.db, documentId).findings).toHaveLength(countBefore - 1);
  });
});
