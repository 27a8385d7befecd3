import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addRunEvent,
  createRun,
  getCurrentTree,
  listRunEvents,
  listRunInputs,
  loadChunks,
  loadExtractedDocument,
  loadMentions,
  openDatabase,
  saveChunkTree,
  saveDocument,
  saveMentions,
  setRunStatus,
  updateRunInput,
  getRun,
} from '../../../electron/engine/store';
import type { ChunkNode } from '../../../shared/types';
import { documentFromPages } from '../../helpers/documents';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir();
const NOW = '2026-01-01T00:00:00.000Z';

function leafTree(text: string): ChunkNode[] {
  return [
    {
      index: 0,
      parentIndex: null,
      title: 'root',
      section: { level: 0, path: [] },
      start: 0,
      end: text.length,
      pageStart: 1,
      pageEnd: 2,
      tokenEstimate: 5,
      origin: 'root',
      isLeaf: false,
      overlapBefore: 0,
    },
    {
      index: 1,
      parentIndex: 0,
      title: 'A',
      section: { level: 1, path: ['A'] },
      start: 0,
      end: text.length,
      pageStart: 1,
      pageEnd: 2,
      tokenEstimate: 5,
      origin: 'page',
      isLeaf: true,
      overlapBefore: 0,
    },
  ];
}

describe('store repositories', () => {
  it('store a document once per content and restore it exactly', () => {
    const db = openDatabase(join(tempDir(), 's.sqlite'));
    const doc = documentFromPages(['first page\nline two', 'second page']);
    const first = saveDocument(db, doc, NOW);
    const again = saveDocument(db, { ...doc, fileName: 'renamed.txt' }, NOW);
    expect(first.reused).toBe(false);
    expect(again.reused).toBe(true);
    expect(again.document.id).toBe(first.document.id);
    expect((db.prepare('SELECT COUNT(*) AS n FROM documents').get() as { n: number }).n).toBe(1);
    expect(loadExtractedDocument(db, first.document.id)).toEqual(doc);
    db.close();
  });

  it('restore every line of a long document exactly, across full insert batches and the rest', () => {
    const db = openDatabase(join(tempDir(), 'lines.sqlite'));
    const pages = [0, 1, 2].map((p) => Array.from({ length: 45 }, (_, i) => `page ${p + 1} line ${i + 1}`).join('\n'));
    const base = documentFromPages(pages, 'long.md');
    // 135 lines: two batches of 64 and 7 single rows, each line with its own typography.
    const doc = {
      ...base,
      lines: base.lines.map((line, i) => ({ ...line, fontSize: 9 + (i % 5), bold: i % 3 === 0, ...(i % 7 === 0 ? { markdownLevel: 1 + (i % 6) } : {}) })),
    };
    expect(doc.lines).toHaveLength(135);
    const { document } = saveDocument(db, doc, NOW);
    expect(loadExtractedDocument(db, document.id)).toEqual(doc);
    db.close();
  });

  it('reuse a tree built with the same parameters and keep one current tree', () => {
    const db = openDatabase(join(tempDir(), 't.sqlite'));
    const doc = documentFromPages(['x'.repeat(20), 'y'.repeat(10)]);
    const { document } = saveDocument(db, doc, NOW);
    const nodes = leafTree(doc.text);
    const a = saveChunkTree(db, { documentId: document.id, strategy: 'pages', params: {}, paramsHash: 'h1', nodes }, NOW);
    const b = saveChunkTree(db, { documentId: document.id, strategy: 'sentences', params: {}, paramsHash: 'h2', nodes }, NOW);
    const c = saveChunkTree(db, { documentId: document.id, strategy: 'pages', params: {}, paramsHash: 'h1', nodes }, NOW);
    expect(c).toEqual({ treeId: a.treeId, reused: true });
    expect(b.treeId).not.toBe(a.treeId);
    expect(getCurrentTree(db, document.id)!.id).toBe(a.treeId);
    expect(loadChunks(db, a.treeId)).toEqual(nodes);
    db.close();
  });

  it('replace mentions of one rule set without touching another', () => {
    const db = openDatabase(join(tempDir(), 'm.sqlite'));
    const { document } = saveDocument(db, documentFromPages(['PBI-1 and CR-2']), NOW);
    const m = (normalized: string, start: number) => ({ patternName: 'x', raw: normalized, normalized, start, end: start + normalized.length, page: 1 });
    saveMentions(db, document.id, 'rules-a', [m('PBI-1', 0)]);
    saveMentions(db, document.id, 'rules-b', [m('CR-2', 10)]);
    saveMentions(db, document.id, 'rules-a', [m('PBI-1', 0), m('CR-2', 10)]);
    expect(loadMentions(db, document.id, 'rules-a').map((x) => x.normalized)).toEqual(['PBI-1', 'CR-2']);
    expect(loadMentions(db, document.id, 'rules-b').map((x) => x.normalized)).toEqual(['CR-2']);
    db.close();
  });

  it('track a run, its inputs and events', () => {
    const db = openDatabase(join(tempDir(), 'r.sqlite'));
    const runId = createRun(db, 'rules-only', { a: 1 }, ['/x.pdf', '/y.pdf'], NOW);
    setRunStatus(db, runId, 'running', NOW);
    updateRunInput(db, runId, 1, { status: 'failed', error: { code: 'PDF_CORRUPT', message: 'broken' } });
    addRunEvent(db, runId, { at: NOW, level: 'error', phase: 'ingest', message: 'broken', data: { x: 1 } });
    setRunStatus(db, runId, 'done', '2026-01-01T00:01:00.000Z');
    const run = getRun(db, runId)!;
    expect(run.status).toBe('done');
    expect(run.startedAt).toBe(NOW);
    expect(run.finishedAt).toBe('2026-01-01T00:01:00.000Z');
    expect(listRunInputs(db, runId).map((i) => [i.filePath, i.status, i.error?.code ?? null])).toEqual([
      ['/x.pdf', 'queued', null],
      ['/y.pdf', 'failed', 'PDF_CORRUPT'],
    ]);
    expect(listRunEvents(db, runId)).toMatchObject([{ level: 'error', message: 'broken', data: { x: 1 } }]);
    db.close();
  });
});
