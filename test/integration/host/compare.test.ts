/**
 * The comparison commands of the host (the app's Compare place) over two generated report versions analysed
 * through the simulator: a status the rules cannot read is asked of the model in one grounded call, where
 * runs go (the Ollama host of Settings), with the quote checked against the finding's section; when that
 * call cannot be made, the comparison is still given as the rules read it, with the reason beside it. A
 * stored comparison is exported to the exports folder in each format.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareExportResult, Comparison } from '../../../shared/compare';
import type { DocumentSummary } from '../../../shared/contract';
import { createEngineHost, type EngineHost } from '../../../electron/host/engineHost';
import { makeTextPdf } from '../../fixtures/pdfFactory';
import { sentenceStatusPair, statusQuoteResponder, versionSpec } from '../../fixtures/reportPairs';
import { CHROMIUM, itNeeding } from '../../helpers/requirements';
import { useTempDir } from '../../helpers/tempDir';
import { startOllamaSim, type OllamaSim } from '../../ollama-sim';
import { call } from '../../helpers/host';

const tempDir = useTempDir('audit-host-compare-');

let host: EngineHost;
let sim: OllamaSim;
let ids: { earlier: number; later: number };

beforeAll(async () => {
  sim = await startOllamaSim({ responder: statusQuoteResponder });
  host = createEngineHost({ dataDir: tempDir(), appVersion: 't' });
  await call(host, 'settings.update', { ollamaHost: sim.url, strategy: 'headings', useJudge: false });
  const pair = sentenceStatusPair();
  for (const [name, version, seed] of [
    ['retest-1.pdf', pair.earlier, 1],
    ['retest-2.pdf', pair.later, 2],
  ] as const) {
    await call(host, 'documents.import', { files: [{ name, bytes: Buffer.from(await makeTextPdf(versionSpec(version, seed))).toString('base64') }] });
    await host.idle();
  }
  const documents = await call<DocumentSummary[]>(host, 'documents.list');
  ids = { earlier: documents.find((d) => d.fileName === 'retest-1.pdf')!.id, later: documents.find((d) => d.fileName === 'retest-2.pdf')!.id };
}, 120_000);

afterAll(async () => {
  await host?.close();
  await sim?.close();
});

const statusCalls = () => sim.requests.filter((r) => JSON.stringify(r.format ?? null).includes('"statuses"')).length;

describe('engine host: compare commands', () => {
  it('compare.run reads a status worded in a sentence by one grounded model call; an invented quote is dropped', async () => {
    const before = statusCalls();
    const c = await call<Comparison>(host, 'compare.run', { earlierDocumentId: ids.earlier, laterDocumentId: ids.later });
    expect(statusCalls()).toBe(before + 1);
    expect(c.pairs.find((p) => p.earlier?.id === 'KITE-1')!.statedStatus).toMatchObject({
      text: 'fixed',
      source: 'model',
      quote: 'After the review the developers fixed the issue in commit 4f2a.',
      page: 2,
    });
    // The model claimed "Status: Resolved" for KITE-2; the document does not say it: nothing is shown.
    expect(c.pairs.find((p) => p.earlier?.id === 'KITE-2')!.statedStatus).toBeNull();
    expect(c.modelStatus).toEqual({ model: 'qwen3:8b', read: 1, dropped: 1, problem: null });
    expect(c.summary).toMatchObject({ resolved: 1, stillOpen: 1 });
  });

  it('rules-only makes no model call', async () => {
    const before = statusCalls();
    const c = await call<Comparison>(host, 'compare.run', { earlierDocumentId: ids.earlier, laterDocumentId: ids.later, mode: 'rules-only' });
    expect(statusCalls()).toBe(before);
    expect(c.modelStatus).toBeUndefined();
  });

  it('with the model out of reach, the comparison is still given as the rules read it, with the reason', async () => {
    await call(host, 'settings.update', { ollamaHost: 'http://127.0.0.1:9' });
    try {
      const c = await call<Comparison>(host, 'compare.run', { earlierDocumentId: ids.earlier, laterDocumentId: ids.later });
      expect(c.pairs.map((p) => [p.earlier?.id, p.later?.id, p.label, p.statedStatus])).toEqual([
        ['KITE-1', 'KITE-1', 'still_present', null],
        ['KITE-2', 'KITE-2', 'still_present', null],
      ]);
      expect(c.modelStatus).toMatchObject({ model: 'qwen3:8b', read: 0, dropped: 0, problem: expect.stringMatching(/^OLLAMA_UNREACHABLE: /) });
    } finally {
      await call(host, 'settings.update', { ollamaHost: sim.url });
    }
  }, 60_000);

  it('compare.export writes the stored comparison to the exports folder: Markdown, HTML, CSV and JSON (valid by its schema)', async () => {
    const c = await call<Comparison>(host, 'compare.run', { earlierDocumentId: ids.earlier, laterDocumentId: ids.later });
    const written = async (format: string) => {
      const result = await call<CompareExportResult>(host, 'compare.export', { comparisonId: c.id, format });
      expect(result).toMatchObject({ comparisonId: c.id, format });
      expect(result.path.startsWith(join(host.dataDir, 'exports'))).toBe(true);
      expect(readFileSync(result.path).length).toBe(result.bytes);
      return readFileSync(result.path, 'utf8');
    };
    expect(await written('md')).toContain('| Resolved (as the later document states) | 1 |');
    expect(await written('html')).toContain('After the review the developers fixed the issue in commit 4f2a.');
    expect((await written('csv')).trim().split('\r\n')).toHaveLength(3);
    const json = JSON.parse(await written('json')) as { pairs: unknown[]; model_status: unknown };
    const schema = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../docs/compare.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ allErrors: true }).compile(schema);
    expect(validate(json) ? [] : validate.errors).toEqual([]);
    expect(json.model_status).toEqual({ model: 'qwen3:8b', read: 1, dropped: 1, problem: null });

    const missing = await host.invoke('compare.export', { comparisonId: 9999, format: 'md' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'COMPARISON_NOT_FOUND' } });
    const badFormat = await host.invoke('compare.export', { comparisonId: c.id, format: 'docx' });
    expect(badFormat).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  itNeeding([CHROMIUM], 'compare.export prints the comparison to PDF', async () => {
    const c = await call<Comparison>(host, 'compare.run', { earlierDocumentId: ids.earlier, laterDocumentId: ids.later, mode: 'rules-only' });
    const result = await call<CompareExportResult>(host, 'compare.export', { comparisonId: c.id, format: 'pdf' });
    expect(readFileSync(result.path).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
