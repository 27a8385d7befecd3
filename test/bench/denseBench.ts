/**
 * Dense documents (issue 25): audit reports from ../shared/corpus and a generated release note with 360 issue IDs
 * (test/fixtures/releaseNotes.ts: as an issue table and a list, as "o ID: title" lines, and in running text), through the whole pipeline against the simulator at the model-time bench's rates,
 * answered from their truth by a model that writes replies as long as real models do (verbose-replies: pretty-printed
 * JSON, fields at their word limits) and reports every sighting (summary-and-detail), once as it is and once ending
 * its lists after 20 findings, or 10 (stops-after-n).
 *
 * Per document set and mode: truth findings found once, model time against the floor (the source read once plus each
 * truth finding's compact JSON written once), output tokens thrown away (written by the model in a reply the engine
 * did not use: retried or failed calls), reply entries (raw findings) per truth finding, cut replies, continuations
 * and follow-up calls.
 *
 * Run alone: BENCH_ONLY=dense npx tsx test/bench/run.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../../electron/engine';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../electron/engine/pipeline/settings';
import { listMergedFindings } from '../../electron/engine/merge';
import { openDatabase } from '../../electron/engine/store';
import { defaultTokenize, startOllamaSim, type Responder, type SimChatRequest } from '../ollama-sim/index';
import { startOpenAiSim } from '../ollama-sim/openai';
import { scoreStrict } from '../eval/strictScore';
import { isExtractionRequest, loadCorpusTruth, truthResponder, type ModelMode, type TruthDocument } from '../eval/truthResponder';
import { releaseNotes } from '../fixtures/releaseNotes';
import { CORPUS } from './treesplitCorpusBench';
import { floorOutputTokens, RATES } from './modelTimeBench';

const MODEL = 'qwen3:8b';

interface Case {
  label: string;
  docs: { truth: TruthDocument; file: string }[];
}

interface Figures {
  truth: number;
  found: number;
  seconds: number;
  floor: number;
  output: number;
  thrownAway: number;
  entries: number;
  extractCalls: number;
  cut: number;
  continuations: number;
  followUps: number;
  /** Prompt tokens the model evaluated (after its prefix cache) and the source's own tokens. */
  promptEvaluated: number;
  sourceTokens: number;
  /** Simulated seconds per stage: extraction reading, extraction writing, everything else. */
  extractIn: number;
  extractOut: number;
  other: number;
}

/** The server the engine talks to: Ollama, or an OpenAI-compatible server (llama-server, vLLM) with its own context. */
type Api = 'ollama' | 'openai';
/** The OpenAI-compatible server's context (llama-server -c): small enough that long replies meet max_tokens. */
const OPENAI_CONTEXT = 8192;

/** A simulated server of either API behind one face: its URL as the run's settings name it, its requests and model time. */
async function startServer(api: Api, responder: Responder) {
  if (api === 'ollama') {
    const sim = await startOllamaSim({ rates: RATES, timeScale: 0, responder });
    return { llm: { host: sim.url }, requests: () => sim.requests, seconds: () => sim.counters.simulatedSeconds, close: () => sim.close() };
  }
  const sim = await startOpenAiSim({ rates: RATES, timeScale: 0, responder, contextLength: OPENAI_CONTEXT });
  return {
    llm: { endpoints: [{ kind: 'openai' as const, url: sim.baseUrl, concurrency: 1 }] },
    requests: () => sim.requests,
    seconds: () => sim.counters.simulatedSeconds,
    close: () => sim.close(),
  };
}

async function measure(c: Case, modes: ModelMode[], dir: string, stopAfter?: number, api: Api = 'ollama'): Promise<Figures> {
  const answer = truthResponder(
    c.docs.map((d) => d.truth),
    { modes, ...(stopAfter ? { stopAfter } : {}) },
  );
  let written = 0;
  // Entries the model writes: the findings of every extraction reply (a reply later cut at its limit counted whole).
  const counting: Responder = async (req) => {
    const reply = await answer(req);
    if (isExtractionRequest(req)) written += countEntries(typeof reply === 'string' ? reply : reply.content);
    return reply;
  };
  const server = await startServer(api, counting);
  const db = openDatabase(join(dir, `${c.label}-${modes.join('+')}-${stopAfter ?? ''}-${api}.sqlite`.replace(/[^\w.+-]/g, '_')));
  const f: Figures = {
    truth: 0,
    found: 0,
    seconds: 0,
    floor: 0,
    output: 0,
    thrownAway: 0,
    entries: 0,
    extractCalls: 0,
    cut: 0,
    continuations: 0,
    followUps: 0,
    promptEvaluated: 0,
    sourceTokens: 0,
    extractIn: 0,
    extractOut: 0,
    other: 0,
  };
  try {
    const engine = createEngine({ db, appVersion: 'bench' });
    for (const doc of c.docs) {
      const requestsBefore = server.requests().length;
      const secondsBefore = server.seconds();
      const outcome = await engine.analyze([doc.file], { llm: { ...DEFAULT_RUN_LLM_SETTINGS, ...server.llm, models: { default: MODEL }, cache: false } });
      const documentId = outcome.inputs[0]!.documentId!;
      const runId = outcome.run.id;
      const text = (db.prepare('SELECT canonical_text AS t FROM documents WHERE id = ?').get(documentId) as { t: string }).t;
      f.truth += doc.truth.findings.length;
      f.found += scoreStrict(doc.truth.findings, listMergedFindings(db, runId, documentId)).found;
      f.seconds += server.seconds() - secondsBefore;
      f.sourceTokens += defaultTokenize(text).length;
      f.floor += defaultTokenize(text).length / RATES.prefillTokensPerSec + floorOutputTokens(doc.truth) / RATES.decodeTokensPerSec;
      const calls = db
        .prepare('SELECT purpose, outcome, eval_count AS out, done_reason AS reason, chunk_ref AS ref FROM llm_calls WHERE run_id = ?')
        .all(runId) as {
        purpose: string;
        outcome: string;
        out: number | null;
        reason: string | null;
        ref: string | null;
      }[];
      // Reading: the prompt tokens the model evaluated after its prefix cache, as the simulator spent them (the
      // call log's prompt_eval_count counts cached tokens too, as Ollama reports them).
      for (const req of server.requests().slice(requestsBefore) as SimChatRequest[]) {
        const reading = req.evaluatedTokens / RATES.prefillTokensPerSec;
        f.promptEvaluated += req.evaluatedTokens;
        if (isExtractionRequest(req)) f.extractIn += reading;
        else f.other += reading;
      }
      for (const call of calls) {
        f.output += call.out ?? 0;
        const writing = (call.out ?? 0) / RATES.decodeTokensPerSec;
        if (call.purpose === 'extract') f.extractOut += writing;
        else f.other += writing;
        if (call.outcome === 'retried' || call.outcome === 'failed') f.thrownAway += call.out ?? 0;
        if (call.purpose !== 'extract') continue;
        f.extractCalls++;
        if (call.reason === 'length') f.cut++;
        if (/\+\d+$/.test(call.ref ?? '')) f.continuations++;
        if (/\?\d+$/.test(call.ref ?? '')) f.followUps++;
      }
    }
    f.entries = written;
  } finally {
    db.close();
    await server.close();
  }
  return f;
}

export async function runDenseBench(): Promise<Record<string, string>[]> {
  const dir = mkdtempSync(join(tmpdir(), 'dense-bench-'));
  try {
    // The same 360 issues as an issue table and a list (registers, read by the rules), as changelog lines "o ID: title"
    // (a symbol-font bullet; read by the rules too) and in running text (read by the model).
    const notes = [releaseNotes(), releaseNotes({ layout: 'bullets' }), releaseNotes({ layout: 'prose' })];
    const layoutNames = ['table and list', 'ID lines', 'running text'];
    for (const n of notes) writeFileSync(join(dir, `${n.name}.pdf`), await n.pdf());
    const reports = loadCorpusTruth(CORPUS).filter((t) => t.findings.length > 0);
    const cases: Case[] = [
      {
        label: `audit reports (${reports.length}, ../shared/corpus)`,
        docs: reports.map((truth) => ({ truth, file: join(CORPUS, 'pdfs', `${truth.name}.pdf`) })),
      },
      ...notes.map((n, i) => ({
        label: `release note (${n.truth.findings.length} IDs, generated, ${layoutNames[i]})`,
        docs: [{ truth: n.truth, file: join(dir, `${n.name}.pdf`) }],
      })),
    ];
    // Small local models end long lists after 15-30 items; one that stops at 10 ends lists shorter than a unit holds.
    // The baseline in the same run: a model that writes every finding in full (recorded ones and those whose ID the text
    // prints), as every model did before the RECORDED FINDINGS block was numbered and ID lines were offered (its
    // figures are the engine's cost without those routes).
    const modeSets: { modes: ModelMode[]; stopAfter?: number; label?: string; api?: Api }[] = [
      {
        modes: ['verbose-replies', 'summary-and-detail', 'null-ids', 'ignores-recorded', 'ignores-id-lines'],
        label: 'verbose, every finding written in full (baseline)',
      },
      { modes: ['verbose-replies', 'summary-and-detail', 'null-ids'] },
      { modes: ['verbose-replies', 'stops-after-n', 'summary-and-detail', 'null-ids'], stopAfter: 20 },
      { modes: ['verbose-replies', 'stops-after-n', 'summary-and-detail', 'null-ids'], stopAfter: 10 },
      // The other API: an OpenAI-compatible server with an 8,192-token context, where long replies meet max_tokens
      // (finish_reason "length"): what a cut reply costs there (issue 38 item 4: nothing thrown away on either API).
      {
        modes: ['verbose-replies', 'summary-and-detail', 'null-ids'],
        api: 'openai',
        label: `verbose, OpenAI-compatible API (${OPENAI_CONTEXT}-token context)`,
      },
    ];
    const rows: Record<string, string>[] = [];
    // DENSE_ONLY=running measures only the cases whose label contains one of these words (reports, table, lines, running).
    const only = process.env.DENSE_ONLY?.split(',')
      .map((w) => w.trim())
      .filter(Boolean);
    for (const c of cases.filter((x) => !only || only.some((w) => x.label.includes(w)))) {
      for (const { modes, stopAfter, label, api } of modeSets) {
        const f = await measure(c, modes, dir, stopAfter, api);
        rows.push({
          documents: c.label,
          model: label ?? (stopAfter ? `verbose, stops after ${stopAfter}` : 'verbose'),
          'found once': `${f.found}/${f.truth}`,
          'model s': f.seconds.toFixed(0),
          'floor s': f.floor.toFixed(0),
          'ratio (<= 1.5 reports, 1.1 notes)': `${(f.seconds / f.floor).toFixed(2)}x`,
          'output thrown away (0%)': `${((100 * f.thrownAway) / Math.max(1, f.output)).toFixed(1)}%`,
          'entries / truth finding (<= 1.2)': (f.entries / Math.max(1, f.truth)).toFixed(2),
          'prompt evaluated / source token (<= 1.3)': (f.promptEvaluated / Math.max(1, f.sourceTokens)).toFixed(2),
          's extract read / write / other': `${f.extractIn.toFixed(0)} / ${f.extractOut.toFixed(0)} / ${f.other.toFixed(0)}`,
          'extract calls': String(f.extractCalls),
          'cut / continued / follow-up': `${f.cut}/${f.continuations}/${f.followUps}`,
        });
      }
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  console.table(await runDenseBench());
}

/** The finding entries of one extraction reply (0 when it is no JSON with a findings list). */
function countEntries(content: string): number {
  try {
    const parsed = JSON.parse(content) as { findings?: unknown };
    return Array.isArray(parsed.findings) ? parsed.findings.length : 0;
  } catch {
    return 0;
  }
}
