import { REPORT_JSON_VERSION } from '../../../electron/engine/report';
/**
 * The review and export commands of the host over a real full run (the
 * planted report through the Ollama simulator): the reviewer name comes from
 * the settings and a change without one is refused; state, edit, note,
 * acknowledge, split, merge, manual findings and the trail go through the
 * contract; reports are written to the exports folder and carry the review.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, itNeeding } from '../../helpers/requirements';
import type { ExportResult, ReviewViewResult } from '../../../shared/contract';
import type { TrailEntry } from '../../../shared/review';
import { createEngineHost, type EngineHost } from '../../../electron/host/engineHost';
import { useTempDir } from '../../helpers/tempDir';
import { startOllamaSim, type OllamaSim } from '../../ollama-sim';
import { plantedPdf, scriptedModel } from '../../e2e/plantedPipeline';
import { call } from '../../helpers/host';

const tempDir = useTempDir('audit-host-review-');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

let host: EngineHost;
let sim: OllamaSim;
let runId: number;
const documentId = 1;

beforeAll(async () => {
  sim = await startOllamaSim({ responder: scriptedModel().responder });
  host = createEngineHost({ dataDir: tempDir(), appVersion: 't' });
  await call(host, 'settings.update', { ollamaHost: sim.url, strategy: 'pages', useJudge: false });
  runId = (await call<{ runId: number }>(host, 'documents.import', { files: [{ name: 'planted.pdf', bytes: b64(await plantedPdf()) }] })).runId;
  await host.idle();
});

afterAll(async () => {
  await host?.close();
  await sim?.close();
});

describe('engine host: review commands', () => {
  it('serves the review view with counters and evidence in context, and refuses changes until a reviewer name is set', async () => {
    const view = await call<ReviewViewResult>(host, 'review.get', { documentId });
    expect(view.runId).toBe(runId);
    expect(view.findings.length).toBeGreaterThan(5);
    expect(view.counters.leftToReview).toBe(view.findings.length);
    const first = view.findings.find((f) => f.grounded)!;
    const context = view.context[first.id]!;
    expect(context.text.length).toBeGreaterThan(0);
    expect(typeof context.before).toBe('string');

    const refused = await host.invoke('review.setState', { reviewedId: first.id, state: 'confirmed' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'REVIEWER_NAME_MISSING', details: { setting: 'reviewerName' } } });
    expect(refused.ok ? '' : refused.error.message).toMatch(/reviewer name in Settings/);
    expect(await host.invoke('review.setState', { reviewedId: first.id, state: 'maybe' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await host.invoke('review.get', { documentId: 99 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('confirms, rejects with a reason, edits beside the original, notes, and lists the trail with who and when', async () => {
    await call(host, 'settings.update', { reviewerName: 'A. Auditor' });
    const view = await call<ReviewViewResult>(host, 'review.get', { documentId });
    const [a, b] = view.findings.filter((f) => f.grounded);
    let after = await call<ReviewViewResult>(host, 'review.setState', { reviewedId: a!.id, state: 'confirmed' });
    expect(after.findings.find((f) => f.id === a!.id)!.state).toBe('confirmed');
    expect(await host.invoke('review.setState', { reviewedId: b!.id, state: 'rejected' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/reason/) },
    });
    after = await call<ReviewViewResult>(host, 'review.setState', { reviewedId: b!.id, state: 'rejected', reason: 'Not a finding: an example' });
    expect(after.findings.find((f) => f.id === b!.id)).toMatchObject({ state: 'rejected', rejectReason: 'Not a finding: an example' });
    after = await call<ReviewViewResult>(host, 'review.edit', { reviewedId: a!.id, values: { title: 'Edited title', severity: 'Critical' } });
    const edited = after.findings.find((f) => f.id === a!.id)!;
    expect(edited.effective.title).toBe('Edited title');
    expect(edited.original.title).toBe(a!.original.title);
    expect(edited.edited.sort()).toEqual(['severity', 'title']);
    after = await call<ReviewViewResult>(host, 'review.note', { reviewedId: a!.id, text: 'Seen in the ticket system.' });
    expect(after.findings.find((f) => f.id === a!.id)!.notes.map((n) => [n.reviewer, n.text])).toEqual([['A. Auditor', 'Seen in the ticket system.']]);
    expect(after.counters).toMatchObject({ confirmed: 1, rejected: 1, leftToReview: view.findings.length - 2 });

    const trail = await call<TrailEntry[]>(host, 'review.trail', { reviewedId: a!.id });
    const human = trail.filter((t) => t.reviewer === 'A. Auditor');
    expect(human.map((t) => [t.action, t.field])).toEqual([
      ['state', 'state'],
      ['edit', 'title'],
      ['edit', 'severity'],
      ['note', 'notes'],
    ]);
    expect(human[1]).toMatchObject({ from: a!.original.title, to: 'Edited title' });
    expect((await call<TrailEntry[]>(host, 'review.trail', { documentId })).length).toBeGreaterThan(human.length);
  });

  it('splits a merged finding by its sources, merges two findings back, and adds a manual finding from canonical offsets', async () => {
    const view = await call<ReviewViewResult>(host, 'review.get', { documentId });
    const multi = view.findings.find((f) => f.sources.length > 1 && f.state === 'new')!;
    expect(multi).toBeDefined();
    const moving = [multi.sources.at(-1)!.findingId];
    const split = await call<ReviewViewResult & { createdId: number }>(host, 'review.split', { reviewedId: multi.id, findingIds: moving });
    const created = split.findings.find((f) => f.id === split.createdId)!;
    expect(created).toMatchObject({ origin: 'split', splitFromId: multi.id });
    expect(created.sources.map((s) => s.findingId)).toEqual(moving);
    expect(split.findings.find((f) => f.id === multi.id)!.sources).toHaveLength(multi.sources.length - 1);

    const merged = await call<ReviewViewResult>(host, 'review.merge', { keepId: multi.id, absorbId: split.createdId });
    expect(merged.findings.some((f) => f.id === split.createdId)).toBe(false);
    expect(merged.findings.find((f) => f.id === multi.id)!.sources).toHaveLength(multi.sources.length);
    expect(await host.invoke('review.merge', { keepId: multi.id, absorbId: multi.id })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });

    // Each of these can be taken back through the contract: the merge, then the split, then a note.
    const unmerged = await call<ReviewViewResult>(host, 'review.unmerge', { absorbId: split.createdId });
    expect(unmerged.findings.find((f) => f.id === split.createdId)!.sources.map((s) => s.findingId)).toEqual(moving);
    const unsplit = await call<ReviewViewResult>(host, 'review.undoSplit', { reviewedId: split.createdId });
    expect(unsplit.findings.some((f) => f.id === split.createdId)).toBe(false);
    expect(unsplit.findings.find((f) => f.id === multi.id)!.sources).toHaveLength(multi.sources.length);
    expect(await host.invoke('review.undoSplit', { reviewedId: multi.id })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const noted = await call<ReviewViewResult & { noteId: number }>(host, 'review.note', { reviewedId: multi.id, text: 'On the wrong finding.' });
    expect(noted.findings.find((f) => f.id === multi.id)!.notes.map((n) => n.text)).toContain('On the wrong finding.');
    const removed = await call<ReviewViewResult>(host, 'review.removeNote', { noteId: noted.noteId });
    expect(removed.findings.find((f) => f.id === multi.id)!.notes.map((n) => n.text)).not.toContain('On the wrong finding.');
    const trail = await call<TrailEntry[]>(host, 'review.trail', { reviewedId: multi.id });
    expect(trail.slice(-5).map((e) => e.action)).toEqual(['merge', 'split', 'merge', 'note', 'note']);

    const tree = await call<{ nodes: { index: number; isLeaf: boolean }[] }>(host, 'tree.get', { documentId });
    const leaf = tree.nodes.find((n) => n.isLeaf)!;
    const chunk = await call<{ start: number; text: string }>(host, 'chunk.text', { documentId, nodeIndex: leaf.index });
    const offset = chunk.text.indexOf(' Audit Report');
    expect(offset).toBeGreaterThan(0);
    const manual = await call<ReviewViewResult & { createdId: number }>(host, 'review.addManual', {
      documentId,
      start: chunk.start + offset,
      end: chunk.start + offset + ' Audit Report'.length,
      title: 'Report title lacks a date',
      severity: 'Low',
      type: 'observation',
      description: 'Added by hand.',
    });
    const added = manual.findings.find((f) => f.id === manual.createdId)!;
    // Outer whitespace is trimmed; the evidence is the document's own text.
    expect(added).toMatchObject({ origin: 'manual', grounded: true, manualEvidence: { text: 'Audit Report' } });
    expect(manual.context[added.id]!.text).toBe('Audit Report');
    expect(await host.invoke('review.addManual', { documentId, start: 5, end: 4, title: 'x', severity: '', type: '', description: '' })).toMatchObject({
      ok: false,
    });
  });
});

describe('engine host: reports.export', () => {
  itNeeding([CHROMIUM], 'writes a PDF (headless Chromium) to the exports folder, confirmedOnly in its name', async () => {
    const pdf = await call<ExportResult>(host, 'reports.export', { runId, format: 'pdf', confirmedOnly: true });
    expect(pdf.path.startsWith(join(host.dataDir, 'exports'))).toBe(true);
    expect(readFileSync(pdf.path).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.fileName).toMatch(/^audit-run-\d+-confirmed-.*\.pdf$/);
  });

  it('writes md, json and csv to the exports folder, with the review, and confirmedOnly keeps only confirmed findings', async () => {
    const md = await call<ExportResult>(host, 'reports.export', { runId, format: 'md' });
    expect(md.path.startsWith(join(host.dataDir, 'exports'))).toBe(true);
    expect(existsSync(md.path)).toBe(true);
    expect(md.bytes).toBe(readFileSync(md.path).length);
    const text = readFileSync(md.path, 'utf8');
    expect(text).toMatch(/### Review \(1 confirmed, 1 rejected/);
    expect(text).toContain('Not a finding: an example');

    const json = await call<ExportResult>(host, 'reports.export', { runId, documentId, format: 'json', confirmedOnly: true });
    expect(json).toMatchObject({ documentId, confirmedOnly: true, format: 'json' });
    const report = JSON.parse(readFileSync(json.path, 'utf8')) as {
      version: number;
      confirmedOnly: boolean;
      inputs: { document: { findings: { review: { state: string; edits: unknown[] }[] }[]; review: { counts: { rejected: number } } } }[];
    };
    expect(report).toMatchObject({ version: REPORT_JSON_VERSION, confirmedOnly: true });
    const doc = report.inputs[0]!.document;
    expect(doc.findings).toHaveLength(1);
    expect(doc.findings[0]!.review[0]!.state).toBe('confirmed');
    expect(doc.findings[0]!.review[0]!.edits).toHaveLength(2);
    expect(doc.review.counts.rejected).toBe(1);

    const csv = await call<ExportResult>(host, 'reports.export', { runId, format: 'csv' });
    const rows = Papa.parse<Record<string, string>>(readFileSync(csv.path, 'utf8'), { header: true, skipEmptyLines: true }).data;
    expect(rows.find((r) => r.review_state === 'rejected')!.reject_reason).toBe('Not a finding: an example');
    expect(rows.filter((r) => r.origin === 'manual')).toHaveLength(1);

    expect(await host.invoke('reports.export', { runId, format: 'docx' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await host.invoke('reports.export', { runId: 99, format: 'md' })).toMatchObject({ ok: false, error: { code: 'RUN_NOT_FOUND' } });
  });
});
