/**
 * The agentic answer loop: bring the index up to date, retrieve (lexical +
 * vector, fused), let the judge filter and re-rank and, while it asks for
 * more, retrieve again with its refined query (at most `maxRounds`), then
 * answer from the kept context only and check every citation.
 *
 * Model-time plan (ollama.md: reloads make runs crawl): the embedding model
 * and the chat model are different runners, so calling one does not unload
 * the other unless memory is short. Every embedding call uses one fixed
 * num_ctx (indexer.EMBED_NUM_CTX) and every judge/answer call one fixed
 * num_ctx (`numCtx`), so neither runner is ever reloaded for a new context
 * size; the index is embedded first, in one sequence, before any chat call,
 * and a question costs one short embedding per round.
 */
import type { Database } from 'better-sqlite3';
import { AppError, ErrorCode } from '../../../shared/errors';
import { DEFAULT_RETRIEVAL_SETTINGS, MAX_QUESTION_CHARS, type AskAnswer, type AskJudgeStep, type AskPassage } from '../../../shared/retrieval';
import { chatJsonPrompt, type LlmClient } from '../llm';
import {
  ANSWER_INSTRUCTIONS,
  AnswerReplySchema,
  checkAnswer,
  EXHAUSTIVE_NOTE,
  isFindAllQuestion,
  NOT_FOUND_TEXT,
  partialAnswerText,
  renderContext,
} from './answer';
import { buildContext, createDocumentSources, unitText } from './context';
import { embedContext, updateIndex } from './indexer';
import { judgeRetrieval, type JudgeCandidate } from './judge';
import { search, type SearchHit } from './search';
import { documentExists } from '../store';
import { countDocuments, type StoredUnit } from './store';
import { findVectorSpace, type VectorSpace } from './vectors';
import { throwIfAborted } from '../util';

export interface AskSettings {
  /** Chat model for the judge and the answer. */
  model: string;
  /** Embedding model; null = lexical retrieval only. */
  embedModel: string | null;
  judge: boolean;
  maxRounds: number;
  /** Relevance threshold 0..1 (search.ts). */
  threshold: number;
  /** Passages per retrieval round. */
  topK: number;
  /** Tokens of context the answer may read. */
  contextTokens: number;
  /** Include each kept passage's neighbours when the budget allows. */
  neighbours: boolean;
  numCtx: number;
}

export const DEFAULT_ASK_SETTINGS: Omit<AskSettings, 'model' | 'embedModel'> = {
  ...DEFAULT_RETRIEVAL_SETTINGS,
  topK: 8,
  contextTokens: 3000,
  neighbours: true,
  numCtx: 8192,
};

export interface AskInput {
  question: string;
  /** Scope: these documents; none = the whole library. */
  documentIds?: readonly number[];
  settings: AskSettings;
  signal?: AbortSignal;
  onStep?: (step: { phase: 'index' | 'retrieve' | 'judge' | 'answer'; message: string; step?: AskJudgeStep }) => void;
  /** The answer text as the model writes it (before its citations are checked). */
  onPartial?: (text: string) => void;
  now?: () => string;
}

/** The library has documents, and every document asked about exists. */
export function checkAskScope(db: Database, documentIds: readonly number[]): void {
  if (countDocuments(db) === 0) throw new AppError(ErrorCode.ASK_NO_DOCUMENTS, 'There are no documents to ask about yet. Add and analyse documents first.');
  const missing = documentIds.filter((id) => !documentExists(db, id));
  if (missing.length > 0) {
    throw new AppError(
      ErrorCode.ASK_DOCUMENT_NOT_FOUND,
      `Document ${missing.join(', ')} is not in the library (any more). Refresh the library and choose again.`,
      { documentIds: missing },
    );
  }
}

/** The question as asked, trimmed; an empty or overlong one is refused with what to do. */
function checkedQuestion(input: AskInput): string {
  const question = input.question.trim();
  if (question === '') throw new AppError(ErrorCode.ASK_EMPTY_QUESTION, 'The question is empty. Type what you want to know about the documents.');
  if (question.length > MAX_QUESTION_CHARS) {
    throw new AppError(
      ErrorCode.INVALID_INPUT,
      `The question is ${question.length.toLocaleString('en-US')} characters long; Ask takes at most ${MAX_QUESTION_CHARS.toLocaleString('en-US')}. Ask one thing at a time, in a sentence or two, and quote only the words you need.`,
    );
  }
  return question;
}

type AskStep = NonNullable<AskInput['onStep']>;

/** One question's retrieval: where it searches, with which vectors, and what it has kept so far. */
interface Retrieval {
  readonly db: Database;
  readonly llm: LlmClient;
  readonly settings: AskSettings;
  readonly signal: AbortSignal | undefined;
  readonly input: AskInput;
  readonly step: AskStep;
  readonly question: string;
  /** The scope; undefined = the whole library. */
  readonly documentIds: number[] | undefined;
  /** The embedding model's vectors, when there is an embedding model and an index of it. */
  readonly space: VectorSpace | undefined;
  readonly embedNumCtx: number;
  readonly sources: ReturnType<typeof createDocumentSources>;
  /** Kept passages, best first, each once. */
  readonly kept: StoredUnit[];
  readonly steps: AskJudgeStep[];
}

/**
 * Index, retrieve and judge: the passages kept for a question, best first,
 * with the judge's steps. No answer is written (the benchmark measures
 * recall on this).
 */
export async function retrieveContext(
  deps: { db: Database; llm: LlmClient },
  input: AskInput,
): Promise<{ question: string; kept: StoredUnit[]; steps: AskJudgeStep[]; embedModel: string | null }> {
  const question = checkedQuestion(input);
  const documentIds = input.documentIds && input.documentIds.length > 0 ? [...input.documentIds] : undefined;
  checkAskScope(deps.db, documentIds ?? []);
  const r = await indexedRetrieval(deps, input, question, documentIds);

  let query = question;
  const rounds = r.settings.judge ? Math.max(1, r.settings.maxRounds) : 1;
  for (let round = 1; round <= rounds; round++) {
    r.step({ phase: 'retrieve', message: round === 1 ? 'Searching the documents' : `Searching again: ${query}` });
    const hits = await retrieve(r, query);
    const next = r.settings.judge ? await judgeRound(r, round, query, hits) : keepUnjudged(r, round, query, hits);
    if (next === null) break;
    query = next;
  }
  const { embedModel } = r.settings;
  return { question, kept: r.kept, steps: r.steps, embedModel: embedModel && r.space ? embedModel : null };
}

/** The search index brought up to date for the scope (embedded first, before any chat call: ollama.md), ready to search. */
async function indexedRetrieval(
  deps: { db: Database; llm: LlmClient },
  input: AskInput,
  question: string,
  documentIds: number[] | undefined,
): Promise<Retrieval> {
  const { db, llm } = deps;
  const s = input.settings;
  const signal = input.signal;
  const step = input.onStep ?? (() => {});
  step({ phase: 'index', message: 'Updating the search index' });
  await updateIndex(db, {
    ...(documentIds ? { documentIds } : {}),
    ...(s.embedModel ? { embedModel: s.embedModel, llm } : {}),
    ...(signal ? { signal } : {}),
    onProgress: (p) => step({ phase: 'index', message: p.message }),
    ...(input.now ? { now: input.now } : {}),
  });
  const space = s.embedModel ? findVectorSpace(db, s.embedModel) : undefined;
  const embedNumCtx = s.embedModel && space ? await embedContext(llm, s.embedModel, signal) : 0;
  return { db, llm, settings: s, signal, input, step, question, documentIds, space, embedNumCtx, sources: createDocumentSources(db), kept: [], steps: [] };
}

/** One search: lexical, and with the query's own embedding when the index has vectors. */
async function retrieve(r: Retrieval, query: string): Promise<SearchHit[]> {
  throwIfAborted(r.signal);
  const { embedModel } = r.settings;
  let queryVector: number[] | undefined;
  if (embedModel && r.space) {
    const embedded = await r.llm.embed({
      model: embedModel,
      input: query,
      numCtx: r.embedNumCtx,
      chunkRef: 'retrieval-query',
      ...(r.signal ? { signal: r.signal } : {}),
    });
    queryVector = embedded.embeddings[0];
  }
  return search(r.db, {
    query,
    ...(r.documentIds ? { documentIds: r.documentIds } : {}),
    ...(queryVector && r.space ? { queryVector, space: r.space } : {}),
    limit: r.settings.topK,
    threshold: r.settings.threshold,
  });
}

function keep(r: Retrieval, units: readonly StoredUnit[]): void {
  for (const u of units) if (!r.kept.some((k) => k.id === u.id)) r.kept.push(u);
}

/** The kept units of a round as the step shows them, with the round's scores. */
function passagesOf(r: Retrieval, hits: readonly SearchHit[], units: readonly StoredUnit[]): AskPassage[] {
  return units.flatMap((u) => {
    const hit = hits.find((h) => h.unit.id === u.id);
    if (!hit) return [];
    return [
      {
        unitId: u.id,
        kind: u.kind,
        documentId: u.documentId,
        documentName: r.sources(u.documentId).name,
        pageStart: u.pageStart,
        pageEnd: u.pageEnd,
        title: u.title,
        mergedFindingId: u.mergedFindingId,
        score: hit.score,
        relevance: hit.relevance,
      },
    ];
  });
}

/** The judge turned off: the search ranking is kept as it is, in one round. Returns null: no further round. */
function keepUnjudged(r: Retrieval, round: number, query: string, hits: readonly SearchHit[]): null {
  keep(
    r,
    hits.map((h) => h.unit),
  );
  r.steps.push({
    round,
    query,
    candidates: hits.length,
    source: 'disabled',
    refinedQuery: null,
    kept: hits.map((h) => h.unit.title),
    needsMore: false,
    justification: 'Judge turned off: the search ranking is used.',
    fallbackReason: null,
    passages: passagesOf(
      r,
      hits,
      hits.map((h) => h.unit),
    ),
  });
  return null;
}

/** One judged round: the passages the judge keeps; the refined query to search next, or null when it needs no more. */
async function judgeRound(r: Retrieval, round: number, query: string, hits: readonly SearchHit[]): Promise<string | null> {
  const { db, llm, settings: s, signal, input, question } = r;
  if (hits.length === 0) {
    r.steps.push({
      round,
      query,
      candidates: 0,
      source: 'disabled',
      refinedQuery: null,
      kept: [],
      needsMore: false,
      justification: 'No passage passed the relevance threshold.',
      fallbackReason: null,
    });
    return null;
  }
  const candidates: JudgeCandidate[] = hits.map((h, i) => ({
    id: i + 1,
    unit: h.unit,
    documentName: r.sources(h.unit.documentId).name,
    text: unitText(db, h.unit, r.sources(h.unit.documentId)),
  }));
  r.step({ phase: 'judge', message: `Judging ${candidates.length} passages (round ${round})` });
  const decision = await judgeRetrieval(
    { db, llm },
    { question, query, round, candidates, model: s.model, numCtx: s.numCtx, ...(signal ? { signal } : {}), ...(input.now ? { now: input.now } : {}) },
  );
  const byId = new Map(hits.map((h) => [h.unit.id, h.unit]));
  const keptNow = decision.keptUnitIds.map((id) => byId.get(id)).filter((u): u is StoredUnit => u !== undefined);
  keep(r, keptNow);
  const judgeStep: AskJudgeStep = {
    round,
    query,
    candidates: candidates.length,
    source: decision.source,
    refinedQuery: decision.refinedQuery,
    kept: keptNow.map((u) => u.title),
    needsMore: decision.needsMore,
    justification: decision.justification,
    fallbackReason: decision.fallbackReason,
    passages: passagesOf(r, hits, keptNow),
  };
  r.steps.push(judgeStep);
  r.step({ phase: 'judge', message: decision.justification, step: judgeStep });
  const next = decision.refinedQuery;
  return !decision.needsMore || !next || next === query ? null : next;
}

/** Forwards the answer text when it grew, not on every frame of the citations after it. */
function streamAnswer(onPartial: (text: string) => void): (contentSoFar: string) => void {
  let last = '';
  return (content) => {
    const text = partialAnswerText(content);
    if (text === null || text === last) return;
    last = text;
    onPartial(text);
  };
}

export async function ask(deps: { db: Database; llm: LlmClient }, input: AskInput): Promise<AskAnswer> {
  const { db, llm } = deps;
  const s = input.settings;
  const signal = input.signal;
  const step = input.onStep ?? (() => {});
  const { question, kept, steps, embedModel } = await retrieveContext(deps, input);
  const sources = createDocumentSources(db);
  const base = {
    question,
    steps,
    exhaustiveNote: isFindAllQuestion(question) ? EXHAUSTIVE_NOTE : null,
    model: s.model,
    embedModel,
  };
  if (kept.length === 0) {
    // Nothing relevant was found: say so without asking the model to guess.
    return { ...base, text: NOT_FOUND_TEXT, notFound: true, citations: [], dropped: [], marked: false, unverified: false, contextSize: 0 };
  }

  const entries = buildContext(db, kept, {
    budgetTokens: s.contextTokens,
    estimate: (t) => llm.estimator.estimateText(t, s.model),
    neighbours: s.neighbours,
    sources,
  });
  step({ phase: 'answer', message: `Answering from ${entries.length} passages` });
  const prompt = {
    instructions: ANSWER_INSTRUCTIONS,
    schema: AnswerReplySchema,
    context: `Question: ${question}`,
    document: { id: 'context', label: 'numbered passages', text: renderContext(entries) },
  };
  const r = await chatJsonPrompt(llm, prompt, {
    purpose: 'qa',
    model: s.model,
    numCtx: s.numCtx,
    numPredict: 1024,
    chunkRef: 'answer',
    ...(signal ? { signal } : {}),
    ...(input.onPartial ? { onContent: streamAnswer(input.onPartial) } : {}),
  });
  const checked = checkAnswer(r.value, entries, sources);
  return { ...base, ...checked, marked: checked.dropped.length > 0 || checked.unverified, contextSize: entries.length };
}
