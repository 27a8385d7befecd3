/**
 * Where a finding's ID comes from, and the merge conflicts, through a real pipeline run and every report
 * format: an ID the document prints is the document's; the model's own numbering is shown as its label only;
 * a sighting that carries a printed ID but speaks of something else is kept apart and listed as a conflict.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectReportData, renderReport } from '../../../electron/engine/report';
import { listMergeConflicts } from '../../../electron/engine/merge';
import { ID_CONFLICT_PAGES as PAGES, idConflictResponder as responder } from '../../fixtures/idConflicts';
import { mergedOf, MODEL, pipelineHarness, type PipelineHarness } from '../pipeline/helpers';

describe('ID provenance and merge conflicts in the store and every report', () => {
  let h: PipelineHarness;
  let runId: number;
  beforeAll(async () => {
    h = await pipelineHarness({ responder });
    const file = join(h.dir, 'report.txt');
    writeFileSync(file, PAGES.join('\f'));
    // One page per extraction call (unitTokens 1): the scripted model answers page by page.
    const outcome = await h.engine.analyze([file], {
      strategy: 'pages',
      judge: false,
      llm: { models: { default: MODEL }, cache: false, desiredChunkTokens: 1500, replyTokens: 1024, unitTokens: 1, maxInFlight: 1 },
    });
    runId = outcome.run.id;
  });
  afterAll(async () => h.close());

  it('joins by the printed ID and by title, never by the model label; keeps the disagreeing claim apart as a conflict', () => {
    const merged = mergedOf(h.db, runId);
    const sqli = merged.filter((m) => m.title === 'SQL injection in report export');
    expect(sqli).toHaveLength(1);
    expect(sqli[0]).toMatchObject({ findingKey: 'PBI-1201', modelLabels: [] });
    expect(sqli[0]!.sources.map((s) => s.page)).toEqual([1, 2]);
    const login = merged.find((m) => m.title === 'Login rate limiting missing')!;
    expect(login).toMatchObject({ findingKey: null, printedNumber: null, modelLabels: ['F-1'] });
    expect(login.sources).toHaveLength(2);
    const odd = merged.find((m) => m.title === 'Cleartext passwords in the deployment archive')!;
    expect(odd.findingKey).toBe('PBI-1201');
    const conflicts = listMergeConflicts(h.db, runId);
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({ kind: 'id', key: 'PBI-1201' });
    expect(new Set(conflicts[0]!.mergedIds)).toEqual(new Set([sqli[0]!.id, odd.id]));
  });

  it('says where each ID comes from and lists the conflict in Markdown, HTML, JSON and CSV', async () => {
    const data = collectReportData(h.db, runId, { appVersion: 'test', now: new Date('2026-01-01T00:00:00Z') });
    const md = String(await renderReport(data, 'md'));
    // Markdown escapes the parentheses; they render as written.
    expect(md).toContain("F-1 (model's label)");
    expect(md).toContain('given by the model only, not printed in the document');
    expect(md).toMatch(/### Merge conflicts \(1\)/);
    expect(md).toContain(
      'The document gives ID PBI-1201 to “Cleartext passwords in the deployment archive” (page 2) and “SQL injection in report export” (page 2), whose titles and evidence disagree',
    );
    const html = String(await renderReport(data, 'html'));
    expect(html).toContain('data-section="conflicts"');
    expect(html).toContain('data-id-origin="model"');
    expect(html).toContain('data-id-origin="document"');
    const json = JSON.parse(String(await renderReport(data, 'json'))) as {
      inputs: { document: { findings: { title: string; idOrigin: string; modelLabels: string[] }[]; mergeConflicts: { key: string }[] } }[];
    };
    const doc = json.inputs[0]!.document;
    expect(doc.findings.find((f) => f.title === 'Login rate limiting missing')).toMatchObject({ idOrigin: 'model', modelLabels: ['F-1'] });
    expect(doc.findings.find((f) => f.title === 'SQL injection in report export')).toMatchObject({ idOrigin: 'document' });
    expect(doc.mergeConflicts.map((c) => c.key)).toEqual(['PBI-1201']);
    const csv = String(await renderReport(data, 'csv'));
    expect(csv.split('\n')[0]).toContain('id,id_origin,model_labels');
    expect(csv).toMatch(/,model,F-1,Login rate limiting missing,/);
  });
});
