/**
 * `npm run bench`: speed and memory figures, each next to a baseline measured
 * in the same run on the same machine (these machines are shared and noisy,
 * so ratios matter, not absolute seconds). Targets are printed beside the
 * figures; nothing here fails a build.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateLargeTextPdf } from '../fixtures/pdfFactory';
import { CORPUS_DIR } from '../helpers/corpus';

const root = resolve(import.meta.dirname, '../..');
const corpus = join(CORPUS_DIR, 'pdfs');
const work = mkdtempSync(join(tmpdir(), 'audit-bench-'));
const repeats = Number(process.env.BENCH_REPEATS ?? 5);
/** The node options `npm run analyze` starts with (package.json), so the CLI is measured as users run it. */
const ANALYZE_NODE_FLAGS = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { analyze: string } }).scripts.analyze
  .split(' ')
  .filter((token) => token.startsWith('--'));
/** The engine measured through tsx gets the same V8 options as the CLI. */
const ENGINE_ENV: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, ...ANALYZE_NODE_FLAGS].filter(Boolean).join(' ') };

interface IngestFigure {
  seconds: number;
  pages: number;
  status: string;
  error: string | null;
  maxRssMb: number;
}

/** One measured run in its own process: the whole ingest (default), or pdf.js text extraction alone ('extract-only'). */
function ingestOnce(file: string, workers?: number, mode: 'ingest' | 'extract-only' = 'ingest'): IngestFigure {
  const db = join(work, `bench-${Math.random().toString(36).slice(2)}.sqlite`);
  const args =
    mode === 'ingest'
      ? ['tsx', join(root, 'test/bench/ingestOnce.ts'), file, db, ...(workers ? [String(workers)] : [])]
      : ['tsx', join(root, 'test/bench/extractOnce.ts'), file, ...(workers ? [String(workers)] : [])];
  const result = spawnSync('npx', args, { cwd: root, encoding: 'utf8', env: ENGINE_ENV });
  if (result.status !== 0) throw new Error(`ingestOnce failed for ${file}: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as IngestFigure;
}

function pdftotextSeconds(file: string): number | null {
  const probe = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
  if (probe.error) return null;
  const started = performance.now();
  const result = spawnSync('pdftotext', [file, join(work, 'out.txt')]);
  return result.status === 0 ? (performance.now() - started) / 1000 : null;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number, digits = 2) => n.toFixed(digits);

/**
 * Each of our runs is paired with a pdftotext run right after it, and the
 * ratio is the median of the pairs' ratios: on a shared machine whose speed
 * drifts by a third within minutes, a pair sees the same conditions, while
 * medians taken apart compare different moments.
 */
function benchFile(label: string, file: string, workers?: number, mode: 'ingest' | 'extract-only' = 'ingest'): Record<string, string> {
  const runs: IngestFigure[] = [];
  const baseline: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const run = ingestOnce(file, workers, mode);
    const poppler = pdftotextSeconds(file);
    runs.push(run);
    if (poppler !== null) {
      baseline.push(poppler);
      ratios.push(run.seconds / poppler);
    }
  }
  const seconds = median(runs.map((r) => r.seconds));
  const pages = runs[0]!.pages;
  const poppler = baseline.length > 0 ? median(baseline) : null;
  return {
    file: label,
    pages: String(pages),
    status: runs[0]!.error ? `${runs[0]!.status} (${runs[0]!.error})` : runs[0]!.status,
    'ingest+tree+store s': fmt(seconds),
    'pages/s': pages > 0 ? fmt(pages / seconds, 0) : '-',
    'peak RSS MB': fmt(Math.max(...runs.map((r) => r.maxRssMb)), 0),
    'pdftotext s': poppler === null ? 'n/a' : fmt(poppler),
    'ratio vs pdftotext (median of pairs)': ratios.length === 0 ? 'n/a' : `${fmt(median(ratios), 1)}x`,
  };
}

interface BatchFigure {
  seconds: number;
  cpuSeconds: number;
  pages: number;
  maxRssMb: number;
  failed?: string[];
  stageMs?: Record<string, number>;
}

function runJson(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): BatchFigure {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as BatchFigure;
}

/**
 * The corpus batch, each of our runs paired with the plain pdf.js loop run
 * right after it (ratios are medians of the pairs, as above). CPU seconds
 * (all threads) are printed too: on a machine shared with other jobs, a
 * process gets a share of the cores, and wall time then follows CPU time.
 */
function benchCorpusBatch(files: string[]): { summary: Record<string, string>[]; stages: Record<string, string>[] } {
  const ours: BatchFigure[] = [];
  const plain: BatchFigure[] = [];
  const cli: BatchFigure[] = [];
  const plainProcess: number[] = [];
  const twoThreads: BatchFigure[] = [];
  const oursTwoThreads: BatchFigure[] = [];
  for (let i = 0; i < repeats; i++) {
    const db = join(work, `batch-${i}.sqlite`);
    ours.push(runJson('npx', ['tsx', join(root, 'test/bench/ingestBatchOnce.ts'), db, ...files], ENGINE_ENV));
    plain.push(runJson(process.execPath, [join(root, 'test/bench/plainPdfjsOnce.mjs'), ...files]));
    cli.push(runBuiltCli(files, join(work, `cli-batch-${i}.sqlite`)));
    plainProcess.push(processSeconds(process.execPath, [join(root, 'test/bench/plainPdfjsOnce.mjs'), ...files]));
    twoThreads.push(runJson(process.execPath, [join(root, 'test/bench/plainPdfjsTwoThreads.mjs'), ...files]));
    oursTwoThreads.push(runJson(process.execPath, [join(root, 'test/bench/plainPdfjsTwoThreads.mjs'), '--ours', ...files]));
  }
  const pairs = (pick: (figure: BatchFigure) => number) => median(ours.map((run, i) => pick(run) / pick(plain[i]!)));
  const summary: Record<string, string>[] = [
    {
      run: 'ours: engine.analyze(files, rules-only, OCR off)',
      pages: String(ours[0]!.pages),
      's (median)': fmt(median(ours.map((r) => r.seconds))),
      'CPU s (median)': fmt(median(ours.map((r) => r.cpuSeconds))),
      'peak RSS MB (max)': fmt(Math.max(...ours.map((r) => r.maxRssMb)), 0),
      'ratio to plain pdf.js (median of pairs)': `${fmt(pairs((r) => r.seconds))}x`,
      'CPU ratio (median of pairs)': `${fmt(pairs((r) => r.cpuSeconds))}x`,
      'not ingested': ours[0]!.failed?.join(', ') || '-',
    },
    {
      run: 'the built CLI: node scripts/analyze.mjs <files> --rules-only --ocr off (process start to exit; plain loop likewise)',
      pages: String(ours[0]!.pages),
      's (median)': fmt(median(cli.map((r) => r.seconds))),
      'CPU s (median)': fmt(median(cli.map((r) => r.cpuSeconds))),
      'peak RSS MB (max)': fmt(Math.max(...cli.map((r) => r.maxRssMb)), 0),
      'ratio to plain pdf.js (median of pairs)': `${fmt(median(cli.map((run, i) => run.seconds / plainProcess[i]!)))}x`,
    },
    {
      run: 'plain pdf.js loop, 1 thread',
      pages: String(plain[0]!.pages),
      's (median)': fmt(median(plain.map((r) => r.seconds))),
      'CPU s (median)': fmt(median(plain.map((r) => r.cpuSeconds))),
      'peak RSS MB (max)': fmt(Math.max(...plain.map((r) => r.maxRssMb)), 0),
    },
    // What two cores can give at most: pdf.js alone, nothing else, on two threads that are never idle; and our
    // extractor alone the same way (the reading part of our pipeline, without lines, tree or store).
    twoThreadRow('the floor of 2 cores: the plain loop on 2 threads, each taking the next file when free', twoThreads, plain),
    twoThreadRow('our extractor alone (pdf/rawExtractor.mjs) on 2 threads the same way', oursTwoThreads, plain),
  ];
  const stageNames = Object.keys(ours[0]!.stageMs ?? {});
  const stages = stageNames.map((stage) => ({ stage: STAGE_LABELS[stage] ?? stage, ms: fmt(median(ours.map((r) => r.stageMs?.[stage] ?? 0)), 0) }));
  return { summary, stages };
}

/** A row of the batch table for runs on two threads, as ratios to the paired single-thread plain loop. */
function twoThreadRow(run: string, runs: BatchFigure[], plain: BatchFigure[]): Record<string, string> {
  return {
    run,
    pages: String(runs[0]!.pages),
    's (median)': fmt(median(runs.map((r) => r.seconds))),
    'CPU s (median)': fmt(median(runs.map((r) => r.cpuSeconds))),
    'ratio to plain pdf.js (median of pairs)': `${fmt(median(runs.map((r, i) => r.seconds / plain[i]!.seconds)))}x`,
    'CPU ratio (median of pairs)': `${fmt(median(runs.map((r, i) => r.cpuSeconds / plain[i]!.cpuSeconds)))}x`,
  };
}

/** Seconds from spawning a process to its exit. */
function processSeconds(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', env });
  if (result.error) throw result.error;
  return (performance.now() - started) / 1000;
}

/** The built CLI on the batch, as `npm run analyze` runs it (the build is made first if needed, outside the timing). */
function runBuiltCli(files: string[], db: string): BatchFigure {
  const launcher = join(root, 'scripts/analyze.mjs');
  spawnSync(process.execPath, [...ANALYZE_NODE_FLAGS, launcher, '--help'], { cwd: root });
  const figures = join(work, 'cli-figures.json');
  const args = [
    ...ANALYZE_NODE_FLAGS,
    '--import',
    pathToFileURL(join(root, 'test/bench/exitFigures.mjs')).href,
    launcher,
    ...files,
    '--rules-only',
    '--ocr',
    'off',
    '--db',
    db,
    '--out',
    join(work, 'cli-batch.md'),
  ];
  const seconds = processSeconds(process.execPath, args, { ...process.env, BENCH_FIGURES_FILE: figures });
  const { cpuSeconds, maxRssMb } = JSON.parse(readFileSync(figures, 'utf8')) as { cpuSeconds: number; maxRssMb: number };
  return { seconds, cpuSeconds, maxRssMb, pages: 0 };
}

/** Milliseconds from spawning the command to its first line of output (progress goes to stderr), or to its exit. */
function firstLineMs(command: string, args: string[]): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = false;
    const onData = (chunk: Buffer) => {
      if (seen || !chunk.toString().includes('\n')) return;
      seen = true;
      done(performance.now() - started);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', fail);
    child.on('close', () => {
      if (!seen) done(performance.now() - started);
    });
  });
}

async function benchCliStart(): Promise<Record<string, string>[]> {
  const text = join(work, 'one-line.txt');
  writeFileSync(text, 'Finding TOB-ACME-1: the one line of this file.\n');
  // Each run gets a fresh store, so the file is really ingested (a known file would skip straight to the tree).
  const args = () => [text, '--rules-only', '--db', join(work, `cli-${Math.random().toString(36).slice(2)}.sqlite`), '--out', join(work, 'cli-report.md')];
  // Built once before measuring (as the first `npm run analyze` after a change does).
  await firstLineMs(process.execPath, [...ANALYZE_NODE_FLAGS, join(root, 'scripts/analyze.mjs'), ...args()]);
  const commands: [string, string, () => string[]][] = [
    ['npm run analyze (built CLI, through npm)', 'npm', () => ['run', '--silent', 'analyze', '--', ...args()]],
    ['node scripts/analyze.mjs (built CLI, what npm runs)', process.execPath, () => [...ANALYZE_NODE_FLAGS, join(root, 'scripts/analyze.mjs'), ...args()]],
    [
      'tsx electron/cli/analyze.ts (before: transpiled at start)',
      join(root, 'node_modules/.bin/tsx'),
      () => [join(root, 'electron/cli/analyze.ts'), ...args()],
    ],
    // npm's own start (a built-in script, no Node program of ours): what any `npm run` command pays before ours runs.
    ['npm run env (npm alone: the floor of any npm run)', 'npm', () => ['run', '--silent', 'env']],
    ['node -e 0 (floor)', process.execPath, () => ['-e', '0']],
  ];
  const rows: Record<string, string>[] = [];
  for (const [label, command, commandArgs] of commands) {
    const times: number[] = [];
    for (let i = 0; i < repeats; i++) times.push(await firstLineMs(command, commandArgs()));
    rows.push({ command: label, 'first line ms (median)': fmt(median(times), 0), 'min ms': fmt(Math.min(...times), 0) });
  }
  // What the CLI itself adds to starting Node, measured in this run (the target is about that, not the machine's load).
  const floor = Number(rows.at(-1)!['first line ms (median)']);
  for (const row of rows) row['above node -e 0 ms'] = fmt(Number(row['first line ms (median)']) - floor, 0);
  return rows;
}

const STAGE_LABELS: Record<string, string> = {
  open: 'open (parse, page count, outline)',
  text: 'text (pdf.js getTextContent)',
  fonts: 'positions and bold flags of the items',
  lines: 'line rebuild',
  headings: 'heading detection',
  tree: 'chunk tree (heading detection included)',
  mentions: 'ID mentions',
  store: 'store (document, lines, mentions, tree)',
};

/** The load averages beside the cores: above the core count, other jobs took turns with ours, and wall times stretch. */
function machineLoad(): string {
  const [one, five] = loadavg();
  return `load average ${one!.toFixed(1)} (1 min), ${five!.toFixed(1)} (5 min) on ${cpus().length} cores`;
}

function printTable(title: string, rows: Record<string, string>[]): void {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  console.log(`\n## ${title}\n`);
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(columns.map((c) => row[c] ?? '')));
}

/**
 * BENCH_ONLY picks sections by their key, exactly, several with commas (BENCH_ONLY=ingest,ocr): a key that is a
 * word of another section's title (ui in "build") must not run that section too. Unset: every section.
 */
const BENCH_KEYS = [
  'ingest',
  'llm',
  'tree',
  'extraction',
  'retrieval',
  'modeltime',
  'dense',
  'ui',
  'ocr',
  'completeness',
  'pool',
  'reconcile',
  'merge',
  'stall',
];
const chosenKeys = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((key) => key.trim().toLowerCase())
  .filter((key) => key !== '');
const unknownKeys = chosenKeys.filter((key) => !BENCH_KEYS.includes(key));
if (unknownKeys.length > 0) {
  console.error(`BENCH_ONLY: no section called ${unknownKeys.join(', ')}; the sections are ${BENCH_KEYS.join(', ')}.`);
  rmSync(work, { recursive: true, force: true });
  process.exit(2);
}
function selected(key: string): boolean {
  return chosenKeys.length === 0 || chosenKeys.includes(key);
}

try {
  console.log(`Benchmark (median of ${repeats} runs each; set BENCH_REPEATS to change)`);
  console.log(`Machine: ${cpus().length} cores; ${machineLoad()}`);
  const onlyIngest = selected('ingest');
  const large = join(work, 'large-1000.pdf');
  if (onlyIngest) {
    writeFileSync(large, await generateLargeTextPdf(1000));
    const ingestRows = [
      benchFile('generated 1000 pages', large),
      benchFile('generated 1000 pages, 1 worker', large, 1),
      // The floor: pdf.js's text extraction in the same two workers, nothing done with the pages.
      benchFile('pdf.js text extraction alone, 2 workers', large, 2, 'extract-only'),
    ];
    printTable('Ingest + chunk tree + store (targets: within 2.5x of pdftotext on the 1000-page file, peak RSS < 300 MB)', ingestRows);
  }

  if (onlyIngest && existsSync(corpus)) {
    const files = readdirSync(corpus)
      .filter((name) => name.endsWith('.pdf'))
      .sort()
      .map((name) => join(corpus, name));
    const batch = benchCorpusBatch(files);
    printTable(
      `The ${files.length} PDFs of ../shared/corpus in one run (rules-only: ingest + chunk tree + ID mentions + store; OCR off, as the plain loop reads no scanned page: OCR has its own section) against a plain single-thread pdf.js loop over the same files (targets: ratio <= 0.6x (issue 38: both cores), peak RSS < 300 MB; the floor row is what two cores give pdf.js alone)`,
      batch.summary,
    );
    printTable('Where the time goes, same runs (median ms; open, text and fonts are summed over the PDF worker threads)', batch.stages);
  } else if (onlyIngest) {
    console.log('\n(../shared/corpus not found: real-PDF section skipped)');
  }

  if (onlyIngest) {
    printTable(
      'CLI start: time to the first progress line on a one-line .txt, rules-only (target: within 300 ms; `node -e 0` is the floor of any Node program)',
      await benchCliStart(),
    );
  }

  // The LLM sections run against the Ollama simulator with a realistic rate model; the UI section drives Chromium.
  const sections: [key: string, title: string, run: () => Promise<Record<string, number | string> | Record<string, string>[]>][] = [
    ['llm', 'LLM client against the Ollama simulator (targets: client CPU < 2 ms per call, 0 reloads)', async () => (await import('./llmBench')).runLlmBench()],
    [
      'tree',
      'Tree split, 100 pages without an outline (target: <= 0.5 (issue 38) prompt tokens per source token)',
      async () => (await import('./treesplitBench')).runTreeSplitBench(),
    ],
    [
      'extraction',
      'Findings extraction, 100 pages (targets: <= 1.3 evaluated tokens per source token, engine < 5 ms per chunk, 0 reloads)',
      async () => (await import('./extractBench')).runExtractBench(),
    ],
    [
      'retrieval',
      'Retrieval: 50,000 chunks (FTS5 + sqlite-vec), index build, recall@k with and without the judge',
      async () => (await import('./retrievalBench')).runRetrievalBench(),
    ],
    [
      'modeltime',
      'Model time (modeltime): ../shared/corpus through the simulator at prompt 900 tok/s, output 42 tok/s (targets: <= 2.0x the floor, <= 1.3 prompt tokens evaluated per source token)',
      async () => (await import('./modelTimeBench')).runModelTimeBench(),
    ],
    [
      'modeltime',
      'Model time (modeltime): LLM tree split on the corpus reports without an outline (target: <= 0.5 (issue 38) prompt tokens per source token, in every mode)',
      async () => (await import('./modelTimeBench')).treeSplitFigures(),
    ],
    [
      'dense',
      'Dense documents (dense): audit reports and a 360-ID release note, long replies, a model that stops at 20 (targets: 0% output thrown away, nothing lost, <= 1.2 entries per truth finding, <= 1.5x / 1.1x the floor)',
      async () => (await import('./denseBench')).runDenseBench(),
    ],
    [
      'ui',
      'UI: 10,000 chunks, 2,000 findings and a triage queue of 2,000 in Chromium, virtualized vs plain lists',
      async () => (await import('./uiBench')).runUiBench(),
    ],
    [
      'ocr',
      'OCR: scanned pages read offline (seconds per page vs pdf.js rendering alone, word accuracy; the corpus scan through the whole pipeline)',
      async () => (await import('./ocrBench')).runOcrBench(),
    ],
    [
      'pool',
      'Inference endpoints (pool): 12 corpus documents as one batch on 1 endpoint vs 3 (Ollama, and OpenAI-compatible), and with one of 3 dying mid-batch, simulator time x POOL_TIME_SCALE (default 0.1; targets: >= 2.5x faster on 3 with identical findings; 0 files not done and 0 answered twice when one dies)',
      async () => (await import('./poolBench')).runPoolBench(),
    ],
    [
      'completeness',
      'Completeness check on real PDFs, rules path (target: within 5x of the ID-mention rules on the same text)',
      async () => (await import('./completenessBench')).runCompletenessBench(),
    ],
    [
      'reconcile',
      'Reconcile (reconcile): 10,000 population rows against a 700-item release note (target: read + tie-out < 5 s)',
      async () => (await import('./reconcileBench')).runReconcileBench(),
    ],
    [
      'stall',
      "The host's event loop during whole analyses (stall): every corpus PDF through the engine, the simulated server in a process of its own (target: no stall over 200 ms)",
      async () => (await import('./stallBench')).runStallBench(),
    ],
    [
      'merge',
      "The engine's own work on findings (merge): findings without IDs merged (targets: 1,000 in <= 2 s, 5,000 in <= 10 s, identical to the all-pairs merge), the event loop while 1,000 are merged (target: no delay over 200 ms), entries of a 2,000-row listing matched",
      async () => (await import('./mergeBench')).runMergeBench(),
    ],
  ];
  for (const [key, title, run] of sections) {
    if (!selected(key)) continue;
    try {
      const figures = await run();
      printTable(title, Array.isArray(figures) ? figures : Object.entries(figures).map(([figure, value]) => ({ figure, value: String(value) })));
      // The machines are shared: how busy it was is part of each figure.
      console.log(`\n(${machineLoad()})`);
    } catch (error) {
      console.log(`\n## ${title}\n\nnot measured: ${(error as Error).message}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
