import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addNote, editField, getReviewSummary, getReviewView, getRunModels, getRunReview, listTrail, setState } from '../../../electron/engine/review';
import { addRunEvent } from '../../../electron/engine/store';
import { byKey, byTitle, merged, reviewHarness, type ReviewHarness } from './helpers';

let h: ReviewHarness;
let runId: number;
let documentId: number;

beforeAll(async () => {
  h = await reviewHarness();
  ({ runId, documentId } = await h.run());
});
afterAll(async () => {
  await h?.close();
});

describe('review trail and edits (real pipeline run, real SQLite file)', () => {
  it('starts every merged finding of the run as a reviewed finding in state new', () => {
    const view = getReviewView(h.db, documentId);
    const model = merged(h, runId);
    expect(view.runId).toBe(runId);
    expect(view.findings).toHaveLength(model.length);
    expect(view.findings.every((f) => f.state === 'new' && f.origin === 'model' && f.runId === runId)).toBe(true);
    expect(view.counters).toMatchObject({ total: model.length, new: model.length, leftToReview: model.length, open: model.length, vanished: 0 });
    const sqli = byKey(view, 'PBI-1201');
    const m = model.find((x) => x.findingKey === 'PBI-1201')!;
    expect(sqli.mergedIds).toEqual([m.id]);
    expect(sqli.sources.map((s) => s.findingId).sort()).toEqual(m.sources.map((s) => s.findingId).sort());
    expect(sqli.mainPage).toBe(2);
    // Reading again changes nothing (no second carry-over, no new trail entries).
    const trail = listTrail(h.db, { documentId }).length;
    getReviewView(h.db, documentId);
    expect(listTrail(h.db, { documentId })).toHaveLength(trail);
  });

  it('records every edit with from/to, keeps the originals readable and never touches model output', () => {
    const before = byKey(getReviewView(h.db, documentId), 'PBI-1201');
    const modelBefore = h.db.prepare('SELECT * FROM merged_findings WHERE id = ?').get(before.mergedIds[0]!);
    editField(h.db, {
      reviewedId: before.id,
      field: 'title',
      value: 'SQL injection in report export (customer filter)',
      reviewer: 'Ann Auditor',
      now: '2025-01-01T10:00:00.000Z',
    });
    editField(h.db, { reviewedId: before.id, field: 'severity', value: 'Critical', reviewer: 'Ann Auditor', now: '2025-01-01T10:01:00.000Z' });
    editField(h.db, {
      reviewedId: before.id,
      field: 'title',
      value: 'SQL injection in report export',
      reviewer: 'Bob Reviewer',
      now: '2025-01-01T10:02:00.000Z',
    });
    // Same value again: nothing to record.
    editField(h.db, { reviewedId: before.id, field: 'severity', value: 'Critical', reviewer: 'Ann Auditor' });

    const after = byKey(getReviewView(h.db, documentId), 'PBI-1201');
    expect(after.effective).toMatchObject({ title: 'SQL injection in report export', severity: 'Critical' });
    expect(after.original).toEqual(before.original);
    expect(after.original.title).toBe('SQL injection in the report export module');
    expect(after.edited.sort()).toEqual(['severity', 'title']);
    expect(after.severityRank).toBe(0);
    expect(after.lastChange).toEqual({ reviewer: 'Bob Reviewer', at: '2025-01-01T10:02:00.000Z', action: 'edit' });
    expect(h.db.prepare('SELECT * FROM merged_findings WHERE id = ?').get(before.mergedIds[0]!)).toEqual(modelBefore);

    const edits = listTrail(h.db, { reviewedId: before.id }).filter((e) => e.action === 'edit');
    expect(edits.map((e) => [e.reviewer, e.field, e.from, e.to])).toEqual([
      ['Ann Auditor', 'title', 'SQL injection in the report export module', 'SQL injection in report export (customer filter)'],
      ['Ann Auditor', 'severity', 'High', 'Critical'],
      ['Bob Reviewer', 'title', 'SQL injection in report export (customer filter)', 'SQL injection in report export'],
    ]);
    expect(edits[0]!.at).toBe('2025-01-01T10:00:00.000Z');

    // Editing back to the model value removes the edit (recorded too).
    editField(h.db, { reviewedId: before.id, field: 'severity', value: null, reviewer: 'Ann Auditor' });
    const reverted = byKey(getReviewView(h.db, documentId), 'PBI-1201');
    expect(reverted.effective.severity).toBe('High');
    expect(reverted.edited).toEqual(['title']);
    expect(listTrail(h.db, { reviewedId: before.id }).at(-1)).toMatchObject({ action: 'edit', field: 'severity', from: 'Critical', to: 'High' });
  });

  it('needs a reason to reject and a reviewer name for every change, and records states and notes', () => {
    const view = getReviewView(h.db, documentId);
    // Its model-given ID (PBI-9999) is printed nowhere in the document: a label, not its key.
    const invented = byTitle(view, 'Hard-coded administrator password');
    const trailBefore = listTrail(h.db, { documentId }).length;
    expect(() => setState(h.db, { reviewedId: invented.id, state: 'rejected', reviewer: 'Ann Auditor' })).toThrow(/reason/);
    expect(() => setState(h.db, { reviewedId: invented.id, state: 'rejected', reason: '   ', reviewer: 'Ann Auditor' })).toThrow(/reason/);
    expect(() => setState(h.db, { reviewedId: invented.id, state: 'confirmed', reviewer: '  ' })).toThrow(/reviewer name/);
    // The CHECK constraint holds even for a write that bypasses the API.
    expect(() => h.db.prepare("UPDATE reviewed_findings SET state = 'rejected' WHERE id = ?").run(invented.id)).toThrow(/CHECK/);
    expect(listTrail(h.db, { documentId })).toHaveLength(trailBefore);

    setState(h.db, { reviewedId: invented.id, state: 'rejected', reason: 'Not in the document: invented by the model.', reviewer: 'Ann Auditor' });
    const crash = byKey(view, 'INC-0042');
    setState(h.db, { reviewedId: crash.id, state: 'confirmed', reviewer: 'Ann Auditor' });
    setState(h.db, { reviewedId: crash.id, state: 'needs_follow_up', reviewer: 'Bob Reviewer' });
    addNote(h.db, { reviewedId: crash.id, text: 'Ask operations for the incident ticket.', reviewer: 'Bob Reviewer' });
    expect(() => addNote(h.db, { reviewedId: crash.id, text: ' ', reviewer: 'Bob Reviewer' })).toThrow(/empty/);

    const after = getReviewView(h.db, documentId);
    expect(byTitle(after, 'Hard-coded administrator password')).toMatchObject({
      state: 'rejected',
      rejectReason: 'Not in the document: invented by the model.',
    });
    expect(byKey(after, 'INC-0042').notes.map((n) => [n.reviewer, n.text])).toEqual([['Bob Reviewer', 'Ask operations for the incident ticket.']]);
    expect(after.counters).toMatchObject({ rejected: 1, needsFollowUp: 1, new: after.counters.total - 2 });
    expect(listTrail(h.db, { reviewedId: crash.id }).map((e) => [e.action, e.field, e.from, e.to])).toEqual([
      ['create', null, null, crash.original.title],
      ['state', 'state', 'new', 'confirmed'],
      ['state', 'state', 'confirmed', 'needs_follow_up'],
      ['note', 'notes', null, 'Ask operations for the incident ticket.'],
    ]);
    expect(listTrail(h.db, { reviewedId: invented.id }).at(-1)).toMatchObject({
      action: 'state',
      from: 'new',
      to: 'rejected',
      detail: 'Not in the document: invented by the model.',
    });
  });

  it('refuses UPDATE and DELETE on the trail table (append-only triggers)', () => {
    const count = listTrail(h.db, { documentId }).length;
    expect(count).toBeGreaterThan(0);
    expect(() => h.db.prepare("UPDATE review_trail SET reviewer = 'Mallory'").run()).toThrow(/append-only/);
    expect(() => h.db.prepare("UPDATE review_trail SET to_value = 'x' WHERE id = 1").run()).toThrow(/append-only/);
    expect(() => h.db.prepare('DELETE FROM review_trail WHERE id = 1').run()).toThrow(/append-only/);
    expect(() => h.db.prepare('DELETE FROM review_trail').run()).toThrow(/append-only/);
    expect(listTrail(h.db, { documentId })).toHaveLength(count);
    expect(listTrail(h.db, { documentId }).some((e) => e.reviewer === 'Mallory')).toBe(false);
  });

  it('writes a change and its trail entry in one transaction: no entry, no change', () => {
    const cert = byKey(getReviewView(h.db, documentId), 'PBI-1410');
    h.db.exec("CREATE TEMP TRIGGER fail_trail BEFORE INSERT ON main.review_trail BEGIN SELECT RAISE(ABORT, 'disk full'); END;");
    try {
      expect(() => editField(h.db, { reviewedId: cert.id, field: 'title', value: 'Edited', reviewer: 'Ann Auditor' })).toThrow(/disk full/);
      expect(() => setState(h.db, { reviewedId: cert.id, state: 'confirmed', reviewer: 'Ann Auditor' })).toThrow(/disk full/);
      expect(() => addNote(h.db, { reviewedId: cert.id, text: 'lost', reviewer: 'Ann Auditor' })).toThrow(/disk full/);
    } finally {
      h.db.exec('DROP TRIGGER temp.fail_trail');
    }
    const after = byKey(getReviewView(h.db, documentId), 'PBI-1410');
    expect(after).toMatchObject({ state: 'new', edited: [], notes: [], effective: cert.effective });
  });

  it('exports the review: counts, state, edits original -> effective, notes, reviewer and time; confirmed only on request', () => {
    const sqli = byKey(getReviewView(h.db, documentId), 'PBI-1201');
    setState(h.db, { reviewedId: sqli.id, state: 'confirmed', reviewer: 'Ann Auditor', now: '2025-01-02T09:00:00.000Z' });
    const summary = getReviewSummary(h.db, documentId);
    expect(summary.counts).toMatchObject({ confirmed: 1, rejected: 1, needsFollowUp: 1, open: summary.counts.total - 2 });
    const entry = summary.findings.find((f) => f.reviewId === sqli.id)!;
    expect(entry).toMatchObject({
      state: 'confirmed',
      lastReviewer: 'Ann Auditor',
      lastChangedAt: '2025-01-02T09:00:00.000Z',
      edits: [{ field: 'title', original: 'SQL injection in the report export module', effective: 'SQL injection in report export' }],
    });
    const confirmed = getReviewSummary(h.db, documentId, { confirmedOnly: true });
    expect(confirmed.findings.map((f) => f.reviewId)).toEqual([sqli.id]);
    expect(confirmed.counts).toEqual(summary.counts);

    // Per run, for the report exporters: merged finding id -> review.
    const runReview = getRunReview(h.db, runId);
    expect(runReview.byMergedId.get(sqli.mergedIds[0]!)).toEqual([sqli.id]);
    expect(runReview.byReviewId.get(sqli.id)!.state).toBe('confirmed');
    for (const m of merged(h, runId)) expect(runReview.byMergedId.get(m.id), m.title).toHaveLength(1);
  });

  it('reads the models a run used with the digests Ollama reported for them', () => {
    const models = getRunModels(h.db, runId);
    expect(models.logged).toBe(true);
    expect(models.numCtx).toBeGreaterThan(0);
    expect(models.complete).toBe(true);
    const extract = models.models.find((m) => m.stage === 'extract')!;
    expect(extract.name).toBe('qwen3:8b');
    // The simulator's /api/tags digest for the model, as the runner logged it.
    expect(extract.digest).toMatch(/^[0-9a-f]{64}$/);
    // A later log entry of the same shape wins (a resumed run logs again).
    addRunEvent(h.db, runId, {
      at: new Date().toISOString(),
      level: 'info',
      phase: 'ingest',
      message: 'models',
      data: { models: { extract: 'qwen3:8b' }, numCtx: 8192, digests: { 'qwen3:8b': 'sha256:abc' } },
    });
    const logged = getRunModels(h.db, runId);
    expect(logged.models.find((m) => m.stage === 'extract')).toEqual({ stage: 'extract', name: 'qwen3:8b', digest: 'sha256:abc' });
    expect(logged.numCtx).toBe(8192);
  });
});
