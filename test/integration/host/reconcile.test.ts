/**
 * The reconcile commands of the host (the app's Reconcile place) over a generated release note imported as the
 * app does (bytes of a dropped file, analysed without a model): a population dropped as bytes is read with the
 * columns proposed from the document's IDs, reconciled, reviewed with the reviewer name of the settings (kept
 * when reconciled again), exported to the exports folder; a bad file is refused with its code, nothing stored.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentSummary } from '../../../shared/contract';
import type { PopulationPreview, Reconciliation, ReconcileExportResult } from '../../../shared/reconcile';
import { createEngineHost, type EngineHost } from '../../../electron/host/engineHost';
import { makeTextPdf } from '../../fixtures/pdfFactory';
import { csvText, encryptedWorkbook, jiraExport } from '../../fixtures/populations';
import { releaseNotes } from '../../fixtures/releaseNotes';
import { call } from '../../helpers/host';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir('audit-host-reconcile-');
const notes = releaseNotes({ tableIssues: 12, listIssues: 4 });
const items = notes.truth.findings.map((f) => ({ id: f.id, title: f.title, page: f.page }));
const jira = jiraExport(items, { dropEvery: 5, rewordEvery: 4, family: 'PBI' });

let host: EngineHost;
let documentId: number;
const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

beforeAll(async () => {
  host = createEngineHost({ dataDir: tempDir(), appVersion: 't' });
  await call(host, 'settings.update', { analysisMode: 'rules-only' });
  await call(host, 'documents.import', { files: [{ name: 'notes.pdf', bytes: base64(await makeTextPdf({ pages: notes.pages })) }], mode: 'rules-only' });
  await host.idle();
  documentId = (await call<DocumentSummary[]>(host, 'documents.list')).find((d) => d.fileName === 'notes.pdf')!.id;
}, 60_000);

afterAll(async () => {
  await host?.close();
});

describe('engine host: reconcile commands', () => {
  it('reconcile.import reads a dropped CSV and proposes the key and title columns; reconcile.run ties it out', async () => {
    const preview = await call<PopulationPreview>(host, 'reconcile.import', {
      documentId,
      file: { name: 'jira.csv', bytes: base64(csvText(jira.header, jira.rows)) },
    });
    expect(preview).toMatchObject({
      file: 'jira.csv',
      kind: 'csv',
      headerRow: 1,
      columns: jira.header,
      rows: jira.rows.length,
      proposal: { keyColumn: 'Issue key', titleColumn: 'Summary' },
    });
    expect(preview.sample).toHaveLength(5);
    const r = await call<Reconciliation>(host, 'reconcile.run', { documentId, populationId: preview.populationId });
    expect(r.id).not.toBeNull();
    expect(r.counts).toMatchObject({
      matched: jira.expected.matched.size,
      onlyInPopulation: jira.expected.onlyInPopulation.length,
      onlyInDocument: jira.expected.onlyInDocument.length,
    });
    const titlesOnly = await call<Reconciliation>(host, 'reconcile.run', {
      documentId,
      populationId: preview.populationId,
      keyColumn: null,
      titleColumn: 'Summary',
    });
    expect(titlesOnly.matched.every((m) => m.by === 'title')).toBe(true);
  });

  it('reconcile.review needs a reviewer name, records the decision, and answers with the tie-out reconciled again', async () => {
    const preview = await call<PopulationPreview>(host, 'reconcile.import', {
      documentId,
      file: { name: 'jira.csv', bytes: base64(csvText(jira.header, jira.rows)) },
    });
    const r = await call<Reconciliation>(host, 'reconcile.run', { documentId, populationId: preview.populationId });
    const m = r.matched[0]!;
    const refused = await host.invoke('reconcile.review', { reconciliationId: r.id, action: 'confirm', rowKey: m.rowKey, itemKey: m.finding.key });
    expect(refused).toMatchObject({ ok: false, error: { code: 'REVIEWER_NAME_MISSING' } });
    await call(host, 'settings.update', { reviewerName: 'A. Auditor' });
    const confirmed = await call<Reconciliation>(host, 'reconcile.review', {
      reconciliationId: r.id,
      action: 'confirm',
      rowKey: m.rowKey,
      itemKey: m.finding.key,
    });
    expect(confirmed.id).not.toBe(r.id);
    expect(confirmed.matched.find((x) => x.rowKey === m.rowKey)!.review).toMatchObject({ state: 'confirmed', reviewer: 'A. Auditor' });
    const row = confirmed.onlyInPopulation[0]!;
    const noted = await call<Reconciliation>(host, 'reconcile.review', {
      reconciliationId: confirmed.id,
      action: 'note',
      rowKey: row.rowKey,
      text: 'Deferred to 7.5',
    });
    expect(noted.onlyInPopulation.find((p) => p.rowKey === row.rowKey)!.review.notes).toMatchObject([{ reviewer: 'A. Auditor', text: 'Deferred to 7.5' }]);
    const trail = await call<{ field: string | null; detail: string | null }[]>(host, 'review.trail', { documentId });
    expect(trail.filter((t) => t.field === 'tie-out').map((t) => t.detail)).toEqual([
      `jira.csv: row ${m.rowKey} ↔ ${m.finding.key}`,
      `jira.csv: row:${row.rowKey}: Deferred to 7.5`,
    ]);
  });

  it('reconcile.export writes the workpaper and each report format to the exports folder', async () => {
    const preview = await call<PopulationPreview>(host, 'reconcile.import', {
      documentId,
      file: { name: 'jira.csv', bytes: base64(csvText(jira.header, jira.rows)) },
    });
    const r = await call<Reconciliation>(host, 'reconcile.run', { documentId, populationId: preview.populationId });
    for (const format of ['xlsx', 'md', 'html', 'csv', 'json'] as const) {
      const out = await call<ReconcileExportResult>(host, 'reconcile.export', { reconciliationId: r.id, format });
      expect(out.fileName).toMatch(new RegExp(`^tie-out-${r.id}-.*\\.${format}$`));
      const bytes = readFileSync(out.path);
      expect(bytes.length).toBe(out.bytes);
      if (format === 'xlsx') expect(bytes.subarray(0, 2).toString()).toBe('PK');
      if (format === 'md') expect(bytes.toString()).toContain(`## Only in the population: rows the document never mentions (${r.counts.onlyInPopulation})`);
    }
    expect(await host.invoke('reconcile.export', { reconciliationId: 999, format: 'md' })).toMatchObject({
      ok: false,
      error: { code: 'RECONCILIATION_NOT_FOUND' },
    });
  });

  it('a bad population is refused with its code; an unanalysed document too', async () => {
    expect(await host.invoke('reconcile.import', { documentId, file: { name: 'locked.xlsx', bytes: base64(encryptedWorkbook()) } })).toMatchObject({
      ok: false,
      error: { code: 'POPULATION_PASSWORD_PROTECTED' },
    });
    expect(
      await host.invoke('reconcile.import', { documentId: 9999, file: { name: 'jira.csv', bytes: base64(csvText(jira.header, jira.rows)) } }),
    ).toMatchObject({ ok: false, error: { code: 'RECONCILE_NOT_ANALYSED' } });
    expect(await host.invoke('reconcile.run', { documentId, populationId: 9999 })).toMatchObject({ ok: false, error: { code: 'POPULATION_NOT_FOUND' } });
    const preview = await call<PopulationPreview>(host, 'reconcile.import', {
      documentId,
      file: { name: 'jira.csv', bytes: base64(csvText(jira.header, jira.rows)) },
    });
    expect(await host.invoke('reconcile.run', { documentId, populationId: preview.populationId, keyColumn: 'Ticket' })).toMatchObject({
      ok: false,
      error: { code: 'POPULATION_COLUMN_NOT_FOUND' },
    });
  });
});
