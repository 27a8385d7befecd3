/**
 * A simulator responder for "ask the documents": it reads the prompt the
 * engine sent (the question and the delimited passages) and answers from
 * that context only, the way a careful small model would:
 *  - retrieval judge: keeps the passages sharing at least half of the
 *    question's content words, best first; a test can script the refined
 *    query and needsMore per round, or make the reply unparsable;
 *  - answer: quotes the sentence(s) with the most question words, citing
 *    their passage numbers; "not found" when no sentence shares enough.
 * It never sees the documents themselves, so a right answer proves the
 * engine put the right passages in front of it.
 */
import type { Responder, SimChatRequest } from '../ollama-sim/index';

const STOP = new Set(
  'a an and are as at be by can do does did for from has have how in is it its of on or that the this to was were what when where which who why will with about into than then there these those their they we you your our not no any all find list show tell me please give describe say says said report document documents'.split(
    ' ',
  ),
);

export function contentWords(text: string): string[] {
  return [...new Set([...text.toLowerCase().matchAll(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu)].map((m) => m[0]).filter((w) => w.length > 1 && !STOP.has(w)))];
}

function overlap(words: readonly string[], text: string): number {
  if (words.length === 0) return 0;
  const have = new Set(contentWords(text));
  return words.filter((w) => have.has(w)).length / words.length;
}

function delimited(user: string): string {
  const open = user.indexOf('<<<DOCUMENT');
  const start = user.indexOf('>>>', open) + 3;
  const end = user.lastIndexOf('<<<END DOCUMENT>>>');
  return open < 0 || end < 0 ? '' : user.slice(start, end).trim();
}

function field(user: string, label: string): string {
  const m = new RegExp(`^${label}: (.*)$`, 'm').exec(user);
  return m?.[1]?.trim() ?? '';
}

export interface AskResponderOptions {
  /** Per judge round (1-based): the refined query and whether to ask for more. Default: same query, no more. */
  refine?: (round: number, question: string, query: string) => { refinedQuery: string; needsMore: boolean };
  /** The judge answers with text that is not JSON. */
  brokenJudge?: boolean;
  /** Share of the question's words a passage / sentence must contain to count (default 0.5). */
  minOverlap?: number;
  /** Citations in an answer at most (default 2). */
  maxCitations?: number;
  /** Replace every quote with words that are not in the document (tests the drop of ungrounded citations). */
  inventQuotes?: boolean;
  /**
   * A judge that reads like a model: it recognises a passage written in other words (the vocabulary:
   * everyday word -> the technical words meaning the same), and when the passages are weak it writes
   * its refined query from the line it read that fits the question best (a summary table's title, say)
   * and asks for one more round. Without it the judge only counts the question's own words.
   */
  reader?: { vocabulary: Readonly<Record<string, readonly string[]>> };
}

export interface AskTranscript {
  judgeRounds: { round: number; question: string; query: string; ids: number[] }[];
  answers: { question: string; passages: number }[];
}

export function createAskResponder(options: AskResponderOptions = {}): { responder: Responder; transcript: AskTranscript } {
  const transcript: AskTranscript = { judgeRounds: [], answers: [] };
  const min = options.minOverlap ?? 0.5;
  const responder: Responder = (req: SimChatRequest) => {
    const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
    const user = req.messages.find((m) => m.role === 'user')?.content ?? '';
    const question = field(user, 'Question');
    const words = contentWords(question);
    const body = delimited(user);
    if (system.includes('retrieval judge') && options.reader) {
      const query = field(user, 'Search query of this round');
      const round = transcript.judgeRounds.filter((r) => r.question === question).length + 1;
      const passages = body.split(/\n\n(?=id=\d+ \|)/).map((block) => ({ id: Number(/^id=(\d+)/.exec(block)?.[1]), text: block }));
      transcript.judgeRounds.push({ round, question, query, ids: passages.map((p) => p.id) });
      return JSON.stringify(readingJudge(options.reader.vocabulary, question, query, passages, min));
    }
    if (system.includes('retrieval judge')) {
      const query = field(user, 'Search query of this round');
      const round = transcript.judgeRounds.filter((r) => r.question === question).length + 1;
      const passages = body.split(/\n\n(?=id=\d+ \|)/).map((block) => ({ id: Number(/^id=(\d+)/.exec(block)?.[1]), text: block }));
      transcript.judgeRounds.push({ round, question, query, ids: passages.map((p) => p.id) });
      if (options.brokenJudge) return 'Sure! The relevant passages are the first ones, I think.';
      const scored = passages.map((p) => ({ id: p.id, score: overlap(words, p.text) })).filter((p) => p.score >= min);
      scored.sort((a, b) => b.score - a.score || a.id - b.id);
      const plan = options.refine?.(round, question, query) ?? { refinedQuery: query, needsMore: false };
      return JSON.stringify({
        refinedQuery: plan.refinedQuery,
        relevantIds: scored.map((p) => p.id),
        rankedIds: scored.map((p) => p.id),
        needsMore: plan.needsMore,
        justification: `${scored.length} of ${passages.length} passages share the question's words.`,
      });
    }
    if (system.includes("answer an auditor's question")) {
      const passages = body.split(/\n\n(?=\[\d+\] )/).map((block) => {
        const n = Number(/^\[(\d+)\]/.exec(block)?.[1]);
        const text = block.slice(block.indexOf('\n') + 1);
        return { n, text };
      });
      transcript.answers.push({ question, passages: passages.length });
      const sentences = passages.flatMap((p) =>
        p.text
          .split(/(?<=[.!?])\s+|\n{2,}/)
          .map((s) => s.replace(/\s+/g, ' ').trim())
          .filter((s) => s.length > 3)
          .map((s) => ({ n: p.n, sentence: s.length > 300 ? s.slice(0, 300).replace(/\s+\S*$/, '') : s, score: overlap(words, s) })),
      );
      const best = sentences.filter((s) => s.score >= min).sort((a, b) => b.score - a.score || a.n - b.n);
      const picked: typeof best = [];
      for (const s of best) {
        if (picked.length >= (options.maxCitations ?? 2)) break;
        if (!picked.some((p) => p.n === s.n)) picked.push(s);
      }
      if (picked.length === 0) return JSON.stringify({ answer: 'The passages do not say.', notFound: true, citations: [] });
      return JSON.stringify({
        answer: picked.map((p) => `${p.sentence} [${p.n}]`).join(' '),
        notFound: false,
        citations: picked.map((p) => ({ n: p.n, quote: options.inventQuotes ? 'the moon is made of green cheese entirely' : p.sentence })),
      });
    }
    return 'OK';
  };
  return { responder, transcript };
}

/** Words that shape a question but name nothing to look for: a model reads past them. */
const QUESTION_FILLER = new Set(
  'could would should anyone someone really happens happen goes wrong make makes made may might get gets given even only other ways way there whether if while when being been after before right every many much really properly correctly enough high'.split(
    ' ',
  ),
);

/** Crude stemming: "counters" and "counter", "compaction" and "compacted" meet. */
function stem(word: string): string {
  return word.length > 5 ? word.slice(0, 5) : word;
}

/**
 * The reading judge: each of the question's words is a concept met by the
 * word itself or by a technical word the vocabulary gives for it. A passage's
 * relevance is the share of concepts it meets; the line that meets most
 * concepts (and brings new words) becomes the refined query, in the
 * document's own words, and the judge asks for another round unless a
 * passage already meets most of the question.
 */
function readingJudge(
  vocabulary: Readonly<Record<string, readonly string[]>>,
  question: string,
  query: string,
  passages: readonly { id: number; text: string }[],
  min: number,
): { refinedQuery: string; relevantIds: number[]; rankedIds: number[]; needsMore: boolean; justification: string } {
  const concepts = contentWords(question)
    .filter((w) => !QUESTION_FILLER.has(w))
    .map((w) => [w, ...(vocabulary[w] ?? [])].map((v) => contentWords(v).map(stem)));
  const queryStems = new Set(contentWords(query).map(stem));
  const meets = (text: string) => {
    const have = new Set(contentWords(text).map(stem));
    const met = concepts.filter((variants) => variants.some((v) => v.length > 0 && v.every((s) => have.has(s)))).length;
    // Words of the refined query (the document's wording, from an earlier round) count too.
    const echoes = [...queryStems].filter((s) => have.has(s)).length / Math.max(1, queryStems.size);
    return Math.max(concepts.length === 0 ? 0 : met / concepts.length, echoes);
  };
  const scored = passages.map((p) => ({ id: p.id, score: meets(p.text) })).filter((p) => p.score >= min);
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  const lines = passages.flatMap((p) =>
    p.text
      .split(/\n|(?<=[.!?])\s+/)
      .map((line) => line.replace(/^id=\d+ \|[^\n]*?\|\s*/, '').trim())
      .filter((line) => contentWords(line).length >= 3 && line.length <= 200),
  );
  const bestLine = lines.map((line) => ({ line, score: meets(line) })).sort((a, b) => b.score - a.score)[0];
  const strong = (scored[0]?.score ?? 0) >= 0.75;
  const newWords = bestLine ? contentWords(bestLine.line).filter((w) => !queryStems.has(stem(w))) : [];
  const refine = !strong && bestLine !== undefined && bestLine.score >= min && newWords.length > 0;
  return {
    refinedQuery: refine ? contentWords(bestLine.line).join(' ') : query,
    relevantIds: scored.map((p) => p.id),
    rankedIds: scored.map((p) => p.id),
    needsMore: refine,
    justification: refine
      ? `${scored.length} of ${passages.length} passages touch the question; searching with the words of "${bestLine.line.slice(0, 80)}".`
      : `${scored.length} of ${passages.length} passages answer the question.`,
  };
}
