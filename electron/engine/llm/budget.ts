import { AppError, ErrorCode } from '../../../shared/errors';

/**
 * One num_ctx per run. Changing num_ctx reloads the model (seconds to
 * minutes), so the run picks it once from the largest prompt it will send and
 * derives the chunk budget from it: chunks are cut to fit, never the context
 * raised mid-run.
 */
export interface PlanContextInput {
  /** From /api/show (`<arch>.context_length`). */
  modelContextLength: number;
  /** The chunk size the pipeline would like, in tokens. */
  desiredChunkTokens: number;
  /** Fixed instructions (system prompt, schema description, delimiters), in tokens. */
  instructionTokens: number;
  /** Room for the reply (num_predict), in tokens. */
  outputTokens: number;
  /** Smallest num_ctx worth using. Default 4096. */
  floor?: number;
  /** Largest num_ctx we allow (memory grows with it). Default 32768. */
  cap?: number;
  /** Fraction kept free for estimation error and chat-template tokens. Default 0.08. */
  safety?: number;
}

export interface ContextPlan {
  numCtx: number;
  /** Largest chunk, in estimated tokens, that fits with the instructions and the reply. */
  chunkTokenBudget: number;
  /** Tokens reserved for estimation error and template. */
  reserveTokens: number;
}

const STEP = 1024;

export function planContext(input: PlanContextInput): ContextPlan {
  const floor = input.floor ?? 4096;
  const cap = input.cap ?? 32768;
  const safety = input.safety ?? 0.08;
  const modelMax = Math.max(0, Math.floor(input.modelContextLength || 0)) || cap;
  const fixed = Math.ceil(input.instructionTokens) + Math.ceil(input.outputTokens);
  const wanted = (fixed + Math.ceil(input.desiredChunkTokens)) / (1 - safety) + 64;
  // Round up to a step so runs with similar settings share a loaded runner.
  let numCtx = Math.ceil(wanted / STEP) * STEP;
  numCtx = Math.max(numCtx, Math.min(floor, modelMax));
  numCtx = Math.min(numCtx, cap, modelMax);
  const reserveTokens = Math.ceil(numCtx * safety) + 64;
  const chunkTokenBudget = Math.floor(numCtx - fixed - reserveTokens);
  if (chunkTokenBudget <= 0) {
    throw new AppError(
      ErrorCode.LLM_CONTEXT_OVERFLOW,
      `The instructions and the reply (${fixed} tokens) do not fit the model's context (${numCtx} tokens). Choose a model with a longer context or shorten the reply.`,
      { numCtx, fixed },
    );
  }
  return { numCtx, chunkTokenBudget: Math.min(chunkTokenBudget, Math.ceil(input.desiredChunkTokens)), reserveTokens };
}

/** Whether a prompt of this estimated size may be sent at numCtx (the reply needs room too, at least a little). */
export function fitsContext(estimatedPromptTokens: number, numCtx: number, minReplyTokens = 16): boolean {
  return estimatedPromptTokens + minReplyTokens <= numCtx;
}
