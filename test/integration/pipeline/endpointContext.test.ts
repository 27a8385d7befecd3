/**
 * The context of an OpenAI-compatible endpoint (issue 29): not in its API, so a setting of the endpoint (or vLLM's
 * max_model_len), and the planner keeps every prompt and its reply room within it, alone or in a pool beside a
 * larger endpoint. A setting larger than the server's real context meets the server's 400 "maximum context length":
 * the context-overflow error, never sent again as it was. Real HTTP to the simulator, a real SQLite file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointSettings } from '../../../shared/endpoints';
import { AppError, ErrorCode } from '../../../shared/errors';
import { createEngine, type Engine } from '../../../electron/engine';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../../electron/engine/pipeline/settings';
import { listChunkResults } from '../../../electron/engine/extract';
import { createLlmClient, resolveEndpoint } from '../../../electron/engine/llm';
import { openDatabase, type Database } from '../../../electron/engine/store';
import { plantedReport, plantedResponder } from '../../fixtures/plantedFindings';
import type { SimChatRequest } from '../../ollama-sim/index';
import { startOpenAiSim, type OpenAiSim } from '../../ollama-sim/openai';
import { mergedOf, MODEL } from '../pipeline/helpers';

const report = plantedReport();
const responder = plantedResponder(report);
/** The server's real context: smaller than what the default settings plan (units of 4000 tokens, replies of 2048). */
const SMALL = 6144;
const filler = 'The auditors traced each sampled change from its request to its deployment record and noted where an approval was missing or late. ';
/** The planted report with every page lengthened, so a unit of the default size would not fit SMALL. */
const pages = report.pageTexts.map((page) => `${page}\n${filler.repeat(40)}`);
const settings = { strategy: 'pages' as const, judge: false, llm: { ...DEFAULT_RUN_LLM_SETTINGS, models: { default: MODEL }, cache: false } };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function harness(): Promise<{ db: Database; engine: Engine; file: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'endpoint-context-'));
  const db = openDatabase(join(dir, 'store.sqlite'));
  const file = join(dir, 'long-report.txt');
  writeFileSync(file, pages.join('\f'));
  const sleep = async (_ms: number, signal?: AbortSignal) => {
    if (signal?.aborted) throw new AppError(ErrorCode.CANCELLED, 'Cancelled.');
  };
  const engine = createEngine({
    db,
    appVersion: 'test',
    createLlm: (s, endpoint) =>
      createLlmClient({
        db,
        sleep,
        ...(endpoint ? { endpoint: resolveEndpoint(endpoint, () => undefined) } : {}),
        settings: { maxInFlight: endpoint?.concurrency ?? 1, cache: s.llm.cache },
      }),
  });
  cleanups.push(async () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, engine, file };
}

async function server(contextLength: number, listContextLength: boolean): Promise<OpenAiSim> {
  const sim = await startOpenAiSim({ responder, contextLength, listContextLength });
  cleanups.push(() => sim.close());
  return sim;
}

/** What each chat request asked of the server's context: its prompt and the reply room it reserved (none refused). */
function asked(sim: OpenAiSim): number[] {
  expect(sim.requests).toHaveLength(sim.bodies.length);
  return sim.requests.map((r, i) => r.promptTokens + (sim.bodies[i]!.max_tokens as number));
}

function plannedNumCtx(db: Database, runId: number): number {
  const rows = db.prepare("SELECT message FROM run_events WHERE run_id = ? AND message LIKE '%num_ctx %'").all(runId) as Array<{ message: string }>;
  expect(rows).toHaveLength(1);
  return Number(/num_ctx (\d+)/.exec(rows[0]!.message)![1]);
}

function expectEveryUnitDone(db: Database, runId: number, documentId: number): void {
  const results = listChunkResults(db, runId, documentId);
  expect(results.length).toBeGreaterThan(1);
  expect(results.filter((r) => r.status !== 'done')).toEqual([]);
}

describe('the context of an OpenAI-compatible endpoint', () => {
  it('a server that does not list its context: the setting is the plan, every prompt and its reply room fit it', async () => {
    const sim = await server(SMALL, false);
    const h = await harness();
    const endpoint: EndpointSettings = { kind: 'openai', url: sim.baseUrl, concurrency: 1, contextTokens: SMALL };
    const outcome = await h.engine.analyze([h.file], { ...settings, llm: { ...settings.llm, endpoints: [endpoint] } });
    expect(outcome.run.status, JSON.stringify(outcome.run.error)).toBe('done');
    expect(plannedNumCtx(h.db, outcome.run.id)).toBeLessThanOrEqual(SMALL);
    expect(sim.counters.contextOverflows).toBe(0);
    const sizes = asked(sim);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(SMALL);
    // The context is used, not shrunk to nothing: the largest request fills most of it.
    expect(Math.max(...sizes)).toBeGreaterThan(SMALL * 0.6);
    expectEveryUnitDone(h.db, outcome.run.id, outcome.inputs[0]!.documentId!);
    // Every planted finding, once.
    expect(mergedOf(h.db, outcome.run.id)).toHaveLength(report.truth.length);
  });

  it('in a pool, the smallest endpoint sets the plan: a file fits wherever it runs', async () => {
    // The large endpoint answers first and would plan alone for its own 32768 (vLLM lists max_model_len).
    const large = await server(32768, true);
    const small = await server(SMALL, false);
    const h = await harness();
    const endpoints: EndpointSettings[] = [
      { kind: 'openai', url: large.baseUrl, concurrency: 1, label: 'large' },
      { kind: 'openai', url: small.baseUrl, concurrency: 1, contextTokens: SMALL, label: 'small' },
    ];
    // Two copies (different bytes), so both endpoints take a file.
    const second = h.file.replace(/\.txt$/, '-copy.txt');
    writeFileSync(second, `${pages.join('\f')}\nSecond copy.`);
    const outcome = await h.engine.analyze([h.file, second], { ...settings, llm: { ...settings.llm, endpoints } });
    expect(outcome.run.status, JSON.stringify(outcome.run.error)).toBe('done');
    expect(plannedNumCtx(h.db, outcome.run.id)).toBeLessThanOrEqual(SMALL);
    expect(small.counters.chatRequests).toBeGreaterThan(0);
    expect(large.counters.chatRequests).toBeGreaterThan(0);
    expect(small.counters.contextOverflows).toBe(0);
    expect(Math.max(...asked(small), ...asked(large))).toBeLessThanOrEqual(SMALL);
    for (const input of outcome.inputs) expectEveryUnitDone(h.db, outcome.run.id, input.documentId!);
  });

  it("a setting above the server's real context: its 400 is LLM_CONTEXT_OVERFLOW, and no prompt is sent again as it was", async () => {
    const sim = await server(SMALL, false);
    const h = await harness();
    const endpoint: EndpointSettings = { kind: 'openai', url: sim.baseUrl, concurrency: 1, contextTokens: 16384 };
    const outcome = await h.engine.analyze([h.file], { ...settings, llm: { ...settings.llm, endpoints: [endpoint] } });
    expect(sim.counters.contextOverflows).toBeGreaterThan(0);
    const overflows = h.db
      .prepare('SELECT prompt_hash, error_message FROM llm_calls WHERE run_id = ? AND error_code = ?')
      .all(outcome.run.id, ErrorCode.LLM_CONTEXT_OVERFLOW) as Array<{ prompt_hash: string; error_message: string }>;
    expect(overflows.length).toBe(sim.counters.contextOverflows);
    expect(overflows[0]!.error_message).toMatch(/maximum context length is 6144 tokens/);
    // Never retried blindly: each refused prompt is in the call log once, with no back-off retry and no second send.
    for (const { prompt_hash } of overflows) {
      const sends = h.db.prepare('SELECT outcome FROM llm_calls WHERE run_id = ? AND prompt_hash = ?').all(outcome.run.id, prompt_hash) as Array<{
        outcome: string;
      }>;
      expect(sends).toEqual([{ outcome: 'failed' }]);
    }
    // The chunks were cut smaller instead, and the run says what to do if it repeats.
    expect(outcome.run.status).toBe('done');
    expect(sim.counters.completed).toBeGreaterThan(0);
  });

  it("a 4,096-token server and a report whose summary table names 60 findings: the list never takes the reply's room (trial 2026-11-28 row 18)", async () => {
    // A summary table names each finding; each detailed section follows on its own page. The list of recorded findings the
    // prompt would carry is most of a 4,096-token context. A weaker model answers every title it sees in the prompt
    // (model-behaviours.md; the trial's stand-in did): with the list in the prompt, its replies were cut at the room left.
    const titles = Array.from({ length: 60 }, (_, i) => `Vault accounting ${i + 1} does not round the shares of a deposit consistently across the pools`);
    const contents = ['Summary of Findings', 'No Title Severity Status', ...titles.map((t, i) => `${i + 1} ${t} Medium Open`)].join('\n');
    const sections = titles.map((t, i) =>
      [
        `${i + 1}. ${t}`,
        'Severity: Medium',
        `The vault rounds the shares of deposit ${i + 1} up in one pool and down in the other, so the totals drift apart.`,
      ].join('\n'),
    );
    const everyTitleSeen = (req: SimChatRequest) => {
      const prompt = req.messages.map((m) => m.content).join('\n');
      const seen = titles.filter((t) => prompt.includes(t.slice(0, 60)));
      return JSON.stringify({
        findings: seen.map((t) => ({ id: null, type: 'vulnerability', title: t, severity: 'Medium', description: `${t}.`, evidence: t, page: 1 })),
        summary: `Reports ${seen.length} findings.`,
      });
    };
    const sim = await startOpenAiSim({
      responder: (req) => (JSON.stringify(req.format ?? '').includes('"findings"') ? everyTitleSeen(req) : req.format ? '{}' : 'A summary.'),
      contextLength: 4096,
      listContextLength: false,
    });
    cleanups.push(() => sim.close());
    const h = await harness();
    writeFileSync(h.file, [contents, ...sections].join('\f'));
    const endpoint: EndpointSettings = { kind: 'openai', url: sim.baseUrl, concurrency: 1, contextTokens: 4096 };
    const outcome = await h.engine.analyze([h.file], { ...settings, strategy: 'headings' as const, llm: { ...settings.llm, endpoints: [endpoint] } });
    expect(outcome.run.status, JSON.stringify(outcome.run.error)).toBe('done');
    expect(sim.counters.contextOverflows).toBe(0);
    const cut = h.db.prepare("SELECT COUNT(*) AS n FROM llm_calls WHERE run_id = ? AND purpose = 'extract' AND done_reason = 'length'").get(outcome.run.id) as {
      n: number;
    };
    expect(cut.n).toBe(0);
    expectEveryUnitDone(h.db, outcome.run.id, outcome.inputs[0]!.documentId!);
  });
});
