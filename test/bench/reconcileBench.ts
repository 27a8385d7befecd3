/**
 * Reconcile benchmark (issue 41): a population of 10,000 rows (a whole tracker project's export: 700 of them the
 * document's items, keys respelled here and there, 50 without a key and reworded; the rest other tickets worded
 * alike) against a generated release note of 700 IDs analysed without a model. Timed: reading the CSV, the
 * tie-out (the document's items and mentions loaded, matched by ID, mention and title as one assignment,
 * decisions applied), and the workpaper; the same population with no key column (every row matched by title,
 * the worst case); next to the baseline measured in the same run: papaparse parsing the same CSV alone.
 * Target: reading and tying out 10,000 rows in under 5 s.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Papa from 'papaparse';
import { createEngine } from '../../electron/engine';
import { readPopulation, reconcileDocument, renderReconciliation } from '../../electron/engine/reconcile';
import { openDatabase } from '../../electron/engine/store';
import { csvText, reword, respelledKey, type Cell } from '../fixtures/populations';
import { PROBLEMS, SUBJECTS } from '../fixtures/issueWords';
import { releaseNotes } from '../fixtures/releaseNotes';

const REPEATS = Math.min(3, Number(process.env.BENCH_REPEATS ?? 3));
const ROWS = 10_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const samples: number[] = [];
  let value!: T;
  for (let i = 0; i < REPEATS; i++) {
    const started = performance.now();
    value = await fn();
    samples.push(performance.now() - started);
  }
  return { ms: median(samples), value };
}

const AREAS = SUBJECTS.slice(0, 10);
const FAULTS = PROBLEMS.slice(0, 7);
const WHEN = ['for large batches', 'after a restart', 'under load', 'at month end', 'with empty fields'];

export async function runReconcileBench(): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'audit-reconcile-bench-'));
  try {
    const notes = releaseNotes({ tableIssues: 500, listIssues: 200, perPage: 40 });
    const pdf = join(dir, 'release-notes-700.pdf');
    writeFileSync(pdf, await notes.pdf());
    const db = openDatabase(join(dir, 'bench.sqlite'));
    const analysedAt = performance.now();
    const outcome = await createEngine({ db, appVersion: 'bench' }).analyze([pdf], { mode: 'rules-only' });
    const analysisMs = performance.now() - analysedAt;
    const documentId = outcome.inputs[0]!.documentId!;

    // The population: the document's 700 items (every 9th key respelled, every 14th without a key and reworded), then other tickets.
    const rows: Cell[][] = notes.truth.findings.map((f, i) => [
      i % 14 === 13 ? '' : i % 9 === 8 ? respelledKey(f.id!) : f.id,
      i % 14 === 13 ? reword(f.title) : f.title,
      'Done',
      'Major',
      '7.4',
    ]);
    for (let i = rows.length; i < ROWS; i++) {
      rows.push([
        `PBI-${30000 + i}`,
        `${AREAS[i % AREAS.length]} ${FAULTS[(i * 3) % FAULTS.length]} ${WHEN[(i * 7) % WHEN.length]} in case ${5000 + i}`,
        i % 3 ? 'Open' : 'Closed',
        'Minor',
        '7.5',
      ]);
    }
    const header = ['Issue key', 'Summary', 'Status', 'Priority', 'Fix Version/s'];
    const file = { name: 'project-export.csv', bytes: Buffer.from(csvText(header, rows)) };

    const parseOnly = await time(() => Papa.parse(file.bytes.toString('utf8')));
    const read = await time(() => readPopulation(file));
    const population = read.value;
    const byKey = await time(() => reconcileDocument(db, { documentId, population }));
    const byTitle = await time(() => reconcileDocument(db, { documentId, population, keyColumn: null }));
    const workpaper = await time(() => renderReconciliation(byKey.value, 'xlsx'));
    const json = await time(() => renderReconciliation(byKey.value, 'json'));
    db.close();
    const c = byKey.value.counts;
    const t = byTitle.value.counts;
    const total = read.ms + byKey.ms;
    return {
      'document: generated release note, items (printed IDs)': String(c.documentItems),
      'document: rules-only analysis (not timed below), s': (analysisMs / 1000).toFixed(2),
      'population: rows': String(c.rows),
      'baseline: papaparse parsing the CSV alone, ms': parseOnly.ms.toFixed(0),
      'read the CSV (header, cells, keys), ms': read.ms.toFixed(0),
      'tie-out by key column (ID, mention, title), ms': byKey.ms.toFixed(0),
      '  matched by ID / title / mention; only in document; only in population': `${c.byReason.id} / ${c.byReason.title} / ${c.byReason.mention}; ${c.onlyInDocument}; ${c.onlyInPopulation}`,
      'read + tie-out, s (target < 5 s)': (total / 1000).toFixed(2),
      'tie-out with no key column (every row by title), ms': byTitle.ms.toFixed(0),
      '  matched by title; only in document': `${t.byReason.title}; ${t.onlyInDocument}`,
      'XLSX workpaper (10,000 rows), ms': workpaper.ms.toFixed(0),
      'JSON export, ms': json.ms.toFixed(0),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
