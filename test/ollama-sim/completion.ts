/**
 * /api/chat and /api/generate: one completion, from the request's checks through scheduling, loading, the
 * prompt's truncation, the prefix cache and prefill, the responder's reply shaped as a model's (faults, stop
 * words, num_predict), to the paced stream of frames or the single reply.
 */
import { findFault, httpFaultResponse, pickFaults } from './faults';
import { findModel } from './models';
import {
  doneObject,
  frameObject,
  goJson,
  normalizeOptions,
  parseKeepAlive,
  renderPrompt,
  sendError,
  sendJson,
  splitInsideMultibyte,
  writeAndDrain,
} from './protocol';
import { ensureRunner, finishRunner, resolveRunnerOptions, runnerMemory, unloadRunner } from './runners';
import { ollamaErrors } from './errors';
import type { ReqCtx, Runner, SimState } from './state';
import { Cancelled, sleepUnlessCancelled, yieldLoop } from './timing';
import type { Fault, SimChatRequest, SimReply } from './types';
import { commonPrefix } from './util';

export async function handleCompletion(state: SimState, endpoint: 'chat' | 'generate', body: Record<string, unknown>, ctx: ReqCtx): Promise<void> {
  const { counters, tokenize, rates } = state;
  const res = ctx.res;
  const requestIndex = state.chatIndex++;
  counters.chatRequests++;
  const modelName = body.model;
  if (typeof modelName !== 'string' || modelName.trim() === '') return sendError(res, 400, ollamaErrors.modelRequired);
  const model = findModel(state.models, modelName);
  if (!model) return sendError(res, 404, ollamaErrors.notFound(modelName));
  const stream = body.stream === undefined || body.stream === null ? true : body.stream === true;

  const messages = requestMessages(endpoint, body);
  if ('error' in messages) return sendError(res, 400, messages.error);

  const fs = pickFaults(state, 'chat', requestIndex, model.name);
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
    unloadRunner(state, model);
    return sendJson(res, 200, doneObject(endpoint, modelName, '', undefined, 'unload', undefined, state.now));
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
  const { numCtx, key } = resolveRunnerOptions(state, model, opts);

  const got = state.scheduler.acquire(ctx.ac.signal);
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
      const hf = httpFaultResponse(f, modelName, need, state.options.memoryBytes ?? Math.floor(need * 0.75));
      if (hf && f.kind !== 'invalidSchema') {
        if (f.kind === 'runnerCrash' || f.kind === 'loadTimeout' || f.kind === 'outOfMemory') {
          unloadRunner(state, model);
        }
        return sendError(res, hf.status, hf.error);
      }
    }
    if (findFault(fs, 'dropBeforeHeaders')) {
      ctx.intentional = true;
      res.socket?.destroy();
      return;
    }
    const ensured = await ensureRunner(state, model, numCtx, key, ctx);
    if ('error' in ensured) return sendError(res, 500, ensured.error);
    runner = ensured.runner;
    const loadSec = ensured.loadSec;

    if (messages.length === 0) {
      return sendJson(res, 200, doneObject(endpoint, modelName, '', undefined, 'load', undefined, state.now));
    }
    if (findFault(fs, 'invalidSchema')) return sendError(res, 500, ollamaErrors.invalidSchema);

    const truncate = state.truncateParamSupported ? body.truncate !== false : true;
    const fitted = fitToContext(tokenize, messages, numCtx, truncate, opts);
    if ('error' in fitted) return sendError(res, 400, fitted.error);
    const { fullTokens, tokens, truncated } = fitted;
    if (truncated) counters.truncations++;

    // ---- prefix cache + prefill ----
    const lcp = commonPrefix(runner.cache, tokens);
    const evaluated = Math.max(1, tokens.length - lcp);
    counters.promptTokens += tokens.length;
    counters.promptTokensEvaluated += evaluated;
    counters.maxPromptTokens = Math.max(counters.maxPromptTokens, tokens.length);
    runner.cache = tokens.slice();
    const prefillSec = evaluated / rates.prefillTokensPerSec;
    await state.spend(prefillSec, ctx);

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
    state.requests.push(simReq);
    let reply: SimReply;
    try {
      reply = await state.responder(simReq);
    } catch (e) {
      return sendError(res, 500, e instanceof Error ? e.message : String(e));
    }
    if (ctx.aborted) throw new Cancelled();

    const { pieces, doneReason } = shapeReply(tokenize, reply, fs, opts, canThink && think !== false);

    await generate(state, ctx, { endpoint, modelName, stream, fs, pieces, doneReason, runner, tokens, evaluated, loadSec, prefillSec });
  } catch (e) {
    if (e instanceof Cancelled) {
      if (!ctx.intentional) counters.cancellations++;
    } else {
      if (!res.headersSent) sendError(res, 500, e instanceof Error ? e.message : String(e));
      else res.destroy();
    }
  } finally {
    if (runner) finishRunner(state, runner, keepAliveMs);
    state.scheduler.release();
  }
}

/** What the decoding of one reply needs from the request before it. */
interface Generation {
  endpoint: 'chat' | 'generate';
  modelName: string;
  stream: boolean;
  fs: Fault[];
  pieces: Piece[];
  doneReason: string;
  runner: Runner;
  /** The prompt's tokens as the runner saw them (after truncation). */
  tokens: string[];
  evaluated: number;
  loadSec: number;
  prefillSec: number;
}

/**
 * Decodes the shaped reply at the model's pace and writes it: frames as it goes (the last content piece in the
 * done frame when the server does that) or one reply at the end, with the stream faults acting at their frame.
 */
async function generate(state: SimState, ctx: ReqCtx, g: Generation): Promise<void> {
  const { counters, rates, timeScale } = state;
  const { endpoint, modelName, stream, fs, pieces, doneReason, runner, tokens, evaluated, loadSec, prefillSec } = g;
  const res = ctx.res;
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
        await sleepUnlessCancelled(4, ctx.ac.signal);
      }
    } else {
      await writeAndDrain(res, text, ctx);
    }
  };
  // Fault hooks before the frame with index `k` (0-based) is written
  const beforeFrame = async (k: number): Promise<'stop' | void> => {
    if (stall && stall.afterFrames === k) {
      counters.simulatedSeconds += stall.ms / 1000;
      await sleepUnlessCancelled(stall.ms, ctx.ac.signal);
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

  const lastInDone = stream && state.contentInDoneFrame && pieces.length > 0 && pieces[pieces.length - 1]?.kind === 'content';
  const frameCount = lastInDone ? pieces.length - 1 : pieces.length;

  if (slow) {
    counters.simulatedSeconds += slow.ms / 1000;
    await sleepUnlessCancelled(slow.ms, ctx.ac.signal);
  }
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i] as Piece;
    // decode pacing
    counters.simulatedSeconds += tokenSec;
    if (timeScale > 0) {
      const target = decodeStart + (i + 1) * tokenSec * 1000 * timeScale;
      const wait = target - performance.now();
      if (wait >= 1) await sleepUnlessCancelled(wait, ctx.ac.signal);
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
    await writeRaw(goJson(frameObject(endpoint, modelName, msg, state.now)) + '\n');
  }
  if (stream) {
    // faults positioned at or past the last content frame act just before the done frame
    if (stall && stall.afterFrames >= frameCount) {
      counters.simulatedSeconds += stall.ms / 1000;
      await sleepUnlessCancelled(stall.ms, ctx.ac.signal);
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
    prompt_eval_count: state.evalCountMode === 'all' ? tokens.length : evaluated,
    prompt_eval_duration: Math.max(1, Math.round(prefillSec * 1e9)),
    eval_count: generated,
    eval_duration: Math.round(generated * tokenSec * 1e9),
  };
  metrics.total_duration = metrics.load_duration + metrics.prompt_eval_duration + metrics.eval_duration + 150_000;

  if (stream) {
    const last = lastInDone ? pieces[pieces.length - 1] : undefined;
    if (noDone) {
      if (last) await writeRaw(goJson(frameObject(endpoint, modelName, { content: last.text }, state.now)) + '\n');
      res.end();
      return;
    }
    await writeRaw(goJson(doneObject(endpoint, modelName, last?.text ?? '', undefined, doneReason, metrics, state.now)) + '\n');
    res.end();
  } else {
    const allContent = pieces
      .filter((p) => p.kind === 'content')
      .map((p) => p.text)
      .join('');
    const allThinking = pieces
      .filter((p) => p.kind === 'thinking')
      .map((p) => p.text)
      .join('');
    const obj = doneObject(endpoint, modelName, allContent, allThinking || undefined, doneReason, metrics, state.now);
    if (noDone) obj.done = false;
    sendJson(res, 200, obj);
  }
}

type Message = { role: string; content: string };

/** The conversation of a request: /api/chat's messages, or /api/generate's system and prompt as two messages. */
export function requestMessages(endpoint: 'chat' | 'generate', body: Record<string, unknown>): Message[] | { error: string } {
  if (endpoint === 'chat') {
    const raw = body.messages ?? [];
    if (!Array.isArray(raw)) return { error: 'json: cannot unmarshal messages into Go struct field ChatRequest.messages of type []api.Message' };
    return raw.map((m) => {
      const o = (typeof m === 'object' && m !== null ? m : {}) as Record<string, unknown>;
      return { role: typeof o.role === 'string' ? o.role : '', content: typeof o.content === 'string' ? o.content : '' };
    });
  }
  const prompt = typeof body.prompt === 'string' ? body.prompt : '';
  return prompt === ''
    ? []
    : [...(typeof body.system === 'string' && body.system !== '' ? [{ role: 'system', content: body.system }] : []), { role: 'user', content: prompt }];
}

/**
 * The prompt's tokens within num_ctx, as the server truncates: chat first drops the oldest non-system messages
 * (chatPrompt), then the runner keeps num_keep tokens and the tail. Without truncation, too long is an error.
 */
export function fitToContext(
  tokenize: (text: string) => string[],
  messages: Message[],
  numCtx: number,
  truncate: boolean,
  opts: Record<string, unknown>,
): { fullTokens: string[]; tokens: string[]; truncated: boolean } | { error: string } {
  const fullTokens = tokenize(renderPrompt(messages));
  let kept: Message[] = messages;
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
    if (!truncate) return { error: ollamaErrors.inputTooLong };
    const rawKeep = typeof opts.num_keep === 'number' ? opts.num_keep : 4;
    const numKeep = Math.min(rawKeep < 0 ? tokens.length : rawKeep, numCtx - 1);
    const discard = tokens.length - numCtx;
    tokens = [...tokens.slice(0, numKeep), ...tokens.slice(numKeep + discard)];
    runnerTruncated = true;
  }
  return { fullTokens, tokens, truncated: dropped || runnerTruncated };
}

export type Piece = { kind: 'thinking' | 'content'; text: string };

/**
 * The responder's reply as the model would send it: thinking only where asked for and supported, the
 * codeFences and cutJson faults, stop words, and num_predict, as the token pieces to write and why it ended.
 */
export function shapeReply(
  tokenize: (text: string) => string[],
  reply: SimReply,
  fs: Fault[],
  opts: Record<string, unknown>,
  keepThinking: boolean,
): { pieces: Piece[]; doneReason: string } {
  let content = typeof reply === 'string' ? reply : reply.content;
  let thinking = typeof reply === 'string' ? '' : (reply.thinking ?? '');
  let doneReason: string = typeof reply === 'string' ? 'stop' : (reply.doneReason ?? 'stop');
  if (!keepThinking) thinking = '';
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
  let pieces: Piece[] = [
    ...tokenize(thinking).map((t): Piece => ({ kind: 'thinking', text: t })),
    ...tokenize(content).map((t): Piece => ({ kind: 'content', text: t })),
  ];
  const numPredict = typeof opts.num_predict === 'number' ? opts.num_predict : -1;
  if (numPredict > 0 && pieces.length > numPredict) {
    pieces = pieces.slice(0, numPredict);
    doneReason = 'length';
  }
  return { pieces, doneReason };
}
