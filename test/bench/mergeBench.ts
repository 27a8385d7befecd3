/**
 * The engine's own work on findings (issue 38): merging findings without IDs, matching them to a listing of thousands
 * of rows, and what either does to the event loop the app's commands are answered on.
 *
 * - Merge: generated finding sets (test/fixtures/findingSets.ts: a document's issues reported one to four times,
 *   reworded, with siblings one word apart) of about 1,000 and 5,000 findings without IDs, merged as the pipeline does
 *   (in slices) and at once, against the all-pairs merge it replaced (test/helpers/allPairsMerge.ts) on the 1,000:
 *   seconds and CPU seconds, and whether the results are identical. The all-pairs merge of 5,000 takes tens of
 *   minutes; it runs only with BENCH_MERGE_ALL_PAIRS_5000=1.
 * - Event loop: perf_hooks monitorEventLoopDelay while 1,000 findings are merged in slices, and while they are merged
 *   in one go (the baseline: the merge as one task): the longest delay a command waiting then would see.
 * - Entry matching: the generated set's summary table read as a listing of a document with 2,000 issues (the
 *   completeness check on a release note's register), against the all-pairs matching it replaced.
 *
 * Run alone: BENCH_ONLY=merge npx tsx test/bench/run.ts (MERGE_ONLY=merge, loop or matching for one part)
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DEFAULT_PROFILE, rankSeverity, type MergedFinding } from '../../shared/findings';
import type { ListedEntry } from '../../shared/completeness';
import { matchEntries } from '../../electron/engine/completeness';
import type { Listing } from '../../electron/engine/printed';
import { mergeFindings, mergeFindingsInSlices, type MergeResult } from '../../electron/engine/merge';
import { generateFindingSet, type FindingSet } from '../fixtures/findingSets';
import { allPairsMerge } from '../helpers/allPairsMerge';
import { allPairsMatchEntries } from '../helpers/allPairsEntryMatching';

interface Timed<T> {
  value: T;
  seconds: number;
  cpuSeconds: number;
}

async function timed<T>(work: () => T | Promise<T>): Promise<Timed<T>> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { value, seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const timeOf = (t: Timed<unknown>) => `${fmt(t.seconds)} (${fmt(t.cpuSeconds)})`;

/** One table: every part's rows have the same columns (the table takes its columns from the first row), '' where a part has none. */
const COLUMNS = [
  'measure',
  'case',
  'now s (CPU s)',
  'at once s (CPU s)',
  'all pairs, before (baseline) s (CPU s)',
  'CPU ratio to baseline',
  'longest event-loop delay ms (p99)',
  'identical results',
  'target',
] as const;
type Row = Partial<Record<(typeof COLUMNS)[number], string>>;
const fullRow = (row: Row): Record<string, string> => Object.fromEntries(COLUMNS.map((c) => [c, row[c] ?? '']));
const optionsOf = (set: FindingSet) => ({ documentText: set.documentText, printedIds: set.printedIds });

async function mergeRows(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of [1000, 5000]) {
    const set = generateFindingSet({ findings: size, seed: 38 });
    const sliced = await timed(() => mergeFindingsInSlices(set.findings, optionsOf(set)));
    const once = await timed(() => mergeFindings(set.findings, optionsOf(set)));
    const allPairs =
      size <= 1000 || process.env.BENCH_MERGE_ALL_PAIRS_5000 === '1' ? await timed(() => allPairsMerge(set.findings, optionsOf(set))) : undefined;
    const same = (r: MergeResult) => JSON.stringify(r) === JSON.stringify(sliced.value);
    rows.push({
      case: `${set.findings.length} findings without IDs -> ${sliced.value.merged.length} merged (now: in slices)`,
      'now s (CPU s)': timeOf(sliced),
      'at once s (CPU s)': timeOf(once),
      'all pairs, before (baseline) s (CPU s)': allPairs ? timeOf(allPairs) : 'not run (BENCH_MERGE_ALL_PAIRS_5000=1)',
      'CPU ratio to baseline': allPairs ? `${fmt(sliced.cpuSeconds / allPairs.cpuSeconds, 3)}x` : '-',
      'identical results': allPairs ? (same(allPairs.value) && same(once.value) ? 'yes' : 'NO') : same(once.value) ? 'yes (slices = at once)' : 'NO',
      target: size <= 1000 ? '<= 2 s' : '<= 10 s',
    });
  }
  return rows;
}

/** The event loop's delays (ms) while `work` runs: how long a command arriving then waits at most, and at the 99th percentile. */
async function loopDelay(work: () => unknown): Promise<{ maxMs: number; p99Ms: number; seconds: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  // A few ticks first: the monitor measures each delay from its previous tick (and a reset forgets that tick).
  await new Promise<void>((resolve) => setTimeout(resolve, 30));
  histogram.reset();
  await new Promise<void>((resolve) => setTimeout(resolve, 20));
  const started = performance.now();
  await work();
  // One more turn, so a delay that ended with the work is recorded.
  await new Promise<void>((resolve) => setTimeout(resolve, 20));
  histogram.disable();
  return { maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, seconds: (performance.now() - started) / 1000 };
}

async function loopRows(): Promise<Row[]> {
  const set = generateFindingSet({ findings: 1000, seed: 38 });
  const cases: [string, () => unknown][] = [
    ['merged at once, one task (baseline: the merge before)', () => mergeFindings(set.findings, optionsOf(set))],
    ['merged in slices (the pipeline now)', () => mergeFindingsInSlices(set.findings, optionsOf(set))],
  ];
  const rows: Row[] = [];
  for (const [label, work] of cases) {
    const d = await loopDelay(work);
    rows.push({
      case: `${set.findings.length} findings without IDs ${label}`,
      'now s (CPU s)': fmt(d.seconds),
      'longest event-loop delay ms (p99)': `${fmt(d.maxMs, 0)} (${fmt(d.p99Ms, 0)})`,
      target: label.includes('slices') ? '<= 200 ms' : '',
    });
  }
  return rows;
}

/** The set's merged findings and its summary table as one listing (a register of `rows` rows). */
function listingOf(set: FindingSet): { listings: Listing[]; findings: MergedFinding[] } {
  const merged = mergeFindings(set.findings, optionsOf(set)).merged.map((m, i) => ({ ...m, id: i + 1, runId: 1, documentId: 1 }));
  const entries: ListedEntry[] = set.rows.map((row, k) => ({
    kind: 'register',
    number: row.number ?? String(k + 1),
    id: row.key,
    title: row.title,
    severity: row.severity,
    severityCanonical: rankSeverity(DEFAULT_PROFILE, row.severity).canonical,
    findingIds: [],
    start: row.start,
    end: row.end,
    page: 1,
    text: row.title,
  }));
  return { listings: [{ kind: 'register', entries }], findings: merged };
}

async function matchingRows(): Promise<Row[]> {
  const set = generateFindingSet({ findings: 4400, seed: 39, keyed: 0.5 });
  const { listings, findings } = listingOf(set);
  const now = await timed(() => matchEntries(listings, findings));
  const before = await timed(() => allPairsMatchEntries(listings, findings));
  return [
    {
      case: `a listing of ${listings[0]!.entries.length} rows, ${findings.length} merged findings`,
      'now s (CPU s)': timeOf(now),
      'all pairs, before (baseline) s (CPU s)': timeOf(before),
      'CPU ratio to baseline': `${fmt(now.cpuSeconds / before.cpuSeconds, 3)}x`,
      'identical results': JSON.stringify(now.value) === JSON.stringify(before.value) ? 'yes' : 'NO',
    },
  ];
}

export async function runMergeBench(): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  const only = process.env.MERGE_ONLY;
  if (!only || only === 'merge') for (const r of await mergeRows()) rows.push(fullRow({ measure: 'merge', ...r }));
  if (!only || only === 'loop') for (const r of await loopRows()) rows.push(fullRow({ measure: 'event loop while merging', ...r }));
  if (!only || only === 'matching') for (const r of await matchingRows()) rows.push(fullRow({ measure: 'completeness: entries matched', ...r }));
  return rows;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  for (const r of await runMergeBench()) console.log(r);
}
