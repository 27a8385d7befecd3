/**
 * The answer: written by the model from the selected context only, with [n]
 * markers and, for every n, words quoted from passage n. Each citation is
 * then checked like a finding's evidence (printed/grounding.ts): the passage
 * must have been in the context and the quote must be found in that
 * passage's source text. A citation that fails is dropped, its marker
 * removed, and the answer marked.
 */
import { z } from 'zod';
import { citationMarkers, type AskCitation, type DroppedCitation } from '../../../shared/retrieval';
import { groundEvidence } from '../printed';
import { promptText } from '../llm';
import type { ContextEntry, DocumentSource } from './context';
import { renderEntry } from './context';

export const ANSWER_PROMPT_VERSION = 1;

export const AnswerReplySchema = z.object({
  answer: z.string().describe('the answer, with [n] after each statement taken from passage n'),
  notFound: z.boolean().describe('true when the passages do not contain the answer'),
  citations: z
    .array(z.object({ n: z.number().int(), quote: z.string().describe('words copied exactly from passage n') }))
    .describe('one entry per [n] used in the answer'),
});
export type AnswerReply = z.infer<typeof AnswerReplySchema>;

export const ANSWER_INSTRUCTIONS = promptText`
  You answer an auditor's question about their documents, using ONLY the numbered passages given.
  After each statement put the number of the passage it comes from, like [2].
  For every number you use, add a citation with a short quote (a few words to one sentence) copied exactly, word for word, from that passage.
  If the passages do not contain the answer, set notFound to true, say so in one sentence, and give no citations. Never answer from your own knowledge.
`;

export const NOT_FOUND_TEXT = 'Not in the documents: the passages found for this question do not answer it.';

export function renderContext(entries: readonly ContextEntry[]): string {
  return entries.map(renderEntry).join('\n\n');
}

export interface CheckedAnswer {
  text: string;
  notFound: boolean;
  citations: AskCitation[];
  dropped: DroppedCitation[];
  /** An answer with no citation left: nothing in it was found in the documents. */
  unverified: boolean;
}

/** Grounds every citation in its passage, drops the rest, and removes markers that no kept citation backs. */
export function checkAnswer(reply: AnswerReply, entries: readonly ContextEntry[], sources: (documentId: number) => DocumentSource): CheckedAnswer {
  const byN = new Map(entries.map((e) => [e.n, e]));
  const citations: AskCitation[] = [];
  const dropped: DroppedCitation[] = [];
  for (const c of reply.citations) {
    if (citations.some((k) => k.n === c.n)) continue;
    const entry = byN.get(c.n);
    if (!entry) {
      dropped.push({ n: c.n, quote: c.quote, reason: 'not-in-context' });
      continue;
    }
    const source = sources(entry.unit.documentId);
    const g = groundEvidence(source.text, source.pages, c.quote, { chunk: { start: entry.unit.start, end: entry.unit.end } });
    if (g.status !== 'grounded' || g.start === null || g.end === null || g.page === null) {
      dropped.push({ n: c.n, quote: c.quote, reason: 'quote-not-found' });
      continue;
    }
    citations.push({
      n: c.n,
      documentId: entry.unit.documentId,
      documentName: entry.documentName,
      page: g.page,
      section: entry.unit.path.length > 0 ? entry.unit.path : [entry.unit.title],
      quote: c.quote,
      start: g.start,
      end: g.end,
      kind: entry.unit.kind,
      treeId: entry.unit.treeId,
      nodeIndex: entry.unit.nodeIndex,
      mergedFindingId: entry.unit.mergedFindingId,
    });
  }
  const kept = new Set(citations.map((c) => c.n));
  // Markers without a verified citation behind them go, including ones the model never gave a quote for. Only
  // markers the answer uses count: brackets inside quoted code (`msg[0]`) or a quotation are the document's text.
  let text = '';
  let at = 0;
  for (const marker of citationMarkers(reply.answer)) {
    if (kept.has(marker.n)) continue;
    if (!dropped.some((d) => d.n === marker.n)) dropped.push({ n: marker.n, quote: '', reason: byN.has(marker.n) ? 'quote-not-found' : 'not-in-context' });
    const before = reply.answer.slice(at, marker.index);
    text += before.endsWith(' ') ? before.slice(0, -1) : before;
    at = marker.index + marker.length;
  }
  text = (text + reply.answer.slice(at)).trim();
  const notFound = reply.notFound || (citations.length === 0 && text === '');
  return { text: notFound ? NOT_FOUND_TEXT : text, notFound, citations, dropped, unverified: !notFound && citations.length === 0 };
}

/**
 * The "answer" string of a JSON reply still being streamed, decoded as far as
 * it goes, so the window can show the answer as it is written (the citations
 * come after it and are checked once the reply is complete).
 */
export function partialAnswerText(jsonSoFar: string): string | null {
  const m = /"answer"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(jsonSoFar);
  if (!m) return null;
  // Drop an escape cut in half at the end of the stream.
  const body = m[1]!.replace(/\\u[0-9a-fA-F]{0,3}$|\\$/, '');
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return null;
  }
}

const FIND_ALL =
  /^\s*(please\s+)?(find|list|show|give|name|enumerate|identify)\s+(me\s+)?(all|every|each)\b|\b(all|every)\s+(the\s+)?(findings|issues|problems|instances|occurrences|mentions|places|vulnerabilities)\b/i;

export function isFindAllQuestion(question: string): boolean {
  return FIND_ALL.test(question);
}

export const EXHAUSTIVE_NOTE =
  'Retrieval reads the passages most related to the question, not every page, so this list may be incomplete. ' +
  'For a complete answer, run an extraction profile over every chunk instead ("Analyse every chunk" under this answer in the app; `npm run ask` prints the `npm run analyze` command).';
