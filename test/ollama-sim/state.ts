/**
 * The state one simulator shares between its parts (runners, scheduler, faults, the handlers): its settings,
 * resolved once from the options, and what changes while it serves. Each part takes it as an argument.
 */
import type http from 'node:http';
import { parseKeepAlive } from './protocol';
import { defaultResponder } from './responders';
import { createScheduler, type Scheduler } from './scheduler';
import { defaultTokenize } from './tokenizer';
import { defaultSimModels } from './models';
import { simulatedTime } from './timing';
import type { FaultRule, Responder, SimChatRequest, SimCounters, SimModel, SimOptions, SimRates } from './types';
import { mulberry32, versionAtLeast } from './util';

export interface Runner {
  model: SimModel;
  key: string;
  numCtx: number;
  cache: string[];
  /** ms since epoch of the clock; Infinity while a request is running */
  expiresAt: number;
  sessionMs: number;
  memory: number;
}

/** One HTTP request being served: aborted (and its signal fired) when the client goes away. */
export class ReqCtx {
  aborted = false;
  intentional = false;
  readonly ac = new AbortController();
  constructor(readonly res: http.ServerResponse) {}
}

export const newCounters = (): SimCounters => ({
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

export interface SimState {
  readonly options: SimOptions;
  readonly version: string;
  readonly models: SimModel[];
  readonly rates: SimRates;
  readonly timeScale: number;
  readonly tokenize: (text: string) => string[];
  readonly now: () => number;
  readonly contentInDoneFrame: boolean;
  readonly evalCountMode: 'all' | 'evaluated';
  readonly embedDim: number;
  readonly defaultNumCtx: number;
  readonly truncateParamSupported: boolean;
  readonly psHasContextLength: boolean;
  readonly defaultKeepAliveMs: number;
  /** The seeded random source of probabilistic faults. */
  readonly rand: () => number;
  /** modified_at of every model: a day before the server started. */
  readonly startedAt: string;
  readonly counters: SimCounters;
  readonly requests: SimChatRequest[];
  /** Loaded runners by normalised model name. */
  readonly runners: Map<string, Runner>;
  readonly scheduler: Scheduler;
  /** Spends simulated seconds for a request (counted; slept when timeScale > 0). */
  readonly spend: (seconds: number, ctx: ReqCtx | undefined) => Promise<void>;
  responder: Responder;
  faults: FaultRule[];
  chatIndex: number;
  embedIndex: number;
}

export function createSimState(options: SimOptions): SimState {
  const version = options.version ?? '0.12.11';
  const timeScale = options.timeScale ?? 0;
  const now = options.now ?? Date.now;
  const defaultKeepAlive = parseKeepAlive(options.defaultKeepAlive ?? '5m');
  const counters = newCounters();
  const spendSeconds = simulatedTime(timeScale, counters);
  return {
    options,
    version,
    models: options.models ?? defaultSimModels,
    rates: options.rates ?? { prefillTokensPerSec: 1000, decodeTokensPerSec: 40, loadSeconds: 3 },
    timeScale,
    tokenize: options.tokenize ?? defaultTokenize,
    now,
    contentInDoneFrame: options.contentInDoneFrame ?? true,
    evalCountMode: options.promptEvalCountMode ?? 'all',
    embedDim: options.embeddingDimension ?? 64,
    defaultNumCtx: versionAtLeast(version, '0.6.7') ? (options.defaultNumCtx ?? 4096) : 2048,
    truncateParamSupported: versionAtLeast(version, '0.12.6'),
    psHasContextLength: versionAtLeast(version, '0.10.0'),
    defaultKeepAliveMs: 'ms' in defaultKeepAlive ? defaultKeepAlive.ms : 300_000,
    rand: mulberry32(options.seed ?? 42),
    startedAt: new Date(now() - 86_400_000).toISOString(),
    counters,
    requests: [],
    runners: new Map(),
    scheduler: createScheduler(options.maxQueue ?? 512, counters),
    spend: (seconds, ctx) => spendSeconds(seconds, ctx?.ac.signal),
    responder: options.responder ?? defaultResponder,
    faults: (options.faults ?? []).map((f) => ({ ...f })),
    chatIndex: 0,
    embedIndex: 0,
  };
}
