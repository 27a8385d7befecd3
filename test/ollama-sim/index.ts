/**
 * Faithful Ollama simulator: speaks Ollama's HTTP API on 127.0.0.1 so that the real `ollama` npm
 * client and the real engine run unchanged against it. See test/ollama-sim/README.md for what
 * is simulated and the deliberate deviations.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleepMs } from 'node:timers/promises';
import { defaultTokenize } from './tokenizer';
import { minimalInstance } from './schema';

export { defaultTokenize } from './tokenizer';
export { minimalInstance } from './schema';

// ---------------------------------------------------------------------------------------------
// Public interface
// ---------------------------------------------------------------------------------------------

export interface SimModel {
  name: string;
  architecture: string;
  contextLength: number;
  capabilities: string[];
  parameterSize: string;
  quantization: string;
  digest: string;
  sizeBytes: number;
  modelfileNumCtx?: number;
  /** bytes of memory needed per 1k tokens of num_ctx, for OOM simulation */
  memoryPerKCtx?: number;
}

export interface SimChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  /** the rendered prompt text the model actually sees (after truncation) */
  prompt: string;
  promptTokens: number;
  /** tokens of the full prompt before truncation */
  fullPromptTokens: number;
  truncated: boolean;
  numCtx: number;
  options: Record<string, unknown>;
  format: unknown;
  think: unknown;
  requestIndex: number;
  /** addition: which endpoint produced the request */
  endpoint: 'chat' | 'generate';
  /** addition: whether the reply is streamed */
  stream: boolean;
  /** addition: prompt tokens actually evaluated (after the prefix cache) */
  evaluatedTokens: number;
}

export type SimReply = string | { content: string; /** optional thinking text */ thinking?: string; doneReason?: 'stop' | 'length' };
export type Responder = (req: SimChatRequest) => SimReply | Promise<SimReply>;

export type Fault =
  | { kind: 'http'; status: number; error: string }
  | { kind: 'modelNotFound' }
  | { kind: 'outOfMemory' }
  | { kind: 'runnerCrash' }
  | { kind: 'loadTimeout' }
  | { kind: 'busy' }
  | { kind: 'invalidSchema' }
  | { kind: 'streamErrorLine'; afterFrames: number; error: string }
  | { kind: 'dropBeforeHeaders' }
  | { kind: 'dropMidStream'; afterFrames: number }
  | { kind: 'noDoneFrame' }
  | { kind: 'slowFirstToken'; ms: number }
  | { kind: 'stall'; afterFrames: number; ms: number }
  | { kind: 'codeFences' }
  | { kind: 'cutJson'; keepChars?: number }
  | { kind: 'splitMultibyte' };

export interface FaultRule {
  fault: Fault;
  /** apply to the Nth chat request (0-based), or the next `times` requests, or with seeded probability */
  onRequest?: number;
  times?: number;
  probability?: number;
  endpoint?: 'chat' | 'embed' | 'any';
  model?: string;
}

export interface SimRates {
  prefillTokensPerSec: number;
  decodeTokensPerSec: number;
  loadSeconds: number;
}

export interface SimOptions {
  version?: string /* default '0.12.11' */;
  models?: SimModel[];
  responder?: Responder;
  rates?: SimRates;
  /** 0 = never sleep (default): simulated time is only counted; 1 = real time; 0.01 = 100x faster */
  timeScale?: number;
  faults?: FaultRule[];
  seed?: number;
  defaultNumCtx?: number /* default 4096 */;
  maxQueue?: number /* pending requests before 503, default 512 */;
  memoryBytes?: number;
  tokenize?: (text: string) => string[];
  // ---- additions ----
  /** port to listen on (default 0 = random) */
  port?: number;
  /** clock used for keep_alive / expires_at (default Date.now); tests can move time forward */
  now?: () => number;
  /** put the last piece of content in the done frame, as newer servers may (default true) */
  contentInDoneFrame?: boolean;
  /**
   * What `prompt_eval_count` reports. 'all' (default, as Ollama's Go runners do: numPromptInputs is
   * set after truncation and before the KV-cache lookup) = every prompt token after truncation,
   * cache hits included; 'evaluated' = only tokens evaluated after the prefix cache.
   */
  promptEvalCountMode?: 'all' | 'evaluated';
  /** OLLAMA_KEEP_ALIVE: default keep_alive when a request sends none (default '5m') */
  defaultKeepAlive?: string | number;
  /** dimension of /api/embed vectors (default 64) */
  embeddingDimension?: number;
}

export interface SimCounters {
  requests: number;
  chatRequests: number;
  embedRequests: number;
  loads: number;
  reloads: number;
  unloads: number;
  cancellations: number;
  promptTokens: number /* sent */;
  promptTokensEvaluated: number /* after prefix cache */;
  outputTokens: number;
  truncations: number;
  simulatedSeconds: number;
  maxInFlight: number;
  maxPromptTokens: number;
  faultsInjected: number;
}

export interface OllamaSim {
  url: string;
  port: number;
  counters: SimCounters;
  requests: SimChatRequest[];
  setResponder(fn: Responder): void;
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  resetCounters(): void;
  loaded(): { model: string; numCtx: number; expiresAt: string }[];
  close(): Promise<void>;
}

const GiB = 1024 ** 3;

export const defaultSimModels: SimModel[] = [
  {
    name: 'qwen3:8b',
    architecture: 'qwen3',
    contextLength: 40960,
    capabilities: ['completion', 'tools', 'thinking'],
    parameterSize: '8.2B',
    quantization: 'Q4_K_M',
    digest: '500a1f067a9f782620b40bee6f7b0c89e17ae61f686b92c24933e4ca4b2b8b41',
    sizeBytes: 5_225_388_164,
    memoryPerKCtx: 144 * 1024 * 1024,
  },
  {
    name: 'llama3.1:8b',
    architecture: 'llama',
    contextLength: 131072,
    capabilities: ['completion', 'tools'],
    parameterSize: '8.0B',
    quantization: 'Q4_K_M',
    digest: '46e0c10c039e019119339687c3c1757cc81b9da49709a3b3924863ba87ca666e',
    sizeBytes: 4_920_753_328,
    memoryPerKCtx: 128 * 1024 * 1024,
  },
  {
    name: 'gemma3:12b',
    architecture: 'gemma3',
    contextLength: 131072,
    capabilities: ['completion', 'vision'],
    parameterSize: '12.2B',
    quantization: 'Q4_K_M',
    digest: 'f4031aab637d1ffa37b42570452ae0e4fad0314754d17ded67322e4b95836f8a',
    sizeBytes: 8_149_190_253,
    memoryPerKCtx: 192 * 1024 * 1024,
  },
  {
    name: 'nomic-embed-text:latest',
    architecture: 'nomic-bert',
    contextLength: 2048,
    capabilities: ['embedding'],
    parameterSize: '137M',
    quantization: 'F16',
    digest: '0a109f422b47e3a30ba2b10eca18548e944e8a23073ee3f3e947efcf3c45e59f',
    sizeBytes: 274_302_450,
    memoryPerKCtx: 12 * 1024 * 1024,
  },
];

/** The default responder: `{}` when `format` is a schema or 'json', else 'OK'. */
export const defaultResponder: Responder = (req) => (hasFormat(req.format) ? '{}' : 'OK');

/** A responder that returns a minimal valid instance of the request's JSON-schema `format`. */
export const schemaResponder: Responder = (req) => {
  if (typeof req.format === 'object' && req.format !== null) return JSON.stringify(minimalInstance(req.format));
  if (req.format === 'json') return '{}';
  return 'OK';
};

function hasFormat(format: unknown): boolean {
  return format === 'json' || (typeof format === 'object' && format !== null);
}

// ---------------------------------------------------------------------------------------------
// Error messages (exactly as Ollama writes them)
// ---------------------------------------------------------------------------------------------

export const ollamaErrors = {
  missingBody: 'missing request body',
  modelRequired: 'model is required',
  notFound: (m: string) => `model '${m}' not found`,
  noThinking: (m: string) => `${JSON.stringify(m)} does not support thinking`,
  noChat: (m: string) => `${JSON.stringify(m)} does not support chat`,
  noGenerate: (m: string) => `${JSON.stringify(m)} does not support generate`,
  noEmbeddings: (m: string) => `${JSON.stringify(m)} does not support embeddings`,
  optionInt: (k: string) => `option ${JSON.stringify(k)} must be of type integer`,
  optionFloat: (k: string) => `option ${JSON.stringify(k)} must be of type float32`,
  optionBool: (k: string) => `option ${JSON.stringify(k)} must be of type boolean`,
  inputTooLong: 'the input length exceeds the context length',
  oom: (need: number, have: number) =>
    `model requires more system memory (${(need / GiB).toFixed(1)} GiB) than is available (${(have / GiB).toFixed(1)} GiB)`,
  runnerCrash:
    'model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details',
  loadTimeout: 'timed out waiting for llama runner to start - progress 0.00 - ',
  busy: 'server busy, please try again.  maximum pending requests exceeded',
  invalidSchema: 'invalid JSON schema in format',
  invalidInput: 'invalid input type',
} as const;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Go's encoding/json escapes <, >, & and U+2028/9 */
function goJson(v: unknown): string {
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

function parseVersion(v: string): [number, number, number] {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(v);
  if (!m) return [999, 0, 0];
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function versionAtLeast(v: string, min: string): boolean {
  const a = parseVersion(v);
  const b = parseVersion(min);
  for (let i = 0; i < 3; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a: a fast, stable string hash (seeds and deterministic choices). */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Normalises a model name the way Ollama does for lookups: a missing tag means ':latest'. */
function normName(name: string): string {
  const n = name.trim().toLowerCase();
  const lastSlash = n.lastIndexOf('/');
  return n.slice(lastSlash + 1).includes(':') ? n : `${n}:latest`;
}

const FOREVER_MS = 292 * 365.25 * 24 * 3600 * 1000; // Go's MaxInt64 nanoseconds

/** Parses keep_alive like api.Duration: number = seconds, string = Go duration; negative = forever. */
function parseKeepAlive(v: unknown): { ms: number } | { error: string } {
  if (typeof v === 'number') return { ms: v < 0 ? FOREVER_MS : v * 1000 };
  if (typeof v !== 'string') return { error: `json: cannot unmarshal ${typeof v} into Go value of type api.Duration` };
  const s = v.trim();
  if (s === '0') return { ms: 0 };
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let sign = 1;
  let rest = s;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest.startsWith('-')) sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '') return { error: `time: invalid duration ${JSON.stringify(v)}` };
  const unitMs: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let pos = 0;
  re.lastIndex = 0;
  while (pos < rest.length) {
    re.lastIndex = pos;
    const m = re.exec(rest);
    if (!m) {
      return /^[\d.]+$/.test(rest.slice(pos))
        ? { error: `time: missing unit in duration ${JSON.stringify(v)}` }
        : { error: `time: invalid duration ${JSON.stringify(v)}` };
    }
    total += Number(m[1]) * (unitMs[m[2] ?? 's'] ?? 1000);
    pos = re.lastIndex;
  }
  return { ms: sign < 0 ? FOREVER_MS : total };
}

const INT_OPTIONS = new Set([
  'num_keep', 'seed', 'num_predict', 'top_k', 'repeat_last_n', 'mirostat', 'num_ctx', 'num_batch', 'num_gpu', 'main_gpu', 'num_thread',
]);
const FLOAT_OPTIONS = new Set([
  'temperature', 'top_p', 'min_p', 'typical_p', 'repeat_penalty', 'presence_penalty', 'frequency_penalty', 'tfs_z', 'mirostat_tau', 'mirostat_eta',
]);
const BOOL_OPTIONS = new Set(['penalize_newline', 'numa', 'use_mmap', 'use_mlock', 'low_vram', 'f16_kv', 'vocab_only']);

/** Validates and normalises options like api.Options.FromMap: floats given for integers are truncated. */
function normalizeOptions(raw: unknown): { opts: Record<string, unknown> } | { error: string } {
  if (raw === undefined || raw === null) return { opts: {} };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { error: 'json: cannot unmarshal options' };
  const opts: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (v === null) continue;
    if (INT_OPTIONS.has(k)) {
      if (typeof v !== 'number' || !Number.isFinite(v)) return { error: ollamaErrors.optionInt(k) };
      opts[k] = Math.trunc(v);
    } else if (FLOAT_OPTIONS.has(k)) {
      if (typeof v !== 'number') return { error: ollamaErrors.optionFloat(k) };
      opts[k] = v;
    } else if (BOOL_OPTIONS.has(k)) {
      if (typeof v !== 'boolean') return { error: ollamaErrors.optionBool(k) };
      opts[k] = v;
    } else {
      opts[k] = v;
    }
  }
  return { opts };
}

export function renderPrompt(msgs: { role: string; content: string }[]): string {
  return msgs.map((m) => `<|${m.role}|>\n${m.content}\n`).join('') + '<|assistant|>\n';
}

function commonPrefix(a: string[], b: string[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

// ---------------------------------------------------------------------------------------------
// Internal state
// ---------------------------------------------------------------------------------------------

interface Runner {
  model: SimModel;
  key: string;
  numCtx: number;
  cache: string[];
  /** ms since epoch of the clock; Infinity while a request is running */
  expiresAt: number;
  sessionMs: number;
  memory: number;
}

interface Job {
  start: () => void;
  cancelled: boolean;
}

class ReqCtx {
  aborted = false;
  intentional = false;
  readonly ac = new AbortController();
  constructor(readonly res: http.ServerResponse) {}
}

class Cancelled extends Error {}

const newCounters = (): SimCounters => ({
  requests: 0,
  chatRequests: 0,
  embedRequests: 0,
  loads: 0,
  reloads: 0,
  unloads: 0,
  cancellations: 0,
  promptTokens: 0,
  promptTokensEvaluated: 0,
  outputTokens: 0,
  truncations: 0,
  simulatedSeconds: 0,
  maxInFlight: 0,
  maxPromptTokens: 0,
  faultsInjected: 0,
});

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

export async function startOllamaSim(options: SimOptions = {}): Promise<OllamaSim> {
  const version = options.version ?? '0.12.11';
  const models = options.models ?? defaultSimModels;
  const rates: SimRates = options.rates ?? { prefillTokensPerSec: 1000, decodeTokensPerSec: 40, loadSeconds: 3 };
  const timeScale = options.timeScale ?? 0;
  const tokenize = options.tokenize ?? defaultTokenize;
  const maxQueue = options.maxQueue ?? 512;
  const now = options.now ?? Date.now;
  const contentInDoneFrame = options.contentInDoneFrame ?? true;
  const evalCountMode = options.promptEvalCountMode ?? 'all';
  const embedDim = options.embeddingDimension ?? 64;
  const defaultNumCtx = versionAtLeast(version, '0.6.7') ? (options.defaultNumCtx ?? 4096) : 2048;
  const truncateParamSupported = versionAtLeast(version, '0.12.6');
  const psHasContextLength = versionAtLeast(version, '0.10.0');
  const defaultKeepAlive = parseKeepAlive(options.defaultKeepAlive ?? '5m');
  const defaultKeepAliveMs = 'ms' in defaultKeepAlive ? defaultKeepAlive.ms : 300_000;
  const rand = mulberry32(options.seed ?? 42);
  const startedAt = new Date(now() - 86_400_000).toISOString();

  let responder: Responder = options.responder ?? defaultResponder;
  let faults: FaultRule[] = (options.faults ?? []).map((f) => ({ ...f }));
  const counters = newCounters();
  const requests: SimChatRequest[] = [];
  const runners = new Map<string, Runner>();
  const queue: Job[] = [];
  let busy = false;
  let inFlight = 0;
  let chatIndex = 0;
  let embedIndex = 0;
  const sockets = new Set<Socket>();

  const findModel = (name: string): SimModel | undefined => models.find((m) => normName(m.name) === normName(name));

  // ---- time ----
  async function spend(seconds: number, ctx: ReqCtx | undefined): Promise<void> {
    if (seconds <= 0) return;
    counters.simulatedSeconds += seconds;
    if (timeScale > 0) await realSleep(seconds * 1000 * timeScale, ctx);
  }
  async function realSleep(ms: number, ctx: ReqCtx | undefined): Promise<void> {
    if (ctx?.aborted) throw new Cancelled();
    if (ms <= 0) return;
    try {
      await sleepMs(ms, undefined, ctx ? { signal: ctx.ac.signal } : undefined);
    } catch {
      throw new Cancelled();
    }
  }
  const yieldLoop = () => new Promise<void>((r) => setImmediate(r));

  // ---- runners ----
  function expireRunners(): void {
    const t = now();
    for (const [k, r] of runners) {
      if (r.expiresAt <= t) {
        runners.delete(k);
        counters.unloads++;
      }
    }
  }
  function runnerMemory(m: SimModel, numCtx: number): number {
    return m.sizeBytes + ((m.memoryPerKCtx ?? 0) * numCtx) / 1024;
  }

  /** Loads (or reloads) the model's runner; returns the load seconds spent, or an OOM error. */
  async function ensureRunner(m: SimModel, numCtx: number, key: string, ctx: ReqCtx): Promise<{ runner: Runner; loadSec: number } | { error: string }> {
    expireRunners();
    const id = normName(m.name);
    const existing = runners.get(id);
    if (existing && existing.key === key) {
      existing.expiresAt = Infinity;
      return { runner: existing, loadSec: 0 };
    }
    const need = runnerMemory(m, numCtx);
    if (options.memoryBytes !== undefined) {
      if (need > options.memoryBytes) {
        return { error: ollamaErrors.oom(need, options.memoryBytes) };
      }
      // evict other runners until it fits, like the scheduler does
      let used = [...runners.values()].filter((r) => r !== existing).reduce((s, r) => s + r.memory, 0);
      for (const [k, r] of runners) {
        if (used + need <= options.memoryBytes) break;
        if (r === existing) continue;
        runners.delete(k);
        counters.unloads++;
        used -= r.memory;
      }
    }
    if (existing) {
      runners.delete(id);
      counters.reloads++;
    } else {
      counters.loads++;
    }
    const runner: Runner = { model: m, key, numCtx, cache: [], expiresAt: Infinity, sessionMs: defaultKeepAliveMs, memory: need };
    runners.set(id, runner);
    await spend(rates.loadSeconds, ctx);
    return { runner, loadSec: rates.loadSeconds };
  }

  function finishRunner(runner: Runner, keepAliveMs: number | undefined): void {
    const id = normName(runner.model.name);
    if (runners.get(id) !== runner) return;
    const ms = keepAliveMs ?? runner.sessionMs;
    runner.sessionMs = ms;
    if (ms <= 0) {
      runners.delete(id);
      counters.unloads++;
    } else {
      runner.expiresAt = now() + ms;
    }
  }

  function resolveRunnerOptions(m: SimModel, opts: Record<string, unknown>): { numCtx: number; key: string } {
    const requested = typeof opts.num_ctx === 'number' ? opts.num_ctx : (m.modelfileNumCtx ?? defaultNumCtx);
    // the server clamps num_ctx to the model's trained context length
    const numCtx = Math.max(1, Math.min(requested, m.contextLength));
    const key = JSON.stringify([numCtx, opts.num_batch ?? 512, opts.num_gpu ?? -1, opts.num_thread ?? 0]);
    return { numCtx, key };
  }

  // ---- scheduler ----
  function acquire(ctx: ReqCtx): Promise<boolean> | { busy: true } {
    if (!busy) {
      busy = true;
      inFlight++;
      counters.maxInFlight = Math.max(counters.maxInFlight, inFlight);
      return Promise.resolve(true);
    }
    if (queue.length >= maxQueue) return { busy: true };
    return new Promise<boolean>((resolve) => {
      const job: Job = {
        cancelled: false,
        start: () => {
          inFlight++;
          counters.maxInFlight = Math.max(counters.maxInFlight, inFlight);
          resolve(true);
        },
      };
      queue.push(job);
      ctx.ac.signal.addEventListener('abort', () => {
        const i = queue.indexOf(job);
        if (i >= 0) {
          queue.splice(i, 1);
          job.cancelled = true;
          resolve(false);
        }
      });
    });
  }
  function release(): void {
    inFlight--;
    const next = queue.shift();
    if (next) next.start();
    else busy = false;
  }

  // ---- faults ----
  function pickFaults(endpoint: 'chat' | 'embed', index: number, model: string): Fault[] {
    const out: Fault[] = [];
    for (const rule of faults) {
      const ep = rule.endpoint ?? 'chat';
      if (ep !== 'any' && ep !== endpoint) continue;
      if (rule.model !== undefined && normName(rule.model) !== normName(model)) continue;
      if (rule.onRequest !== undefined && rule.onRequest !== index) continue;
      if (rule.times !== undefined && rule.times <= 0) continue;
      if (rule.probability !== undefined && !(rand() < rule.probability)) continue;
      if (rule.times !== undefined) rule.times--;
      out.push(rule.fault);
    }
    counters.faultsInjected += out.length;
    return out;
  }
  const findFault = <K extends Fault['kind']>(fs: Fault[], kind: K) => fs.find((f): f is Extract<Fault, { kind: K }> => f.kind === kind);

  // ---- responses ----
  function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
    if (res.headersSent || res.destroyed) return;
    const text = goJson(body);
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }
  const sendError = (res: http.ServerResponse, status: number, error: string) => sendJson(res, status, { error });

  function httpFaultResponse(f: Fault, modelName: string, need: number, have: number): { status: number; error: string } | undefined {
    switch (f.kind) {
      case 'http':
        return { status: f.status, error: f.error };
      case 'modelNotFound':
        return { status: 404, error: ollamaErrors.notFound(modelName) };
      case 'outOfMemory':
        return { status: 500, error: ollamaErrors.oom(need, have) };
      case 'runnerCrash':
        return { status: 500, error: ollamaErrors.runnerCrash };
      case 'loadTimeout':
        return { status: 500, error: ollamaErrors.loadTimeout };
      case 'busy':
        return { status: 503, error: ollamaErrors.busy };
      case 'invalidSchema':
        return { status: 500, error: ollamaErrors.invalidSchema };
      default:
        return undefined;
    }
  }

  // ---- chat / generate ----
  async function handleCompletion(endpoint: 'chat' | 'generate', body: Record<string, unknown>, ctx: ReqCtx): Promise<void> {
    const res = ctx.res;
    const requestIndex = chatIndex++;
    counters.chatRequests++;
    const modelName = body.model;
    if (typeof modelName !== 'string' || modelName.trim() === '') return sendError(res, 400, ollamaErrors.modelRequired);
    const model = findModel(modelName);
    if (!model) return sendError(res, 404, ollamaErrors.notFound(modelName));
    const stream = body.stream === undefined || body.stream === null ? true : body.stream === true;

    // messages
    let messages: { role: string; content: string }[];
    if (endpoint === 'chat') {
      const raw = body.messages ?? [];
      if (!Array.isArray(raw)) return sendError(res, 400, 'json: cannot unmarshal messages into Go struct field ChatRequest.messages of type []api.Message');
      messages = raw.map((m) => {
        const o = (typeof m === 'object' && m !== null ? m : {}) as Record<string, unknown>;
        return { role: typeof o.role === 'string' ? o.role : '', content: typeof o.content === 'string' ? o.content : '' };
      });
    } else {
      const prompt = typeof body.prompt === 'string' ? body.prompt : '';
      messages = prompt === '' ? [] : [...(typeof body.system === 'string' && body.system !== '' ? [{ role: 'system', content: body.system }] : []), { role: 'user', content: prompt }];
    }

    const fs = pickFaults('chat', requestIndex, model.name);
    const nf = findFault(fs, 'modelNotFound');
    if (nf) return sendError(res, 404, ollamaErrors.notFound(modelName));
    if (findFault(fs, 'busy')) return sendError(res, 503, ollamaErrors.busy);

    let keepAliveMs: number | undefined;
    if (body.keep_alive !== undefined && body.keep_alive !== null) {
      const ka = parseKeepAlive(body.keep_alive);
      if ('error' in ka) return sendError(res, 400, ka.error);
      keepAliveMs = ka.ms;
    }

    // unload request: no messages/prompt and keep_alive 0
    if (messages.length === 0 && keepAliveMs === 0) {
      const id = normName(model.name);
      if (runners.delete(id)) counters.unloads++;
      return sendJson(res, 200, doneObject(endpoint, modelName, '', undefined, 'unload', undefined));
    }

    const think = body.think;
    const thinkOn = think !== undefined && think !== null && think !== false;
    const canThink = model.capabilities.includes('thinking');
    if (thinkOn && !canThink) return sendError(res, 400, ollamaErrors.noThinking(modelName));
    if (!model.capabilities.includes('completion')) {
      return sendError(res, 400, endpoint === 'chat' ? ollamaErrors.noChat(modelName) : ollamaErrors.noGenerate(modelName));
    }
    const norm = normalizeOptions(body.options);
    if ('error' in norm) return sendError(res, 500, norm.error);
    const opts = norm.opts;
    const { numCtx, key } = resolveRunnerOptions(model, opts);

    const got = acquire(ctx);
    if ('busy' in got) return sendError(res, 503, ollamaErrors.busy);
    if (!(await got)) {
      counters.cancellations++;
      return;
    }
    let runner: Runner | undefined;
    try {
      // scheduling-time faults
      for (const f of fs) {
        const need = runnerMemory(model, numCtx);
        const hf = httpFaultResponse(f, modelName, need, options.memoryBytes ?? Math.floor(need * 0.75));
        if (hf && f.kind !== 'invalidSchema') {
          if (f.kind === 'runnerCrash' || f.kind === 'loadTimeout' || f.kind === 'outOfMemory') {
            if (runners.delete(normName(model.name))) counters.unloads++;
          }
          return sendError(res, hf.status, hf.error);
        }
      }
      if (findFault(fs, 'dropBeforeHeaders')) {
        ctx.intentional = true;
        res.socket?.destroy();
        return;
      }
      const ensured = await ensureRunner(model, numCtx, key, ctx);
      if ('error' in ensured) return sendError(res, 500, ensured.error);
      runner = ensured.runner;
      const loadSec = ensured.loadSec;

      if (messages.length === 0) {
        return sendJson(res, 200, doneObject(endpoint, modelName, '', undefined, 'load', undefined));
      }
      if (findFault(fs, 'invalidSchema')) return sendError(res, 500, ollamaErrors.invalidSchema);

      // ---- render + truncate ----
      const truncate = truncateParamSupported ? body.truncate !== false : true;
      const fullTokens = tokenize(renderPrompt(messages));
      let kept: { role: string; content: string }[] = messages;
      let tokens = fullTokens;
      let dropped = false;
      if (truncate && fullTokens.length > numCtx) {
        // chatPrompt: walk back from the last message, keep system messages, drop the oldest others
        let n = messages.length - 1;
        for (let i = n - 1; i >= 0; i--) {
          const sys = messages.slice(0, i).filter((m) => m.role === 'system');
          const len = tokenize(renderPrompt([...sys, ...messages.slice(i)])).length;
          if (len > numCtx) break;
          n = i;
        }
        if (n > 0) {
          kept = [...messages.slice(0, n).filter((m) => m.role === 'system'), ...messages.slice(n)];
          dropped = kept.length !== messages.length;
          tokens = tokenize(renderPrompt(kept));
        }
      }
      let runnerTruncated = false;
      if (tokens.length > numCtx) {
        if (!truncate) return sendError(res, 400, ollamaErrors.inputTooLong);
        const rawKeep = typeof opts.num_keep === 'number' ? opts.num_keep : 4;
        const numKeep = Math.min(rawKeep < 0 ? tokens.length : rawKeep, numCtx - 1);
        const discard = tokens.length - numCtx;
        tokens = [...tokens.slice(0, numKeep), ...tokens.slice(numKeep + discard)];
        runnerTruncated = true;
      }
      const truncated = dropped || runnerTruncated;
      if (truncated) counters.truncations++;

      // ---- prefix cache + prefill ----
      const lcp = commonPrefix(runner.cache, tokens);
      const evaluated = Math.max(1, tokens.length - lcp);
      counters.promptTokens += tokens.length;
      counters.promptTokensEvaluated += evaluated;
      counters.maxPromptTokens = Math.max(counters.maxPromptTokens, tokens.length);
      runner.cache = tokens.slice();
      const prefillSec = evaluated / rates.prefillTokensPerSec;
      await spend(prefillSec, ctx);

      const simReq: SimChatRequest = {
        model: modelName,
        messages,
        prompt: tokens.join(''),
        promptTokens: tokens.length,
        fullPromptTokens: fullTokens.length,
        truncated,
        numCtx,
        options: (body.options ?? {}) as Record<string, unknown>,
        format: body.format,
        think,
        requestIndex,
        endpoint,
        stream,
        evaluatedTokens: evaluated,
      };
      requests.push(simReq);
      let reply: SimReply;
      try {
        reply = await responder(simReq);
      } catch (e) {
        return sendError(res, 500, e instanceof Error ? e.message : String(e));
      }
      if (ctx.aborted) throw new Cancelled();

      // ---- shape the reply ----
      let content = typeof reply === 'string' ? reply : reply.content;
      let thinking = typeof reply === 'string' ? '' : (reply.thinking ?? '');
      let doneReason: string = typeof reply === 'string' ? 'stop' : (reply.doneReason ?? 'stop');
      if (!canThink || think === false) thinking = '';
      if (findFault(fs, 'codeFences')) content = '```json\n' + content + '\n```';
      const cut = findFault(fs, 'cutJson');
      if (cut) {
        const chars = Array.from(content);
        content = chars.slice(0, cut.keepChars ?? Math.floor(chars.length / 2)).join('');
        doneReason = 'length';
      }
      const stops = Array.isArray(opts.stop) ? opts.stop.filter((s): s is string => typeof s === 'string' && s !== '') : [];
      for (const s of stops) {
        const i = content.indexOf(s);
        if (i >= 0) {
          content = content.slice(0, i);
          doneReason = 'stop';
        }
      }
      type Piece = { kind: 'thinking' | 'content'; text: string };
      let pieces: Piece[] = [
        ...tokenize(thinking).map((t): Piece => ({ kind: 'thinking', text: t })),
        ...tokenize(content).map((t): Piece => ({ kind: 'content', text: t })),
      ];
      const numPredict = typeof opts.num_predict === 'number' ? opts.num_predict : -1;
      if (numPredict > 0 && pieces.length > numPredict) {
        pieces = pieces.slice(0, numPredict);
        doneReason = 'length';
      }

      // ---- generate ----
      let generated = 0;
      const tokenSec = 1 / rates.decodeTokensPerSec;
      const decodeStart = performance.now();
      const slow = findFault(fs, 'slowFirstToken');
      const stall = findFault(fs, 'stall');
      const drop = findFault(fs, 'dropMidStream');
      const errLine = findFault(fs, 'streamErrorLine');
      const noDone = findFault(fs, 'noDoneFrame');
      const split = findFault(fs, 'splitMultibyte');
      const outTokens: string[] = [];

      const writeRaw = async (text: string): Promise<void> => {
        if (ctx.aborted) throw new Cancelled();
        if (!res.headersSent) {
          res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
          res.socket?.setNoDelay(true);
        }
        if (split) {
          for (const part of splitInsideMultibyte(Buffer.from(text, 'utf8'))) {
            await writeAndDrain(res, part, ctx);
            await realSleep(4, ctx);
          }
        } else {
          await writeAndDrain(res, text, ctx);
        }
      };
      // Fault hooks before the frame with index `k` (0-based) is written
      const beforeFrame = async (k: number): Promise<'stop' | void> => {
        if (stall && stall.afterFrames === k) {
          counters.simulatedSeconds += stall.ms / 1000;
          await realSleep(stall.ms, ctx);
        }
        if (drop && drop.afterFrames === k) {
          ctx.intentional = true;
          res.socket?.destroy();
          return 'stop';
        }
        if (errLine && errLine.afterFrames === k) {
          if (!res.headersSent) sendError(res, 500, errLine.error);
          else {
            await writeRaw(goJson({ error: errLine.error }) + '\n');
            res.end();
          }
          return 'stop';
        }
      };

      const lastInDone = stream && contentInDoneFrame && pieces.length > 0 && pieces[pieces.length - 1]?.kind === 'content';
      const frameCount = lastInDone ? pieces.length - 1 : pieces.length;

      if (slow) {
        counters.simulatedSeconds += slow.ms / 1000;
        await realSleep(slow.ms, ctx);
      }
      for (let i = 0; i < pieces.length; i++) {
        const p = pieces[i] as Piece;
        // decode pacing
        counters.simulatedSeconds += tokenSec;
        if (timeScale > 0) {
          const target = decodeStart + (i + 1) * tokenSec * 1000 * timeScale;
          const wait = target - performance.now();
          if (wait >= 1) await realSleep(wait, ctx);
          else await yieldLoop();
        } else if (stream) {
          await yieldLoop();
        }
        if (ctx.aborted) throw new Cancelled();
        generated++;
        counters.outputTokens++;
        outTokens.push(p.text);
        if (!stream) {
          if (drop && drop.afterFrames === i) {
            ctx.intentional = true;
            res.socket?.destroy();
            return;
          }
          continue;
        }
        if (i >= frameCount) break; // the last piece goes in the done frame
        if ((await beforeFrame(i)) === 'stop') return;
        const msg = p.kind === 'thinking' ? { thinking: p.text } : { content: p.text };
        await writeRaw(goJson(frameObject(endpoint, modelName, msg)) + '\n');
      }
      if (stream) {
        // faults positioned at or past the last content frame act just before the done frame
        if (stall && stall.afterFrames >= frameCount) {
          counters.simulatedSeconds += stall.ms / 1000;
          await realSleep(stall.ms, ctx);
        }
        if (drop && drop.afterFrames >= frameCount) {
          ctx.intentional = true;
          res.socket?.destroy();
          return;
        }
        if (errLine && errLine.afterFrames >= frameCount) {
          if (!res.headersSent) sendError(res, 500, errLine.error);
          else {
            await writeRaw(goJson({ error: errLine.error }) + '\n');
            res.end();
          }
          return;
        }
      }
      if (!stream && errLine) return sendError(res, 500, errLine.error);
      runner.cache = [...tokens, ...outTokens];

      const metrics = {
        total_duration: 0,
        load_duration: Math.round(loadSec * 1e9) + 250_000,
        prompt_eval_count: evalCountMode === 'all' ? tokens.length : evaluated,
        prompt_eval_duration: Math.max(1, Math.round(prefillSec * 1e9)),
        eval_count: generated,
        eval_duration: Math.round(generated * tokenSec * 1e9),
      };
      metrics.total_duration = metrics.load_duration + metrics.prompt_eval_duration + metrics.eval_duration + 150_000;

      if (stream) {
        const last = lastInDone ? pieces[pieces.length - 1] : undefined;
        if (noDone) {
          if (last) await writeRaw(goJson(frameObject(endpoint, modelName, { content: last.text })) + '\n');
          res.end();
          return;
        }
        await writeRaw(goJson(doneObject(endpoint, modelName, last?.text ?? '', undefined, doneReason, metrics)) + '\n');
        res.end();
      } else {
        const allContent = pieces.filter((p) => p.kind === 'content').map((p) => p.text).join('');
        const allThinking = pieces.filter((p) => p.kind === 'thinking').map((p) => p.text).join('');
        const obj = doneObject(endpoint, modelName, allContent, allThinking || undefined, doneReason, metrics);
        if (noDone) obj.done = false;
        sendJson(res, 200, obj);
      }
    } catch (e) {
      if (e instanceof Cancelled) {
        if (!ctx.intentional) counters.cancellations++;
      } else {
        if (!res.headersSent) sendError(res, 500, e instanceof Error ? e.message : String(e));
        else res.destroy();
      }
    } finally {
      if (runner) finishRunner(runner, keepAliveMs);
      release();
    }
  }

  function frameObject(endpoint: 'chat' | 'generate', model: string, piece: { content?: string; thinking?: string }): Record<string, unknown> {
    const created_at = new Date(now()).toISOString();
    if (endpoint === 'chat') {
      const message: Record<string, unknown> = { role: 'assistant', content: piece.content ?? '' };
      if (piece.thinking) message.thinking = piece.thinking;
      return { model, created_at, message, done: false };
    }
    const o: Record<string, unknown> = { model, created_at, response: piece.content ?? '' };
    if (piece.thinking) o.thinking = piece.thinking;
    o.done = false;
    return o;
  }

  function doneObject(
    endpoint: 'chat' | 'generate',
    model: string,
    content: string,
    thinking: string | undefined,
    doneReason: string,
    metrics: Record<string, number> | undefined,
  ): Record<string, unknown> {
    const created_at = new Date(now()).toISOString();
    const o: Record<string, unknown> = { model, created_at };
    if (endpoint === 'chat') {
      const message: Record<string, unknown> = { role: 'assistant', content };
      if (thinking) message.thinking = thinking;
      o.message = message;
    } else {
      o.response = content;
      if (thinking) o.thinking = thinking;
    }
    o.done_reason = doneReason;
    o.done = true;
    // Go's omitempty: zero metrics are left out
    for (const [k, v] of Object.entries(metrics ?? {})) if (v !== 0) o[k] = v;
    return o;
  }

  // ---- embed ----
  async function handleEmbed(body: Record<string, unknown>, ctx: ReqCtx): Promise<void> {
    const res = ctx.res;
    const index = embedIndex++;
    counters.embedRequests++;
    const modelName = body.model;
    if (typeof modelName !== 'string' || modelName.trim() === '') return sendError(res, 400, ollamaErrors.modelRequired);
    let input: string[] = [];
    const raw = body.input;
    if (typeof raw === 'string') {
      if (raw !== '') input = [raw];
    } else if (Array.isArray(raw)) {
      if (!raw.every((x) => typeof x === 'string')) return sendError(res, 400, ollamaErrors.invalidInput);
      input = raw as string[];
    } else if (raw !== undefined && raw !== null) {
      return sendError(res, 400, ollamaErrors.invalidInput);
    }
    const model = findModel(modelName);
    if (!model) return sendError(res, 404, ollamaErrors.notFound(modelName));
    const fs = pickFaults('embed', index, model.name);
    if (findFault(fs, 'modelNotFound')) return sendError(res, 404, ollamaErrors.notFound(modelName));
    if (findFault(fs, 'busy')) return sendError(res, 503, ollamaErrors.busy);
    if (!model.capabilities.includes('embedding')) return sendError(res, 400, ollamaErrors.noEmbeddings(modelName));
    let keepAliveMs: number | undefined;
    if (body.keep_alive !== undefined && body.keep_alive !== null) {
      const ka = parseKeepAlive(body.keep_alive);
      if ('error' in ka) return sendError(res, 400, ka.error);
      keepAliveMs = ka.ms;
    }
    const norm = normalizeOptions(body.options);
    if ('error' in norm) return sendError(res, 500, norm.error);
    const { numCtx, key } = resolveRunnerOptions(model, norm.opts);

    const got = acquire(ctx);
    if ('busy' in got) return sendError(res, 503, ollamaErrors.busy);
    if (!(await got)) {
      counters.cancellations++;
      return;
    }
    let runner: Runner | undefined;
    try {
      for (const f of fs) {
        const need = runnerMemory(model, numCtx);
        const hf = httpFaultResponse(f, modelName, need, options.memoryBytes ?? Math.floor(need * 0.75));
        if (hf) return sendError(res, hf.status, hf.error);
      }
      if (findFault(fs, 'dropBeforeHeaders') || findFault(fs, 'dropMidStream')) {
        ctx.intentional = true;
        res.socket?.destroy();
        return;
      }
      const ensured = await ensureRunner(model, numCtx, key, ctx);
      if ('error' in ensured) return sendError(res, 500, ensured.error);
      runner = ensured.runner;
      if (input.length === 0) return sendJson(res, 200, { model: modelName, embeddings: [] });
      const truncate = body.truncate !== false;
      let total = 0;
      const embeddings: number[][] = [];
      for (const text of input) {
        let toks = tokenize(text);
        if (toks.length > numCtx) {
          if (!truncate) return sendError(res, 400, ollamaErrors.inputTooLong);
          toks = toks.slice(0, numCtx);
        }
        total += toks.length;
        embeddings.push(embedTokens(toks, embedDim));
      }
      const prefillSec = total / rates.prefillTokensPerSec;
      await spend(prefillSec, ctx);
      const load_duration = Math.round(ensured.loadSec * 1e9) + 250_000;
      sendJson(res, 200, {
        model: modelName,
        embeddings,
        total_duration: load_duration + Math.round(prefillSec * 1e9) + 100_000,
        load_duration,
        prompt_eval_count: total,
      });
    } catch (e) {
      if (e instanceof Cancelled) {
        if (!ctx.intentional) counters.cancellations++;
      } else sendError(res, 500, e instanceof Error ? e.message : String(e));
    } finally {
      if (runner) finishRunner(runner, keepAliveMs);
      release();
    }
  }

  // ---- metadata endpoints ----
  function family(m: SimModel): string {
    return m.architecture;
  }
  function details(m: SimModel): Record<string, unknown> {
    return {
      parent_model: '',
      format: 'gguf',
      family: family(m),
      families: [family(m)],
      parameter_size: m.parameterSize,
      quantization_level: m.quantization,
    };
  }
  function showModel(m: SimModel): Record<string, unknown> {
    const params: string[] = [];
    if (m.modelfileNumCtx !== undefined) params.push(`${'num_ctx'.padEnd(30)} ${m.modelfileNumCtx}`);
    if (m.capabilities.includes('completion')) params.push(`${'stop'.padEnd(30)} "<|end|>"`);
    const paramCount = Math.round(parseFloat(m.parameterSize) * (m.parameterSize.endsWith('M') ? 1e6 : 1e9));
    const out: Record<string, unknown> = {
      license: 'simulated',
      modelfile: `# Modelfile generated by "ollama show"\nFROM ${m.name}\n` + params.map((p) => `PARAMETER ${p.replace(/\s+/, ' ')}\n`).join(''),
    };
    if (params.length > 0) out.parameters = params.join('\n');
    out.template = '{{- range .Messages }}<|{{ .Role }}|>\n{{ .Content }}\n{{ end }}<|assistant|>\n';
    out.details = details(m);
    out.model_info = {
      'general.architecture': m.architecture,
      'general.file_type': 15,
      'general.parameter_count': paramCount,
      'general.quantization_version': 2,
      [`${m.architecture}.context_length`]: m.contextLength,
      [`${m.architecture}.embedding_length`]: 4096,
      [`${m.architecture}.block_count`]: 32,
    };
    out.tensors = [];
    out.capabilities = m.capabilities;
    out.modified_at = startedAt;
    return out;
  }

  // ---- router ----
  async function route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    counters.requests++;
    const ctx = new ReqCtx(res);
    res.on('close', () => {
      if (!res.writableFinished && !ctx.aborted) {
        ctx.aborted = true;
        ctx.ac.abort();
      }
    });
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';

    if ((method === 'GET' || method === 'HEAD') && path === '/') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Ollama is running');
      return;
    }
    if ((method === 'GET' || method === 'HEAD') && path === '/api/version') return sendJson(res, 200, { version });
    if ((method === 'GET' || method === 'HEAD') && path === '/api/tags') {
      return sendJson(res, 200, {
        models: models.map((m) => ({ name: m.name, model: m.name, modified_at: startedAt, size: m.sizeBytes, digest: m.digest, details: details(m) })),
      });
    }
    if ((method === 'GET' || method === 'HEAD') && path === '/api/ps') {
      expireRunners();
      return sendJson(res, 200, {
        models: [...runners.values()].map((r) => {
          const o: Record<string, unknown> = {
            name: r.model.name,
            model: r.model.name,
            size: Math.round(r.memory),
            digest: r.model.digest,
            details: details(r.model),
            expires_at: expiresIso(r),
            size_vram: Math.round(r.memory),
          };
          if (psHasContextLength) o.context_length = r.numCtx;
          return o;
        }),
      });
    }
    const posts = ['/api/chat', '/api/generate', '/api/embed', '/api/show'];
    if (method !== 'POST' || !posts.includes(path)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('404 page not found');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (text.trim() === '') return sendError(res, 400, ollamaErrors.missingBody);
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return sendError(res, 400, 'json: cannot unmarshal into Go value of type api.Request');
      }
      body = parsed as Record<string, unknown>;
    } catch {
      return sendError(res, 400, `invalid character looking for beginning of value`);
    }
    switch (path) {
      case '/api/chat':
        return handleCompletion('chat', body, ctx);
      case '/api/generate':
        return handleCompletion('generate', body, ctx);
      case '/api/embed':
        return handleEmbed(body, ctx);
      case '/api/show': {
        const name = typeof body.model === 'string' && body.model !== '' ? body.model : typeof body.name === 'string' ? body.name : '';
        if (name === '') return sendError(res, 400, ollamaErrors.modelRequired);
        const m = findModel(name);
        if (!m) return sendError(res, 404, ollamaErrors.notFound(name));
        return sendJson(res, 200, showModel(m));
      }
    }
  }

  function expiresIso(r: Runner): string {
    const t = r.expiresAt === Infinity ? now() + r.sessionMs : r.expiresAt;
    return new Date(Math.min(t, 8.64e15)).toISOString();
  }

  const server = http.createServer((req, res) => {
    route(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendError(res, 500, e instanceof Error ? e.message : String(e));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const sim: OllamaSim = {
    url: `http://127.0.0.1:${port}`,
    port,
    counters,
    requests,
    setResponder(fn) {
      responder = fn;
    },
    addFault(rule) {
      faults.push({ ...rule });
    },
    clearFaults() {
      faults = [];
    },
    resetCounters() {
      Object.assign(counters, newCounters());
      requests.length = 0;
    },
    loaded() {
      expireRunners();
      return [...runners.values()].map((r) => ({ model: r.model.name, numCtx: r.numCtx, expiresAt: expiresIso(r) }));
    },
    close() {
      return new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      });
    },
  };
  return sim;
}

// ---------------------------------------------------------------------------------------------
// Low-level writing
// ---------------------------------------------------------------------------------------------

async function writeAndDrain(res: http.ServerResponse, chunk: string | Buffer, ctx: ReqCtx): Promise<void> {
  if (ctx.aborted || res.destroyed) throw new Cancelled();
  if (!res.write(chunk)) {
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }
}

/** Splits a UTF-8 buffer into parts so that every multibyte character is cut in the middle. */
function splitInsideMultibyte(buf: Buffer): Buffer[] {
  const cuts: number[] = [];
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i] ?? 0;
    // a lead byte of a multibyte sequence: cut right after it
    if (b >= 0xc0) cuts.push(i + 1);
  }
  if (cuts.length === 0) cuts.push(Math.max(1, Math.floor(buf.length / 2)));
  const parts: Buffer[] = [];
  let prev = 0;
  for (const c of cuts) {
    if (c > prev && c < buf.length) {
      parts.push(buf.subarray(prev, c));
      prev = c;
    }
  }
  parts.push(buf.subarray(prev));
  return parts;
}

/** Deterministic embedding: hashed bag of lower-cased words (signed), L2-normalised. */
export function embedTokens(tokens: string[], dim = 64): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const t of tokens) {
    const w = t.trim().toLowerCase();
    if (w === '') continue;
    const h = fnv1a(w);
    const i = h % dim;
    v[i] = (v[i] ?? 0) + ((h >>> 16) & 1 ? 1 : -1);
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm > 0 ? v.map((x) => x / norm) : v;
}
