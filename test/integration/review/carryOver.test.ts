import { afterEach, describe, expect, it } from 'vitest';
import { acknowledgeChanges, addNote, carryOverReview, editField, getReviewView, listTrail, setState } from '../../../electron/engine/review';
import { plantedReport, plantedResponder, type PlantedReport } from '../../fixtures/plantedFindings';
import { byKey, byTitle, carriedOver, merged, reviewHarness, variant, type ReviewHarness } from './helpers';

let h: ReviewHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const report = plantedReport();
const RESET = 'Missing rate limiting on password reset';
const RESET_REWORDED = 'Reset emails are not rate limited';
const AUDIT_REWORDED = 'Audit log entries deletable by support operators';

/** The second model: misses INC-0042, rewords PBI-1305 and the (ID-less) password reset finding, finds CR-310 it missed before. */
function secondModel(base: PlantedReport): PlantedReport {
  return variant(base, (r) => {
    const t = (key: string) => r.truth.find((x) => x.key === key)!;
    t('INC-0042').behaviour = 'miss';
    for (const o of t('PBI-1305').occurrences)
      if (!o.tableRow) Object.assign(o, { title: AUDIT_REWORDED, description: 'Support operators can delete audit entries without approval.' });
    for (const o of t('rate-limit-reset').occurrences) o.title = RESET_REWORDED;
    const backup = t('CR-310');
    backup.behaviour = 'report';
    backup.occurrences = [
      { anchor: backup.sentence, quote: backup.sentence, title: backup.title, description: 'Backups were never restored since the migration.', statedPage: 3 },
    ];
  });
}

describe('carrying a review over to a re-run', () => {
  it('keeps state, edits and notes of matched findings, marks changed and vanished ones, adds new ones as new; idempotent', async () => {
    h = await reviewHarness(report);
    const first = await h.run();
    const docId = first.documentId;
    const v1 = getReviewView(h.db, docId);
    const sqli = byKey(v1, 'PBI-1201');
    const audit = byKey(v1, 'PBI-1305');
    const crash = byKey(v1, 'INC-0042');
    const reset = byTitle(v1, RESET);
    const cert = byKey(v1, 'PBI-1410');
    const ann = { reviewer: 'Ann Auditor' };
    setState(h.db, { reviewedId: sqli.id, state: 'confirmed', ...ann });
    editField(h.db, { reviewedId: sqli.id, field: 'severity', value: 'Critical', ...ann });
    setState(h.db, { reviewedId: audit.id, state: 'needs_follow_up', ...ann });
    addNote(h.db, { reviewedId: crash.id, text: 'Check the incident register.', ...ann });
    setState(h.db, { reviewedId: crash.id, state: 'confirmed', ...ann });
    setState(h.db, { reviewedId: reset.id, state: 'confirmed', ...ann });

    h.sim.setResponder(plantedResponder(secondModel(report)));
    const second = await h.run();
    expect(second.documentId).toBe(docId);
    expect(second.runId).not.toBe(first.runId);

    // The runner carried the review over when the re-run finished the document.
    const result = carriedOver(h, second.runId, docId);
    expect(result.fromRunId).toBe(first.runId);
    expect(result.vanished).toEqual([crash.id]);
    expect(result.changed.sort()).toEqual([audit.id, reset.id].sort());
    expect(result.created).toHaveLength(1);
    const matchedRule = (id: number) => result.matched.find((m) => m.reviewedId === id)?.rule;
    expect(matchedRule(sqli.id)).toBe('id');
    expect(matchedRule(audit.id)).toBe('id');
    // No ID: matched by where its evidence is, although the title changed.
    expect(matchedRule(reset.id)).toBe('position');

    const v2 = getReviewView(h.db, docId);
    expect(v2.runId).toBe(second.runId);
    const m2 = merged(h, second.runId);
    // Every merged finding of the new run is stood for by exactly one reviewed finding.
    const linked = v2.findings.filter((f) => !f.vanished).flatMap((f) => f.mergedIds);
    expect(linked.sort((a, b) => a - b)).toEqual(m2.map((m) => m.id).sort((a, b) => a - b));

    // Matched, unchanged: state and edit carried over, linked to the new run.
    const sqli2 = v2.findings.find((f) => f.id === sqli.id)!;
    expect(sqli2).toMatchObject({ state: 'confirmed', runId: second.runId, carriedFromRunId: first.runId, changedFields: [], vanished: false });
    expect(sqli2.effective.severity).toBe('Critical');
    expect(sqli2.original.severity).toBe('High');
    expect(sqli2.mergedIds).toEqual([m2.find((m) => m.findingKey === 'PBI-1201')!.id]);

    // Changed: the reviewed originals stay, the model's new values are shown beside them.
    const audit2 = v2.findings.find((f) => f.id === audit.id)!;
    expect(audit2.state).toBe('needs_follow_up');
    // The description is the document's sentence around the same quote (printed/sourceDescription.ts): the model's
    // rewording of it is not asked for, so only the title changed.
    expect(audit2.changedFields).toEqual(['title']);
    expect(audit2.original.title).toBe('Audit log can be deleted by operators');
    expect(audit2.latestModel?.title).toBe(AUDIT_REWORDED);
    expect(
      listTrail(h.db, { reviewedId: audit.id })
        .filter((e) => e.action === 'changed')
        .map((e) => [e.field, e.to]),
    ).toEqual([['title', AUDIT_REWORDED]]);
    const reset2 = v2.findings.find((f) => f.id === reset.id)!;
    expect(reset2).toMatchObject({ state: 'confirmed', changedFields: ['title'], original: { title: RESET }, latestModel: { title: RESET_REWORDED } });

    // Vanished: still shown, with its state, notes and its last run's sources.
    const crash2 = v2.findings.find((f) => f.id === crash.id)!;
    expect(crash2).toMatchObject({ vanished: true, vanishedInRunId: second.runId, state: 'confirmed', runId: first.runId });
    expect(crash2.notes.map((n) => n.text)).toEqual(['Check the incident register.']);
    expect(crash2.sources.length).toBeGreaterThan(0);

    // New in the re-run: state new.
    const backup = v2.findings.find((f) => f.id === result.created[0])!;
    expect(backup).toMatchObject({ findingKey: 'CR-310', state: 'new', carriedFromRunId: null, origin: 'model' });

    // Untouched and unchanged findings just follow the new run.
    expect(v2.findings.find((f) => f.id === cert.id)).toMatchObject({ state: 'new', runId: second.runId, changedFields: [] });
    expect(v2.counters).toMatchObject({ vanished: 1, changed: 2, confirmed: 3, needsFollowUp: 1 });
    expect(v2.counters.leftToReview).toBe(v2.counters.new + 2); // audit and reset: reviewed, then changed by the re-run

    // Idempotent: again changes nothing and writes no trail entry.
    const trail = listTrail(h.db, { documentId: docId }).length;
    const again = carryOverReview(h.db, { documentId: docId, toRunId: second.runId });
    expect(again).toMatchObject({ changed: [], vanished: [], created: [], reappeared: [] });
    expect(listTrail(h.db, { documentId: docId })).toHaveLength(trail);
    expect(getReviewView(h.db, docId).findings).toHaveLength(v2.findings.length);

    // The auditor acknowledges a change: the new model values become the originals, the edit-free finding shows them.
    acknowledgeChanges(h.db, { reviewedId: reset.id, ...ann });
    const reset3 = byTitle(getReviewView(h.db, docId), RESET_REWORDED);
    expect(reset3).toMatchObject({ id: reset.id, changedFields: [], effective: { title: RESET_REWORDED } });
    expect(listTrail(h.db, { reviewedId: reset.id }).at(-1)).toMatchObject({
      action: 'acknowledge',
      field: 'title',
      from: RESET,
      to: RESET_REWORDED,
      reviewer: 'Ann Auditor',
    });
  });

  it('carries over automatically when the view is opened after a re-run, and brings a vanished finding back', async () => {
    h = await reviewHarness(report);
    const first = await h.run();
    const crash = byKey(getReviewView(h.db, first.documentId), 'INC-0042');
    setState(h.db, { reviewedId: crash.id, state: 'confirmed', reviewer: 'Ann' });

    h.sim.setResponder(plantedResponder(secondModel(report)));
    const second = await h.run();
    const v2 = getReviewView(h.db, first.documentId);
    expect(v2.runId).toBe(second.runId);
    expect(v2.findings.find((f) => f.id === crash.id)).toMatchObject({ vanished: true, state: 'confirmed' });

    h.sim.setResponder(plantedResponder(report));
    const third = await h.run();
    const v3 = getReviewView(h.db, first.documentId);
    expect(v3.runId).toBe(third.runId);
    expect(v3.findings.find((f) => f.id === crash.id)).toMatchObject({
      vanished: false,
      state: 'confirmed',
      runId: third.runId,
      carriedFromRunId: first.runId,
    });
    expect(listTrail(h.db, { reviewedId: crash.id }).map((e) => e.action)).toEqual(['create', 'state', 'vanished', 'reappeared']);
    // CR-310 vanished again in the third run (it was new and untouched in the second).
    expect(byKey(v3, 'CR-310').vanished).toBe(true);
  });
});
