/**
 * A run parses the next file while it analyses the current one
 * (pipeline/readAhead.ts): on a batch of short PDFs both cores parse. What is
 * stored and reported must be exactly what a file-by-file run gives.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../../shared/types';
import { createEngine } from '../../../electron/engine';
import { ingestFile } from '../../../electron/engine/pdf';
import { loadExtractedDocument, loadMentions, openDatabase } from '../../../electron/engine/store';
import { makeTextPdf, writeFixture } from '../../fixtures/pdfFactory';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir('audit-read-ahead-');

async function reportPdf(dir: string, name: string, id: string, pages: number): Promise<string> {
  const spec = {
    pages: Array.from({ length: pages }, (_, p) => ({ blocks: [{ kind: 'body' as const, lines: [`${name} page ${p + 1} mentions ${id}-${p + 1}.`] }] })),
  };
  return writeFixture(join(dir, `${name}.pdf`), await makeTextPdf(spec));
}

describe('reading ahead', () => {
  it('parses the next file while the current one is read, and stores what a file-by-file run stores', async () => {
    const dir = tempDir();
    const files = [await reportPdf(dir, 'a', 'AAA', 12), await reportPdf(dir, 'b', 'BBB', 12), await reportPdf(dir, 'c', 'CCC', 3)];
    const timeline: string[] = [];
    const db = openDatabase(join(dir, 'store.sqlite'));
    const engine = createEngine({
      db,
      appVersion: 'test',
      ingestFile: async (path, options) => {
        const name = path.split('/').pop()!;
        timeline.push(`start ${name}`);
        const result = await ingestFile(path, options);
        timeline.push(`end ${name}`);
        return result;
      },
    });
    const events: ProgressEvent[] = [];
    const outcome = await engine.analyze(files, { mode: 'rules-only' }, { onProgress: (event) => events.push(event) });

    expect(outcome.inputs.map((input) => input.status)).toEqual(['done', 'done', 'done']);
    // b's parse began before a's had ended; c's only once b had its turn (one file ahead, not the whole batch).
    expect(timeline.indexOf('start b.pdf')).toBeLessThan(timeline.indexOf('end a.pdf'));
    expect(timeline.indexOf('start c.pdf')).toBeGreaterThan(timeline.indexOf('end a.pdf'));
    expect(timeline.filter((entry) => entry.startsWith('start'))).toHaveLength(3);
    // Each file's progress still says its pages in its own turn: b's reading is reported after a's tree.
    const order = events.map((event) => `${event.fileName}:${event.phase}`);
    expect(order.indexOf('b.pdf:ingest')).toBeGreaterThan(order.indexOf('a.pdf:tree'));
    expect(events.some((event) => event.fileName === 'b.pdf' && event.message.endsWith('reading page 12 of 12'))).toBe(true);

    // The same documents as parsing each file alone.
    for (const [index, file] of files.entries()) {
      const alone = (await ingestFile(file)).document;
      const stored = loadExtractedDocument(db, outcome.inputs[index]!.documentId!)!;
      expect(stored.text).toBe(alone.text);
      expect(stored.pages).toEqual(alone.pages);
    }
    expect(loadMentions(db, outcome.inputs[1]!.documentId!).map((mention) => mention.normalized)).toContain('BBB-12');
    db.close();
  });

  it('does not parse ahead a file the store already has', async () => {
    const dir = tempDir();
    const files = [await reportPdf(dir, 'a', 'AAA', 2), await reportPdf(dir, 'b', 'BBB', 2)];
    const db = openDatabase(join(dir, 'store.sqlite'));
    const parsed: string[] = [];
    const engine = createEngine({
      db,
      appVersion: 'test',
      ingestFile: (path, options) => {
        parsed.push(path);
        return ingestFile(path, options);
      },
    });
    await engine.analyze([files[1]!], { mode: 'rules-only' });
    const again = await engine.analyze(files, { mode: 'rules-only' });
    expect(again.inputs.map((input) => input.status)).toEqual(['done', 'done']);
    expect(parsed).toEqual([files[1], files[0]]);
    db.close();
  });

  it('stops the parse ahead when the run is cancelled, and a resume reads that file', async () => {
    const dir = tempDir();
    const files = [await reportPdf(dir, 'a', 'AAA', 2), await reportPdf(dir, 'b', 'BBB', 80)];
    const db = openDatabase(join(dir, 'store.sqlite'));
    const engine = createEngine({ db, appVersion: 'test' });
    const abort = new AbortController();
    const first = await engine.analyze(
      files,
      { mode: 'rules-only' },
      {
        signal: abort.signal,
        onProgress: (event) => event.fileName === 'a.pdf' && event.phase === 'rules' && abort.abort(),
      },
    );
    expect(first.run.status).toBe('cancelled');
    expect(first.inputs.map((input) => input.status)).toEqual(['done', 'queued']);
    const resumed = await engine.resume(first.run.id);
    expect(resumed.inputs.map((input) => input.status)).toEqual(['done', 'done']);
    expect(loadExtractedDocument(db, resumed.inputs[1]!.documentId!)!.pageCount).toBe(80);
    db.close();
  });
});
