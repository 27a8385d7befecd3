/**
 * OCR benchmark: seconds per page and word accuracy on generated scans (pages
 * that are only images of known text, at 200 and 150 dpi), next to the pdf.js
 * rendering of the same pages alone (the floor under OCR: every OCR page is
 * rendered first) and a second import of the same pages (served from the OCR
 * cache); then the corpus's image-only scan through the whole pipeline with
 * the Ollama simulator; and the built CLI's peak memory on PDFs built to
 * exhaust it (300 pages with nothing on them, one 20000 x 20000 image).
 *
 * Run alone: BENCH_ONLY=ocr npm run bench
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../../electron/engine';
import { createLlmClient } from '../../electron/engine/llm';
import { createTesseractRecognizer, openForRendering } from '../../electron/engine/ocr';
import { loadExtractedDocument, openDatabase } from '../../electron/engine/store';
import { hugeImagePdf, mixedBlankPagesPdf } from '../fixtures/hostilePdfs';
import { proseLines, writeFixture } from '../fixtures/pdfFactory';
import { analyzeCliNodeArgs, runMeasured } from '../helpers/peakMemory';
import { makeScannedPdf, pageText, scannedLetterPages, wordAccuracy, type ScanPage } from '../fixtures/scanFactory';
import { schemaResponder, startOllamaSim } from '../ollama-sim/index';
import { corpusFile } from '../helpers/corpus';

const corpusScan = corpusFile('hard-scanned-no-text', 'pdf');
const fmt = (n: number, digits = 2) => n.toFixed(digits);

function generatedPages(): ScanPage[] {
  const prose = (seed: number): ScanPage => ({ lines: [`# Section ${seed}: observations`, ...proseLines(30, seed, 72)] });
  return [...scannedLetterPages(), prose(1), prose(2), prose(3), prose(4)];
}

async function renderSeconds(bytes: Uint8Array, pages: number): Promise<number> {
  const pdf = await openForRendering(bytes, 'bench.pdf');
  const started = performance.now();
  for (let page = 1; page <= pages; page++) await pdf.render(page);
  await pdf.close();
  return (performance.now() - started) / 1000;
}

export async function runOcrBench(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'ocr-bench-'));
  const figures: Record<string, number | string> = {};
  try {
    const pages = generatedPages();
    for (const dpi of [200, 150]) {
      const bytes = await makeScannedPdf(pages, { dpi, title: `bench ${dpi}` });
      const file = writeFixture(join(dir, `scan-${dpi}.pdf`), bytes);
      const db = openDatabase(join(dir, `ocr-${dpi}.sqlite`));
      const engine = createEngine({ db, appVersion: 'bench', createRecognizer: () => createTesseractRecognizer() });
      const render = await renderSeconds(bytes, pages.length);
      let started = performance.now();
      const outcome = await engine.analyze([file], { mode: 'rules-only' });
      const ocrSeconds = (performance.now() - started) / 1000;
      const doc = loadExtractedDocument(db, outcome.inputs[0]!.documentId!)!;
      const accuracies = pages.map((page, i) => wordAccuracy(pageText(page), doc.text.slice(doc.pages[i]!.start, doc.pages[i]!.end)));
      const confidences = doc.pages.map((p) => p.ocrConfidence ?? 0);
      // The same scan under another name and metadata: a new document whose pages all come from the OCR cache.
      const copy = writeFixture(join(dir, `scan-${dpi}-copy.pdf`), await makeScannedPdf(pages, { dpi, title: `bench ${dpi} copy` }));
      started = performance.now();
      await engine.analyze([copy], { mode: 'rules-only' });
      const cachedSeconds = (performance.now() - started) / 1000;
      db.close();
      const prefix = `${pages.length} generated pages at ${dpi} dpi`;
      figures[`${prefix}: OCR ingest s/page`] = fmt(ocrSeconds / pages.length);
      figures[`${prefix}: pdf.js render alone s/page (baseline)`] = fmt(render / pages.length);
      figures[`${prefix}: OCR / render`] = `${fmt(ocrSeconds / render, 1)}x`;
      figures[`${prefix}: again from the OCR cache s/page`] = fmt(cachedSeconds / pages.length);
      figures[`${prefix}: word accuracy mean / min`] =
        `${fmt(accuracies.reduce((a, b) => a + b, 0) / accuracies.length, 3)} / ${fmt(Math.min(...accuracies), 3)}`;
      figures[`${prefix}: mean confidence`] = fmt(confidences.reduce((a, b) => a + b, 0) / confidences.length, 1);
    }

    if (existsSync(corpusScan)) {
      const sim = await startOllamaSim({ timeScale: 0, responder: schemaResponder });
      const db = openDatabase(join(dir, 'corpus.sqlite'));
      try {
        const engine = createEngine({
          db,
          appVersion: 'bench',
          createLlm: (settings) => createLlmClient({ host: sim.url, db, settings: { maxInFlight: settings.llm.maxInFlight, cache: settings.llm.cache } }),
        });
        const started = performance.now();
        const outcome = await engine.analyze([corpusScan], {
          strategy: 'pages',
          judge: false,
          llm: { models: { default: 'qwen3:8b' }, cache: false, desiredChunkTokens: 1500, replyTokens: 1024, maxInFlight: 1 },
        });
        const seconds = (performance.now() - started) / 1000;
        const doc = loadExtractedDocument(db, outcome.inputs[0]!.documentId!)!;
        const ocr = doc.pages.filter((p) => p.textSource === 'ocr');
        figures['corpus hard-scanned-no-text.pdf, whole pipeline (simulator): status'] = `${outcome.run.status} / ${outcome.inputs[0]!.status}`;
        figures['corpus scan: seconds total / per page'] = `${fmt(seconds, 1)} / ${fmt(seconds / doc.pageCount)}`;
        figures['corpus scan: pages read by OCR (confidence)'] = ocr.map((p) => `${p.pageNumber} (${fmt(p.ocrConfidence ?? 0, 0)})`).join(', ');
        figures['corpus scan: characters of text'] = doc.text.length;
      } finally {
        db.close();
        await sim.close();
      }
    }
    Object.assign(figures, await hostileMemory(dir));
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Peak RSS of the built CLI (`npm run analyze -- <file> --rules-only`, OCR auto) on PDFs that once took gigabytes:
 * the target is under 1 GB each, with a coded result (test/integration/cli/hostileMemory.test.ts holds it to that).
 */
async function hostileMemory(dir: string): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const cases = [
    // Four of five pages paint nothing (known blank unrendered); every fifth is painted white (rendered, found blank).
    {
      label: '300 blank pages (240 empty, 60 painted white)',
      file: 'blank300.pdf',
      bytes: mixedBlankPagesPdf(Array.from({ length: 300 }, (_, i) => (i % 5 === 4 ? 'white' : 'empty'))),
    },
    { label: 'one 20000 x 20000 image page', file: 'bigimage.pdf', bytes: hugeImagePdf(20_000, 20_000) },
  ];
  for (const { label, file, bytes } of cases) {
    const path = writeFixture(join(dir, file), bytes);
    const run = await runMeasured(analyzeCliNodeArgs([path, '--rules-only', '--db', join(dir, `${file}.sqlite`), '--out', join(dir, `${file}.md`)]), {
      cwd: dir,
      killAboveMb: 4096,
    });
    const code = /: failed: ([A-Z_]+)/.exec(run.stdout)?.[1] ?? (run.code === 0 ? 'done' : `exit ${run.code}`);
    figures[`CLI on ${label} (${(bytes.length / 1024).toFixed(0)} KB): peak RSS MB (target < 1024) / s / result`] =
      `${run.peakMb}${run.killedAtMb === null ? '' : ' (killed)'} / ${fmt(run.seconds, 1)} / ${code}`;
  }
  return figures;
}
