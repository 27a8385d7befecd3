/**
 * Ollama's wire format: Go's JSON encoding, keep_alive durations and options as the server parses them, the
 * prompt rendering, JSON replies and errors, stream frames, and the low-level writing of a stream.
 */
import type http from 'node:http';
import { ollamaErrors } from './errors';
import { Cancelled } from './timing';

/** Go's encoding/json escapes <, >, & and U+2028/9 */
export function goJson(v: unknown): string {
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

const FOREVER_MS = 292 * 365.25 * 24 * 3600 * 1000; // Go's MaxInt64 nanoseconds

/** Parses keep_alive like api.Duration: number = seconds, string = Go duration; negative = forever. */
export function parseKeepAlive(v: unknown): { ms: number } | { error: string } {
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
  'num_keep',
  'seed',
  'num_predict',
  'top_k',
  'repeat_last_n',
  'mirostat',
  'num_ctx',
  'num_batch',
  'num_gpu',
  'main_gpu',
  'num_thread',
]);
const FLOAT_OPTIONS = new Set([
  'temperature',
  'top_p',
  'min_p',
  'typical_p',
  'repeat_penalty',
  'presence_penalty',
  'frequency_penalty',
  'tfs_z',
  'mirostat_tau',
  'mirostat_eta',
]);
const BOOL_OPTIONS = new Set(['penalize_newline', 'numa', 'use_mmap', 'use_mlock', 'low_vram', 'f16_kv', 'vocab_only']);

/** Validates and normalises options like api.Options.FromMap: floats given for integers are truncated. */
export function normalizeOptions(raw: unknown): { opts: Record<string, unknown> } | { error: string } {
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

// ---- responses ----
export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = goJson(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
export const sendError = (res: http.ServerResponse, status: number, error: string) => sendJson(res, status, { error });

/** One streamed frame of /api/chat or /api/generate; `now` is the server's clock. */
export function frameObject(
  endpoint: 'chat' | 'generate',
  model: string,
  piece: { content?: string; thinking?: string },
  now: () => number,
): Record<string, unknown> {
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

/** The done frame (or the whole reply when not streamed), with its metrics. */
export function doneObject(
  endpoint: 'chat' | 'generate',
  model: string,
  content: string,
  thinking: string | undefined,
  doneReason: string,
  metrics: Record<string, number> | undefined,
  now: () => number,
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

// ---- low-level writing ----

export async function writeAndDrain(res: http.ServerResponse, chunk: string | Buffer, ctx: { aborted: boolean }): Promise<void> {
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
export function splitInsideMultibyte(buf: Buffer): Buffer[] {
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
