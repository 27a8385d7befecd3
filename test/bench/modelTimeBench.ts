/**
 * Model time (issue 13): the 10 PDFs of ../shared/corpus through the whole
 * pipeline against the simulator with the timing of a Q4 8B model on a
 * mid-range GPU (prompt 900 tokens/s, output 42 tokens/s, model load not
 * counted), answered from the truth files (test/eval/truthResponder.ts) with
 * replies of realistic length: a summary as long as the prompt asks for (a
 * model writes what "2-4 sentences" allows), summaries of summaries likewise;
 * a field limited to "at most N words" gets 20% more than N (models overshoot
 * word limits; a cut quote stays verbatim). Output dominates, so short
 * stand-in replies would flatter any design.
 *
 * Per document and in total: calls, model seconds per page, the floor (the
 * source read once as prompt + each truth finding's compact JSON written
 * once), the ratio to it, prompt tokens evaluated (after the prefix cache)
 * and output tokens per source token by stage, and the LLM tree split's
 * prompt tokens per source token on the reports without an outline.
 *
 * Run alone: BENCH_ONLY=modeltime npx tsx test/bench/run.ts
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../../electron/engine';
import { JUDGE_INSTRUCTIONS } from '../../electron/engine/judge';
import { DEFAULT_RUN_LLM_SETTINGS, type RunSettings } from '../../electron/engine/pipeline/settings';
import { openDatabase } from '../../electron/engine/store';
import { SUMMARY_MAP_INSTRUCTIONS, SUMMARY_REDUCE_INSTRUCTIONS } from '../../electron/engine/summary/prompts';
import { defaultTokenize, schemaResponder, startOllamaSim, type Responder, type SimChatRequest } from '../ollama-sim/index';
import { promptBlocks } from '../fixtures/plantedFindings';
import { findingItemProperties, isExtractionRequest, loadCorpusTruth, truthResponder, type TruthDocument } from '../eval/truthResponder';
import { CORPUS, runTreeSplitCorpusBench } from './treesplitCorpusBench';
import { wholeCorpusDocuments } from '../helpers/corpus';

export const RATES = { prefillTokensPerSec: 900, decodeTokensPerSec: 42, loadSeconds: 0 };
const MODEL = 'qwen3:8b';
type Stage = 'judge' | 'extract' | 'summary' | 'structure';
const STAGES: Stage[] = ['judge', 'extract', 'summary', 'structure'];

function stageOf(req: SimChatRequest): Stage {
  if (isExtractionRequest(req)) return 'extract';
  const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
  if (system.startsWith(JUDGE_INSTRUCTIONS.split('\n')[0]!)) return 'judge';
  if (system.startsWith(SUMMARY_MAP_INSTRUCTIONS.split('\n')[0]!) || system.startsWith(SUMMARY_REDUCE_INSTRUCTIONS.split('\n')[0]!)) return 'summary';
  return 'structure';
}

/** How many sentences a prompt asks for: "2-4 sentences" -> 3, "at most 8 sentences" -> 8, "one sentence" -> 1. */
export function sentencesAskedFor(text: string): number | null {
  const range = /(\d+)\s*(?:-|to)\s*(\d+)\s+sentences/i.exec(text);
  if (range) return Math.round((Number(range[1]) + Number(range[2])) / 2);
  const most = /at most (\d+|one|two|three) sentences?/i.exec(text);
  const words: Record<string, number> = { one: 1, two: 2, three: 3 };
  if (most) return words[most[1]!.toLowerCase()] ?? Number(most[1]);
  if (/\bone sentence\b/i.test(text)) return 1;
  return null;
}

/** `n` sentences in the document's words (what a model's summary sounds like, at about its length). */
function sentencesFrom(text: string, n: number): string {
  const found = (
    text
      .replace(/\[page \d+\]/g, ' ')
      .replace(/\s+/g, ' ')
      .match(/[A-Z][^.!?]{30,220}[.!?]/g) ?? []
  ).slice(0, n);
  while (found.length < n) found.push('The part continues the description of the review and its scope without a new finding.');
  return found.join(' ');
}

/**
 * The truth responder with realistic lengths: the extraction reply's summary as long as its schema asks for;
 * a summary call as long as its instructions allow; everything else schema-shaped.
 */
export function realisticResponder(docs: readonly TruthDocument[]): Responder {
  const truth = truthResponder(docs, { fallback: schemaResponder });
  return async (req) => {
    const stage = stageOf(req);
    const { chunk, system } = promptBlocks(req);
    if (stage === 'summary') return sentencesFrom(chunk ?? '', sentencesAskedFor(system) ?? 6);
    const reply = await truth(req);
    if (stage !== 'extract' || typeof reply !== 'string') return reply;
    const parsed = JSON.parse(reply) as { summary?: string; findings: (Record<string, unknown> | string)[] };
    const props = (req.format as { properties: Record<string, { description?: string }> }).properties;
    const asked = sentencesAskedFor(props.summary?.description ?? '');
    if (parsed.summary !== undefined && asked !== null) parsed.summary = sentencesFrom(chunk ?? '', asked);
    // A summary limited to "at most N words" gets 20% more than N, as the findings' fields below.
    const summaryLimit = /at most (\d+) words/.exec(props.summary?.description ?? '');
    if (parsed.summary !== undefined && summaryLimit)
      parsed.summary = parsed.summary
        .split(' ')
        .slice(0, Math.ceil(Number(summaryLimit[1]) * 1.2))
        .join(' ');
    for (const [field, schema] of Object.entries(findingItemProperties(req.format) ?? {})) {
      const limit = /at most (\d+) words/.exec(schema.description ?? '');
      if (!limit) continue;
      const words = Math.ceil(Number(limit[1]) * 1.2);
      for (const f of parsed.findings)
        if (typeof f !== 'string' && typeof f[field] === 'string') f[field] = (f[field] as string).split(' ').slice(0, words).join(' ');
    }
    return JSON.stringify(parsed);
  };
}

/** The floor's output: each truth finding once, as compact JSON of what a report needs of it. */
export function floorOutputTokens(doc: TruthDocument | undefined): number {
  return (doc?.findings ?? []).reduce(
    (n, f) => n + defaultTokenize(JSON.stringify({ id: f.id, title: f.title, severity: f.severity, page: f.page })).length,
    0,
  );
}

interface DocFigure {
  name: string;
  status: string;
  pages: number;
  sourceTokens: number;
  calls: number;
  seconds: number;
  floorSeconds: number;
  prompt: Record<Stage, number>;
  output: Record<Stage, number>;
}

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const sum = (r: Record<Stage, number>) => STAGES.reduce((a, s) => a + r[s], 0);

export async function runModelTimeBench(settingsOverride: Partial<RunSettings['llm']> = {}): Promise<Record<string, string>[]> {
  const pdfDir = join(CORPUS, 'pdfs');
  if (!existsSync(pdfDir)) throw new Error('../shared/corpus not found');
  const docs = loadCorpusTruth(CORPUS);
  const dir = mkdtempSync(join(tmpdir(), 'modeltime-bench-'));
  const db = openDatabase(join(dir, 'bench.sqlite'));
  const perRequest: { stage: Stage; prompt: number; output: number }[] = [];
  const responder = realisticResponder(docs);
  const sim = await startOllamaSim({
    rates: RATES,
    timeScale: 0,
    responder: async (req) => {
      const reply = await responder(req);
      const content = typeof reply === 'string' ? reply : reply.content;
      const limit = typeof req.options.num_predict === 'number' && req.options.num_predict > 0 ? req.options.num_predict : Infinity;
      perRequest.push({ stage: stageOf(req), prompt: req.evaluatedTokens, output: Math.min(limit, defaultTokenize(content).length) });
      return reply;
    },
  });
  const figures: DocFigure[] = [];
  try {
    const engine = createEngine({ db, appVersion: 'bench' });
    const settings: Partial<RunSettings> = {
      llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: sim.url, models: { default: MODEL }, cache: false, ...settingsOverride },
    };
    // MODELTIME_DOCS=oak,etcd measures only the corpus files whose names contain one of these words.
    const only = process.env.MODELTIME_DOCS?.split(',')
      .map((w) => w.trim())
      .filter(Boolean);
    // Whole documents only (PDF and truth file): the floor is computed from the truth.
    for (const file of wholeCorpusDocuments(CORPUS)
      .map((name) => `${name}.pdf`)
      .filter((f) => !only || only.some((w) => f.includes(w)))) {
      sim.resetCounters();
      perRequest.length = 0;
      const outcome = await engine.analyze([join(pdfDir, file)], settings);
      const input = outcome.inputs[0]!;
      const row =
        input.documentId === null
          ? undefined
          : (db.prepare('SELECT page_count AS pages, canonical_text AS text FROM documents WHERE id = ?').get(input.documentId) as {
              pages: number;
              text: string;
            });
      const sourceTokens = row ? defaultTokenize(row.text).length : 0;
      const truth = docs.find((d) => `${d.name}.pdf` === file);
      const byStage = (key: 'prompt' | 'output') =>
        Object.fromEntries(STAGES.map((s) => [s, perRequest.filter((r) => r.stage === s).reduce((a, r) => a + r[key], 0)])) as Record<Stage, number>;
      figures.push({
        name: file,
        status: input.error ? `${input.status} (${input.error.code})` : input.status,
        pages: row?.pages ?? 0,
        sourceTokens,
        calls: perRequest.length,
        seconds: sim.counters.simulatedSeconds,
        floorSeconds: sourceTokens / RATES.prefillTokensPerSec + floorOutputTokens(truth) / RATES.decodeTokensPerSec,
        prompt: byStage('prompt'),
        output: byStage('output'),
      });
    }
  } finally {
    await sim.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const total: DocFigure = figures.reduce(
    (t, f) => ({
      ...t,
      pages: t.pages + f.pages,
      sourceTokens: t.sourceTokens + f.sourceTokens,
      calls: t.calls + f.calls,
      seconds: t.seconds + f.seconds,
      floorSeconds: t.floorSeconds + f.floorSeconds,
      prompt: Object.fromEntries(STAGES.map((s) => [s, t.prompt[s] + f.prompt[s]])) as Record<Stage, number>,
      output: Object.fromEntries(STAGES.map((s) => [s, t.output[s] + f.output[s]])) as Record<Stage, number>,
    }),
    {
      name: 'TOTAL',
      status: '',
      pages: 0,
      sourceTokens: 0,
      calls: 0,
      seconds: 0,
      floorSeconds: 0,
      prompt: { judge: 0, extract: 0, summary: 0, structure: 0 },
      output: { judge: 0, extract: 0, summary: 0, structure: 0 },
    },
  );
  const rows = [...figures, total].map((f) => {
    const per = (n: number) => fmt(f.sourceTokens > 0 ? n / f.sourceTokens : NaN);
    return {
      document: f.name,
      status: f.status,
      pages: String(f.pages),
      'source tok': String(f.sourceTokens),
      calls: String(f.calls),
      'model s': fmt(f.seconds, 0),
      's/page': fmt(f.pages > 0 ? f.seconds / f.pages : NaN),
      'floor s': fmt(f.floorSeconds, 0),
      'ratio (<= 2.0)': f.floorSeconds > 0 ? `${fmt(f.seconds / f.floorSeconds, 1)}x` : '-',
      'prompt eval/src (<= 1.3)': per(sum(f.prompt)),
      'judge/extract/summary': `${per(f.prompt.judge)}/${per(f.prompt.extract)}/${per(f.prompt.summary)}`,
      // Enforced by the engine (summary/summarizeDocument.ts capSummaries), printed so a run shows it holds.
      'summary/src (<= 0.15)': per(f.prompt.summary),
      // Everything else: the completeness check's stated-totals call (when the rules read no totals), a tree split.
      'other/src': per(f.prompt.structure),
      'output/src': per(sum(f.output)),
      'output tok judge/extract/summary': `${f.output.judge}/${f.output.extract}/${f.output.summary}`,
    };
  });
  return rows;
}

/** The tree split's figures for the model-time section (plausible model and the two real-model modes). */
export async function treeSplitFigures(): Promise<Record<string, string>[]> {
  const figures = await runTreeSplitCorpusBench();
  return Object.entries(figures).map(([figure, value]) => ({ 'tree split (--strategy llm-tree), reports without an outline': figure, value: String(value) }));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  console.table(await runModelTimeBench());
}
