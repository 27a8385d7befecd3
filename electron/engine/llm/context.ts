import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { AppError, ErrorCode } from '../../../shared/errors';
import { insertLlmCall, type LlmCallRecord } from './store';
import { classifyError, toAppError, type Classified } from './errors';
import type { TokenEstimator } from './estimator';
import type { EndpointKind } from '../../../shared/endpoints';
import type { ModelInfo } from './models';
import type { RequestQueue } from './queue';
import { retryDelay } from './retry';
import type { LlmTransport, ServerInfo } from './transport';
import { DEFAULT_LIVENESS_MS, type LlmLogger, type LlmSettings, type Sleep } from './types';

export type { ServerInfo } from './transport';

/** What the client's modules share: configuration, clock, store, and the per-client caches. */

export interface ClientContext {
  host: string;
  kind: EndpointKind;
  settings: LlmSettings;
  db: Database | undefined;
  now: () => number;
  sleep: Sleep;
  random: () => number;
  logger: LlmLogger;
  queue: RequestQueue;
  estimator: TokenEstimator;
  /** The endpoint's API (Ollama native or OpenAI-compatible); every request carries the signal it is given. */
  transport: LlmTransport;
  serverInfo(signal?: AbortSignal): Promise<ServerInfo>;
  /**
   * Whether the server still answers at all, within settings.watchdog.livenessMs: any HTTP reply counts. Asked after a
   * call timed out; true when `signal` fired meanwhile (the caller's cancel decides then).
   */
  answers(signal?: AbortSignal): Promise<boolean>;
  modelInfo(model: string, signal?: AbortSignal): Promise<ModelInfo>;
  record(r: LlmCallRecord): LlmCallRecord;
  newCallId(): string;
  /** Runs `fn`, retrying transient failures per the policy; throws an AppError otherwise. */
  retrying<T>(
    what: { model?: string; numCtx?: number },
    fn: (attempt: number) => Promise<T>,
    signal?: AbortSignal,
    onRetry?: (c: Classified, attempt: number, error: unknown) => void,
  ): Promise<T>;
}

/** The context's plain dependencies, as the context holds them; the rest of it is built here. */
type ContextInit = Pick<ClientContext, 'host' | 'settings' | 'now' | 'sleep' | 'random' | 'logger' | 'queue' | 'estimator' | 'transport'> & {
  db?: Database;
};

export function createContext(init: ContextInit): ClientContext {
  let server: Promise<ServerInfo> | undefined;
  const models = new Map<string, Promise<ModelInfo>>();

  const ctx: ClientContext = {
    host: init.host,
    kind: init.transport.kind,
    settings: init.settings,
    db: init.db,
    now: init.now,
    sleep: init.sleep,
    random: init.random,
    logger: init.logger,
    queue: init.queue,
    estimator: init.estimator,
    transport: init.transport,
    serverInfo(signal) {
      server ??= ctx.retrying({}, () => init.transport.serverInfo(signal), signal);
      server.catch(() => (server = undefined));
      return server;
    },
    async answers(signal) {
      const limit = AbortSignal.timeout(init.settings.watchdog.livenessMs ?? DEFAULT_LIVENESS_MS);
      try {
        await init.transport.serverInfo(signal ? AbortSignal.any([signal, limit]) : limit);
        return true;
      } catch (error) {
        if (signal?.aborted) return true;
        // An HTTP error reply is an answer: the server is there, only this request failed.
        return (error as { name?: unknown } | null)?.name === 'ResponseError';
      }
    },
    modelInfo(model, signal) {
      let p = models.get(model);
      if (!p) {
        p = ctx.retrying({ model }, () => init.transport.show(model, signal), signal);
        models.set(model, p);
        p.catch(() => models.delete(model));
      }
      return p;
    },
    record(r) {
      if (!init.db) return r;
      const id = insertLlmCall(init.db, r);
      return { ...r, id };
    },
    newCallId: randomUUID,
    async retrying(what, fn, signal, onRetry) {
      const max = Math.max(1, init.settings.retry.maxAttempts);
      for (let attempt = 1; ; attempt++) {
        try {
          return await fn(attempt);
        } catch (error) {
          const c = classifyError(error, signal);
          if (c.kind === 'cancelled') throw toAppError({ ...c, code: ErrorCode.CANCELLED }, { host: init.host, kind: init.transport.kind, ...what }, error);
          if (c.kind !== 'transient' || attempt >= max) {
            throw error instanceof AppError && error.code === c.code ? error : toAppError(c, { host: init.host, kind: init.transport.kind, ...what }, error);
          }
          onRetry?.(c, attempt, error);
          init.logger.warn?.('llm: transient failure, retrying', { ...what, attempt, code: c.code, detail: c.detail });
          await init.sleep(retryDelay(attempt, init.settings.retry, init.random, error), signal);
        }
      }
    },
  };
  return ctx;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function nsToMs(ns: unknown): number | null {
  return typeof ns === 'number' && Number.isFinite(ns) ? ns / 1e6 : null;
}
