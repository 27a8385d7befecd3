import { statSync } from 'node:fs';
import { endpointLabel, plainHttpWarning, type EndpointSettings } from '../../../shared/endpoints';
import { AppError, ErrorCode, toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import type { ProgressEvent, RunPhase } from '../../../shared/types';
import type { Logger } from '../log';
import { isRunWideLlmError, type LlmClient } from '../llm';
import { addRunEvent, type RunInput } from '../store';
import { requeueInput } from './runStatus';
import { throwIfAborted } from '../util';
import { planRecord, prepareLlmRun, type LlmRunPlan } from './llmPlan';
import type { RunControl, RunDeps } from './runner';
import { fileSha256 } from './fileIdentity';
import type { RunSettings } from './settings';

/**
 * A pool of inference endpoints (issue 29): the files of a run are spread over them.
 * - Each endpoint takes `concurrency` files at once; a file's calls stay in order, one in flight, on one endpoint
 *   (its prompt cache), from its first call to its last.
 * - The run plans once for the whole pool: the models resolved on the first endpoint that answers, and one num_ctx
 *   that fits the smallest context among them, so a file may move to any endpoint and its units still fit.
 * - An endpoint that cannot be used (unreachable, a refused key, a missing model, out of memory) is left out with a
 *   run event saying why, before the run or in the middle of it: its files in flight go back to the front of the
 *   queue and resume on another endpoint from their last committed unit (the documents' own resume). Only when no
 *   endpoint is left does the run stop, failed and resumable, with the last endpoint's error.
 * - Cancel and pause stop every file at its next unit; each keeps its committed work.
 */
export function usesPool(settings: RunSettings): boolean {
  const endpoints = settings.llm.endpoints;
  return settings.mode === 'full' && endpoints !== undefined && (endpoints.length > 1 || endpoints.some((e) => e.concurrency > 1));
}

/** One input's analysis on a given endpoint: the runner's own per-file work (runInput), bound to its run. */
export type AnalyzeInput = (input: RunInput, llm: { client: LlmClient; plan: LlmRunPlan }, emit: PoolEmit, signal: AbortSignal) => Promise<void>;
export type PoolEmit = (phase: RunPhase, current: number, total: number, message: string, extra?: Partial<ProgressEvent>) => void;

interface Member {
  endpoint: EndpointSettings;
  label: string;
  client?: LlmClient;
  plan?: LlmRunPlan;
  /** Set once the endpoint is left out; its workers stop taking files. */
  out?: ErrorInfo;
}

export interface PoolRun {
  deps: RunDeps;
  runId: number;
  settings: RunSettings;
  pending: readonly RunInput[];
  control: RunControl;
  emit: PoolEmit;
  log: Logger;
  at: () => string;
  analyze: AnalyzeInput;
}

export async function runPool(run: PoolRun): Promise<void> {
  const { deps, runId, settings, emit, log, at } = run;
  const members: Member[] = settings.llm.endpoints!.map((endpoint) => ({ endpoint, label: endpointLabel(endpoint) }));
  const leaveOut = (member: Member, error: unknown, what: string) => {
    const info = toErrorInfo(error, log.path);
    member.out = info;
    addRunEvent(deps.db, runId, {
      at: at(),
      level: 'warn',
      phase: 'ingest',
      message: `${member.label} ${what}: ${info.message}`,
      data: { endpoint: member.endpoint.url, code: info.code },
    });
    log.warn({ endpoint: member.endpoint.url, code: info.code }, `endpoint ${what}`);
    emit('ingest', 0, 0, `${member.label} ${what}: ${info.message}`, { endpoint: member.label });
  };
  try {
    await preparePool(run, members, leaveOut);
    await spreadFiles(run, members, leaveOut);
  } finally {
    await Promise.all(members.map((m) => m.client?.close()));
  }
}

/** Every endpoint checked, one plan for all of them, the run's models loaded on each at its num_ctx. */
async function preparePool(run: PoolRun, members: Member[], leaveOut: (m: Member, e: unknown, what: string) => void): Promise<void> {
  const { deps, settings, control, emit } = run;
  // Where documents go is always said, for each endpoint of the pool as for a single one (runner.ts).
  for (const member of members) {
    const unencrypted = plainHttpWarning(member.endpoint.url);
    if (unencrypted)
      addRunEvent(deps.db, run.runId, {
        at: run.at(),
        level: 'warn',
        phase: 'ingest',
        message: `${member.label}: ${unencrypted}`,
        data: { endpoint: member.endpoint.url },
      });
  }
  emit('ingest', 0, members.length, `checking ${members.length} inference endpoints and the models`);
  await Promise.all(
    members.map(async (member) => {
      try {
        member.client = deps.createLlm(settings, member.endpoint);
        await member.client.probe([], 0, control.signal);
      } catch (error) {
        throwIfCancelled(error);
        leaveOut(member, error, 'left out');
      }
    }),
  );
  const planner = members.find((m) => !m.out);
  if (!planner) throw lastError(members);
  let plan = await prepareLlmRun(planner.client!, settings, control.signal);
  // One num_ctx that every endpoint holds: a file that moves must still fit where it lands.
  const contexts = await Promise.all(
    members
      .filter((m) => !m.out)
      .map(async (m) => {
        try {
          return (await m.client!.modelInfo(plan.models.extract, control.signal)).contextLength;
        } catch (error) {
          throwIfCancelled(error);
          leaveOut(m, error, 'left out');
          return undefined;
        }
      }),
  );
  const smallest = Math.min(...contexts.filter((c): c is number => c !== undefined));
  if (smallest < plan.numCtx) plan = await prepareLlmRun(planner.client!, { ...settings, llm: { ...settings.llm, numCtx: smallest } }, control.signal);
  planner.plan = plan;
  const models = [...new Set([...Object.values(plan.models), ...(plan.summaryMapModel ? [plan.summaryMapModel] : [])])];
  await Promise.all(
    members
      .filter((m) => !m.out && m !== planner)
      .map(async (m) => {
        try {
          const probe = await m.client!.probe(models, plan.numCtx, control.signal);
          m.plan = { ...plan, probe };
        } catch (error) {
          throwIfCancelled(error);
          leaveOut(m, error, 'left out');
        }
      }),
  );
  const live = members.filter((m) => !m.out);
  if (live.length === 0) throw lastError(members);
  addRunEvent(deps.db, run.runId, {
    at: run.at(),
    level: 'info',
    phase: 'ingest',
    message: `${live.length} of ${members.length} inference endpoints: ${live.map((m) => `${m.label} (${m.endpoint.concurrency} at once)`).join(', ')}; num_ctx ${plan.numCtx}`,
    data: {
      endpoints: live.map((m) => ({ url: m.endpoint.url, kind: m.endpoint.kind, concurrency: m.endpoint.concurrency, version: m.plan!.probe.version })),
      ...planRecord(plan),
    },
  });
}

/**
 * The files over the live endpoints: `concurrency` workers per endpoint take the next file from one queue. A file
 * whose endpoint is left out mid-run goes back to the front of the queue; a worker with an empty queue waits while
 * files are still in flight elsewhere, since one may come back.
 */
async function spreadFiles(run: PoolRun, members: Member[], leaveOut: (m: Member, e: unknown, what: string) => void): Promise<void> {
  const { deps, runId, control, emit } = run;
  // Largest files first: the batch then ends with small files filling the gaps, instead of waiting on one big
  // file started last on one endpoint while the others are idle. Each file's own work is the same in any order.
  const queue = [...run.pending].sort((a, b) => fileSize(b.filePath) - fileSize(a.filePath));
  let inFlight = 0;
  // The same file content twice in one batch is one document: never analysed on two endpoints at once (the second
  // waits and then finds its work committed, as in a one-at-a-time run).
  const busy = new Set<string>();
  const held: Array<{ sha: string; input: RunInput }> = [];
  let wake: Array<() => void> = [];
  const notify = () => {
    const waiting = wake;
    wake = [];
    for (const w of waiting) w();
  };
  const stop = new AbortController();
  const signal = control.signal ? AbortSignal.any([control.signal, stop.signal]) : stop.signal;

  const worker = async (member: Member) => {
    for (;;) {
      if (member.out || signal.aborted) return;
      const input = queue.shift();
      if (!input) {
        if (inFlight === 0) return;
        await new Promise<void>((resolve) => wake.push(resolve));
        continue;
      }
      // Counted before the hash is read: a worker that finds the queue empty meanwhile must wait for this file.
      inFlight++;
      const sha = await fileSha256(input.filePath).catch(() => undefined);
      if (sha !== undefined && busy.has(sha)) {
        held.push({ sha, input });
        inFlight--;
        continue;
      }
      if (sha !== undefined) busy.add(sha);
      try {
        addRunEvent(deps.db, runId, {
          at: run.at(),
          level: 'info',
          phase: 'ingest',
          message: `file ${input.ordinal + 1} (${baseName(input.filePath)}) on ${member.label}`,
          data: { ordinal: input.ordinal, endpoint: member.endpoint.url },
        });
        await run.analyze(
          input,
          { client: member.client!, plan: member.plan! },
          (phase, current, total, message, extra) => emit(phase, current, total, message, { ...extra, endpoint: member.label }),
          signal,
        );
      } catch (error) {
        const info = toErrorInfo(error, run.log.path);
        if (info.code === ErrorCode.CANCELLED || !isRunWideLlmError(info.code)) throw error;
        // The endpoint, not the file: leave it out; the file resumes elsewhere from its last committed unit.
        if (!member.out) leaveOut(member, error, 'stopped answering; its files go to the other endpoints');
        requeueInput(deps.db, runId, input.ordinal);
        queue.unshift(input);
      } finally {
        inFlight--;
        if (sha !== undefined) {
          busy.delete(sha);
          for (let i = held.length - 1; i >= 0; i--) if (held[i]!.sha === sha) queue.unshift(held.splice(i, 1)[0]!.input);
        }
        notify();
      }
    }
  };

  const workers = members.filter((m) => !m.out).flatMap((m) => Array.from({ length: m.endpoint.concurrency }, () => worker(m)));
  const results = await Promise.allSettled(
    workers.map((w) =>
      w.catch((error: unknown) => {
        // One file's unexpected failure or a stop ends the run: the other workers stop at their next unit.
        stop.abort(error);
        notify();
        throw error;
      }),
    ),
  );
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw control.signal?.aborted ? failure.reason : (firstNonCancel(results) ?? failure.reason);
  throwIfAborted(control.signal);
  if (queue.length > 0) throw lastError(members);
}

function firstNonCancel(results: PromiseSettledResult<void>[]): unknown {
  for (const r of results) if (r.status === 'rejected' && toErrorInfo(r.reason).code !== ErrorCode.CANCELLED) return r.reason;
  return undefined;
}

function throwIfCancelled(error: unknown): void {
  if (toErrorInfo(error).code === ErrorCode.CANCELLED) throw error;
}

/** No endpoint left: the run stops with the last one's reason (it is resumable once one is fixed). */
function lastError(members: readonly Member[]): AppError {
  const last = [...members].reverse().find((m) => m.out)?.out;
  const summary = members.map((m) => `${m.label}: ${m.out?.code ?? 'available'}`).join('; ');
  return new AppError(
    last?.code ?? ErrorCode.ENDPOINT_UNREACHABLE,
    `No inference endpoint of the run can be used (${summary}). ${last?.message ?? ''} Fix one, then resume the run.`.trim(),
    { endpoints: members.map((m) => ({ url: m.endpoint.url, error: m.out ?? null })) },
  );
}

function fileSize(filePath: string): number {
  try {
    return statSync(filePath).size;
  } catch {
    return 0;
  }
}

function baseName(filePath: string): string {
  return filePath.split(/[\\/]/).pop() ?? filePath;
}
