/**
 * The workspace's host side (issue 16) against a real engine host, real SQLite and real PDFs:
 * the sample document of the first-run screen is a real PDF whose findings the demo model
 * (bridgeServer --sim) reports with verbatim, grounded evidence; a document's original file comes
 * back for the source page (and is refused once it changed); a scanned page is reported by
 * documents.health; "Automatic" names the model a run would use and embedding models are marked.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FindingView, OllamaStatus } from '../../../shared/contract';
import { createEngineHost, type EngineHost } from '../../../electron/host/engineHost';
import { renderWithPageMarkers } from '../../../electron/engine/printed/pageMarkers';
import { ingestFile } from '../../../electron/engine/pdf';
import { samplePdf } from '../../../electron/host/samplePdf';
import { makeTextPdf } from '../../fixtures/pdfFactory';
import { demoFindings, demoResponder } from '../../ollama-sim/demoResponder';
import { startOllamaSim, type OllamaSim } from '../../ollama-sim';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir();
let host: EngineHost | null = null;
let sim: OllamaSim | null = null;
afterEach(async () => {
  await host?.close();
  await sim?.close();
  host = null;
  sim = null;
});

async function call<T>(command: string, input: unknown): Promise<T> {
  const result = await host!.invoke(command, input);
  if (!result.ok) throw new Error(`${command}: ${result.error.code} ${result.error.message}`);
  return result.data as T;
}

describe('the demo model answers from the document itself', () => {
  it('finds the sample report’s three findings with their stated severities and verbatim first sentences', async () => {
    const dir = tempDir();
    const path = join(dir, 'sample.pdf');
    writeFileSync(path, samplePdf());
    const { document: doc } = await ingestFile(path);
    const chunk = renderWithPageMarkers(doc, 0, doc.text.length, 1);
    const found = demoFindings(chunk);
    expect(found.map((f) => [f.id, f.severity, f.page])).toEqual([
      ['SAMPLE-001', 'High', 1],
      ['SAMPLE-002', 'Medium', 2],
      ['SAMPLE-003', 'Low', 2],
    ]);
    for (const f of found) expect(doc.text).toContain(f.evidence);
    expect(found[0]!.evidence).toBe('The portal stores user passwords as unsalted SHA-1 hashes in the accounts table.');
    // The heading that only mentions an ID out of scope is not a finding.
    expect(found.some((f) => f.id === 'CR-2041')).toBe(false);
  });

  it('runs the full pipeline on the sample through the simulator: grounded findings, CR-2041 left as an unreviewed mention', async () => {
    sim = await startOllamaSim({ responder: demoResponder });
    host = createEngineHost({ dataDir: tempDir(), appVersion: 'test' });
    await call('settings.update', { ollamaHost: sim.url });
    const sample = await call<{ name: string; bytes: string }>('documents.sample', {});
    const imported = await call<{ runId: number }>('documents.import', { files: [{ name: sample.name, bytes: sample.bytes }] });
    expect(imported.runId).toBe(1);
    await host.idle();
    const findings = await call<FindingView[]>('findings.list', { documentId: 1 });
    expect(findings.map((f) => f.findingKey).sort()).toEqual(['SAMPLE-001', 'SAMPLE-002', 'SAMPLE-003']);
    expect(findings.every((f) => f.grounded)).toBe(true);
    const analysis = await call<{ unreviewedMentions: { id: string }[] }>('documents.analysis', { documentId: 1 });
    expect(analysis.unreviewedMentions.map((m) => m.id)).toEqual(['CR-2041']);

    // The HTML report opens with an executive summary (before the contents): severities, grounded share, review states that add up.
    await call('settings.update', { reviewerName: 'A. Auditor' });
    const review = await call<{ findings: { id: number; findingKey: string }[] }>('review.get', { documentId: 1 });
    const byKey = (key: string) => review.findings.find((f) => f.findingKey === key)!.id;
    await call('review.setState', { reviewedId: byKey('SAMPLE-001'), state: 'confirmed' });
    await call('review.setState', { reviewedId: byKey('SAMPLE-003'), state: 'rejected', reason: 'Accepted risk' });
    const exported = await call<{ path: string }>('reports.export', { runId: 1, format: 'html' });
    const page = readFileSync(exported.path, 'utf8');
    const summaryAt = page.indexOf('data-section="executive-summary"');
    expect(summaryAt).toBeGreaterThan(0);
    expect(summaryAt).toBeLessThan(page.indexOf('class="toc"'));
    const summary = page.slice(summaryAt, page.indexOf('</section>', summaryAt));
    expect(summary).toContain('3 findings in 1 document; 3 grounded in the source text (100%).');
    expect([...summary.matchAll(/<tr><td>(\w+)<\/td><td>(\d+)<\/td><\/tr>/g)].map((m) => `${m[1]}:${m[2]}`)).toEqual(['High:1', 'Medium:1', 'Low:1']);
    expect(summary).toContain('Review: 1 confirmed, 1 rejected, 0 need follow-up, 1 not reviewed yet (3 in all).');
    expect(summary).toContain('1 ID mentioned in the documents no finding covers');
    expect(page).toMatch(/<dt>Generated<\/dt><dd><time datetime="[^"]+">\d{1,2} \w+ \d{4}(,| at) \d{2}:\d{2} UTC<\/time>/);
  });
});

describe('workspace read models', () => {
  it('returns the original PDF of a document, and refuses it once the file changed', async () => {
    host = createEngineHost({ dataDir: tempDir(), appVersion: 'test' });
    const dir = tempDir();
    const path = join(dir, 'report.pdf');
    const bytes = await makeTextPdf({ title: 'R', pages: [{ blocks: [{ kind: 'body', lines: ['Some text on a page of the report.'] }] }] });
    writeFileSync(path, bytes);
    await call('runs.start', { files: [path], mode: 'rules-only' });
    await host.idle();
    const file = await call<{ kind: string; bytes: string; fileName: string }>('documents.file', { documentId: 1 });
    expect(file).toMatchObject({ kind: 'pdf', fileName: 'report.pdf' });
    expect(Buffer.from(file.bytes, 'base64').equals(readFileSync(path))).toBe(true);

    writeFileSync(path, Buffer.concat([readFileSync(path), Buffer.from('\n% changed\n')]));
    const refused = await host.invoke('documents.file', { documentId: 1 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'SOURCE_FILE_CHANGED' } });
    expect(await host.invoke('documents.file', { documentId: 99 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('tells pages OCR found no words on (blank, pictures only) from pages left without text', async () => {
    host = createEngineHost({ dataDir: tempDir(), appVersion: 'test' });
    const path = join(tempDir(), 'scanned.pdf');
    const text = { blocks: [{ kind: 'body' as const, lines: ['A page with a text layer, as most are.'] }] };
    writeFileSync(path, await makeTextPdf({ title: 'S', pages: [text, { blocks: [] }, { blocks: [] }, text] }));
    await call('runs.start', { files: [path], mode: 'rules-only' });
    await host.idle();
    // OCR (automatic) read the two empty pages and found no words: nothing on them was lost.
    expect(await call('documents.health', { documentId: 1 })).toEqual({
      documentId: 1,
      pagesWithoutText: [],
      picturePages: [2, 3],
      unreadablePages: [],
      failedChunks: 0,
      failedChunkPages: [],
    });
    // With OCR off they are pages without text, which the analysis could not see.
    await call('settings.update', { ocrMode: 'off' });
    const other = join(tempDir(), 'scanned-again.pdf');
    writeFileSync(other, await makeTextPdf({ title: 'S2', pages: [text, { blocks: [] }, { blocks: [] }, text] }));
    await call('runs.start', { files: [other], mode: 'rules-only' });
    await host.idle();
    expect(await call('documents.health', { documentId: 2 })).toEqual({
      documentId: 2,
      pagesWithoutText: [2, 3],
      picturePages: [],
      unreadablePages: [],
      failedChunks: 0,
      failedChunkPages: [],
    });
  });

  it('names the model "Automatic" picks on this server and marks embedding models', async () => {
    sim = await startOllamaSim({});
    host = createEngineHost({ dataDir: tempDir(), appVersion: 'test' });
    const status = await call<OllamaStatus>('ollama.check', { host: sim.url });
    expect(status.reachable).toBe(true);
    const names = status.models.map((m) => m.name);
    expect(names).toContain('qwen3:8b');
    expect(status.automatic?.extract).toBe('qwen3:8b');
    for (const m of status.models) expect(m.embedding).toBe(/embed/.test(m.name));
  });
});
