/**
 * The retrieval judge: one schema-constrained LLM call reads the question,
 * the query of this round and the retrieved passages, and returns a refined
 * query, the relevant passages, a re-ranked order, whether another round of
 * retrieval is needed, and a short justification. Any failure short of "the
 * model is unreachable" (a reply that does not parse, a reply cut short)
 * falls back to the unjudged ranking, recorded with its reason. Decisions are
 * stored and reused by key (question, query, candidates, model, prompt
 * version), like the chunking judge's.
 */
import { z } from 'zod';
import type { Database } from 'better-sqlite3';
import { AppError, ErrorCode, toErrorInfo } from '../../../shared/errors';
import { chatJsonPrompt, isRunWideLlmError, promptText, type LlmClient } from '../llm';
import { sha256, stableStringify, throwIfAborted } from '../util';
import { cachedModelDecision, insertJudgeDecision } from './store';
import type { StoredUnit } from './store';

export const RETRIEVAL_JUDGE_PROMPT_VERSION = 1;
/** Characters of each passage the judge sees: enough to tell relevance, small enough for 10+ candidates. */
export const JUDGE_EXCERPT_CHARS = 700;

export const RetrievalJudgeReplySchema = z.object({
  refinedQuery: z.string().describe('a better search query for the question, or the same query'),
  relevantIds: z.array(z.number().int()).describe('ids of the passages that help answer the question'),
  rankedIds: z.array(z.number().int()).describe('the relevant ids, most useful first'),
  needsMore: z.boolean().describe('true when the passages are not enough and another search with refinedQuery should run'),
  justification: z.string().describe('one or two sentences'),
});
export type RetrievalJudgeReply = z.infer<typeof RetrievalJudgeReplySchema>;

export const RETRIEVAL_JUDGE_INSTRUCTIONS = promptText`
  You are the retrieval judge of a document-audit tool. A user asked a question about their documents; a search returned numbered passages.
  Decide which passages help answer the question (relevantIds), order them most useful first (rankedIds),
  and write a refined search query that would find what is still missing (refinedQuery).
  Set needsMore to true only when the relevant passages are not enough to answer and a search with refinedQuery could find more.
  Judge only from the passages; do not answer the question.
`;

export interface JudgeCandidate {
  /** The number shown to the judge (1..N in this round). */
  id: number;
  unit: StoredUnit;
  documentName: string;
  text: string;
}

export interface JudgeOutcome {
  source: 'llm' | 'cached' | 'fallback';
  /** Candidates kept, best first (unit ids). */
  keptUnitIds: number[];
  refinedQuery: string | null;
  needsMore: boolean;
  justification: string;
  fallbackReason: string | null;
  callId: string | null;
}

export interface RetrievalJudgeInput {
  question: string;
  query: string;
  round: number;
  candidates: readonly JudgeCandidate[];
  model: string;
  numCtx: number;
  signal?: AbortSignal;
  now?: () => string;
}

/** Tokens the judge may write: room for ids and a justification, plus a refined query as long as the question. */
export function judgeReplyTokens(question: string): number {
  return 512 + Math.ceil(question.length / 3);
}

export function judgeCacheKey(input: Pick<RetrievalJudgeInput, 'question' | 'query' | 'candidates' | 'model'>): string {
  return sha256(
    stableStringify({
      v: RETRIEVAL_JUDGE_PROMPT_VERSION,
      model: input.model,
      question: input.question,
      query: input.query,
      candidates: input.candidates.map((c) => [c.id, c.unit.id, c.unit.contentHash]),
    }),
  );
}

function candidatesText(candidates: readonly JudgeCandidate[]): string {
  return candidates
    .map((c) => {
      const section = c.unit.path.length > 0 ? c.unit.path.join(' > ') : c.unit.title;
      const excerpt = c.text.length > JUDGE_EXCERPT_CHARS ? `${c.text.slice(0, JUDGE_EXCERPT_CHARS)}...` : c.text;
      return `id=${c.id} | ${c.documentName}, page ${c.unit.pageStart} | ${section}\n${excerpt.trim()}`;
    })
    .join('\n\n');
}

/** Keeps only ids the judge was shown, ranked first, then relevant ones it forgot to rank. */
export function keptFromReply(reply: RetrievalJudgeReply, candidates: readonly JudgeCandidate[]): number[] {
  const byId = new Map(candidates.map((c) => [c.id, c.unit.id]));
  const relevant = new Set(reply.relevantIds.filter((id) => byId.has(id)));
  const order: number[] = [];
  for (const id of [...reply.rankedIds, ...reply.relevantIds]) {
    if (relevant.has(id) && !order.includes(id)) order.push(id);
  }
  return order.map((id) => byId.get(id)!);
}

export async function judgeRetrieval(deps: { db: Database; llm: LlmClient }, input: RetrievalJudgeInput): Promise<JudgeOutcome> {
  const { db, llm } = deps;
  const now = input.now ?? (() => new Date().toISOString());
  const cacheKey = judgeCacheKey(input);
  const record = (o: JudgeOutcome): JudgeOutcome => {
    insertJudgeDecision(db, {
      cacheKey,
      question: input.question,
      round: input.round,
      query: input.query,
      source: o.source,
      refinedQuery: o.refinedQuery,
      keptUnitIds: o.keptUnitIds,
      needsMore: o.needsMore,
      justification: o.justification,
      fallbackReason: o.fallbackReason,
      callId: o.callId,
      model: input.model,
      at: now(),
    });
    return o;
  };

  const cached = cachedModelDecision(db, cacheKey);
  if (cached) {
    return record({
      source: 'cached',
      keptUnitIds: cached.keptUnitIds,
      refinedQuery: cached.refinedQuery,
      needsMore: cached.needsMore,
      justification: cached.justification,
      fallbackReason: null,
      callId: cached.callId,
    });
  }

  const prompt = {
    instructions: RETRIEVAL_JUDGE_INSTRUCTIONS,
    schema: RetrievalJudgeReplySchema,
    context: `Question: ${input.question}\nSearch query of this round: ${input.query}`,
    document: { id: 'retrieved', label: 'passages', text: candidatesText(input.candidates) },
  };
  try {
    const r = await chatJsonPrompt(llm, prompt, {
      purpose: 'qa',
      model: input.model,
      numCtx: input.numCtx,
      // The refined query may restate a long question: the reply's room grows with it (about 3 characters a token).
      numPredict: judgeReplyTokens(input.question),
      chunkRef: `retrieval-judge:${input.round}`,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const refined = r.value.refinedQuery.trim();
    return record({
      source: 'llm',
      keptUnitIds: keptFromReply(r.value, input.candidates),
      refinedQuery: refined === '' ? null : refined,
      needsMore: r.value.needsMore,
      justification: r.value.justification.trim() || '(no justification given)',
      fallbackReason: null,
      callId: r.call.callId,
    });
  } catch (error) {
    if (error instanceof AppError && (error.code === ErrorCode.CANCELLED || isRunWideLlmError(error.code))) throw error;
    throwIfAborted(input.signal);
    const info = toErrorInfo(error);
    return record({
      source: 'fallback',
      keptUnitIds: input.candidates.map((c) => c.unit.id),
      refinedQuery: null,
      needsMore: false,
      justification: 'The judge did not give a usable reply; the search ranking is used as it is.',
      fallbackReason: `${info.code}: ${info.message}`,
      callId: null,
    });
  }
}
