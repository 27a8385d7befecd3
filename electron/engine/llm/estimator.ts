import type { Database } from 'better-sqlite3';
import type { ChatMessage } from './types';
import { loadCalibration, saveCalibration, type TokenCalibration } from './store';

/**
 * Token estimates before sending (a prompt that would not fit is refused, not
 * truncated by Ollama), calibrated per model from what the server reports.
 *
 * Raw estimate: about 3.5 characters per token for Latin prose, fewer for
 * digits (Qwen tokenizes digits one by one), punctuation-heavy tables and
 * non-Latin scripts. A per-model factor (observed / raw) corrects it.
 *
 * Calibration and the prefix cache: Ollama reuses the KV cache for the
 * longest common prefix with the previous prompt, and `prompt_eval_count` may
 * then count only the tokens it evaluated. So a sample is taken only when the
 * reported count is consistent with one of two readings: a full evaluation
 * (compare with the raw estimate of the whole prompt) or an evaluation of the
 * part not shared with the previous prompt this client sent to that model
 * (compare with the raw estimate of that suffix). The reading closer to the
 * current factor wins and must be within a factor 1.6 of it; anything else
 * (evicted runner, another client, truncation) is ambiguous and skipped.
 * Truncated replies are never used.
 */
export interface TokenEstimator {
  /** Uncalibrated tokens for a text. */
  rawText(text: string): number;
  /** Uncalibrated tokens for chat messages, template overhead included. */
  rawMessages(messages: readonly ChatMessage[]): number;
  estimateText(text: string, model?: string): number;
  estimateMessages(messages: readonly ChatMessage[], model?: string): number;
  factor(model: string): number;
  /** Feeds one accepted sample; returns whether it was used. */
  observe(model: string, rawTokens: number, observedTokens: number): boolean;
}

const MIN_FACTOR = 0.4;
const MAX_FACTOR = 2.5;
const PER_MESSAGE = 5;
const PER_PROMPT = 8;

export function rawTokenEstimate(text: string): number {
  let latin = 0;
  let digits = 0;
  let symbols = 0;
  let cjk = 0;
  let otherScript = 0;
  // Char codes, not code points: a surrogate pair counts twice as "other script", close enough and much faster on long prompts.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digits++;
    else if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x20 || (c >= 0xc0 && c <= 0x24f)) latin++;
    else if (c < 0x80) symbols++;
    else if (c >= 0x2e80) cjk++;
    else otherScript++;
  }
  return Math.ceil(latin / 3.5 + digits / 1.5 + symbols / 1.6 + cjk / 1.0 + otherScript / 2.2);
}

export function rawMessagesEstimate(messages: readonly ChatMessage[]): number {
  return PER_PROMPT + messages.reduce((sum, m) => sum + PER_MESSAGE + rawTokenEstimate(m.content), 0);
}

export interface CalibrationInput {
  promptEvalCount: number | undefined;
  numCtx: number;
  truncated: boolean;
  /** Raw estimate of the whole prompt. */
  rawFullTokens: number;
  /** Raw estimate of the part not shared with the previous prompt to this model; undefined when unknown. */
  rawUncachedTokens: number | undefined;
  currentFactor: number;
}

/** Which raw count the observed prompt_eval_count should be compared with, or undefined when ambiguous. */
export function calibrationSample(i: CalibrationInput): { raw: number; observed: number } | undefined {
  const pe = i.promptEvalCount;
  if (i.truncated || !pe || pe <= 0) return undefined;
  if (pe >= i.numCtx * 0.95) return undefined;
  const candidates = [i.rawFullTokens];
  if (i.rawUncachedTokens !== undefined && i.rawUncachedTokens >= 128 && i.rawUncachedTokens < i.rawFullTokens * 0.95) candidates.push(i.rawUncachedTokens);
  let best: { raw: number; distance: number } | undefined;
  for (const raw of candidates) {
    if (raw < 32) continue;
    const distance = Math.abs(Math.log(pe / raw / i.currentFactor));
    if (!best || distance < best.distance) best = { raw, distance };
  }
  if (!best || best.distance > Math.log(1.6)) return undefined;
  return { raw: best.raw, observed: pe };
}

export function createEstimator(deps: { db?: Database; now?: () => number } = {}): TokenEstimator {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const cache = new Map<string, TokenCalibration>();

  const load = (model: string): TokenCalibration => {
    let cal = cache.get(model);
    if (cal) return cal;
    cal = (db && loadCalibration(db, model)) ?? { factor: 1, samples: 0 };
    cache.set(model, cal);
    return cal;
  };

  return {
    rawText: rawTokenEstimate,
    rawMessages: rawMessagesEstimate,
    estimateText(text, model) {
      return Math.ceil(rawTokenEstimate(text) * (model ? load(model).factor : 1));
    },
    estimateMessages(messages, model) {
      return Math.ceil(rawMessagesEstimate(messages) * (model ? load(model).factor : 1));
    },
    factor(model) {
      return load(model).factor;
    },
    observe(model, rawTokens, observedTokens) {
      if (rawTokens < 32 || observedTokens <= 0) return false;
      const ratio = observedTokens / rawTokens;
      if (ratio < MIN_FACTOR || ratio > MAX_FACTOR) return false;
      const cal = load(model);
      // Early samples move the factor a lot, later ones refine it.
      const weight = Math.max(0.1, 1 / (cal.samples + 2));
      const factor = Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, cal.factor * (1 - weight) + ratio * weight));
      const next = { factor, samples: cal.samples + 1 };
      cache.set(model, next);
      // Early samples move the factor most; later ones are persisted every tenth call (a crash loses a little refinement, nothing else).
      if (db && (next.samples <= 10 || next.samples % 10 === 0)) {
        saveCalibration(db, model, next, new Date(now()).toISOString());
      }
      return true;
    },
  };
}
