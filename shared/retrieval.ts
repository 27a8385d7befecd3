/**
 * Ask the documents: what an answer looks like when it crosses a process
 * boundary (engine -> host -> window, engine -> CLI --json) and when it is
 * stored with a conversation.
 */
import { z } from 'zod';

/**
 * How questions are answered, saved with the app settings (`retrieval`) and
 * used by the Ask panel and `npm run ask` unless a question or a flag says
 * otherwise. The embedding model is the settings' `models.embed`.
 */
export const retrievalSettingsSchema = z
  .object({
    /** Relevance (0..1) a passage needs to be read: the larger of its vector similarity and the share of the question's words it holds. */
    threshold: z.number().min(0).max(1),
    /** Let the retrieval judge filter, re-rank and refine the query. */
    judge: z.boolean(),
    /** Retrieval rounds the judge may ask for. */
    maxRounds: z.number().int().min(1).max(5),
  })
  .strict();
export type RetrievalSettings = z.infer<typeof retrievalSettingsSchema>;

export const DEFAULT_RETRIEVAL_SETTINGS: RetrievalSettings = { threshold: 0.3, judge: true, maxRounds: 2 };

/** One [n] source of an answer: a passage of the selected context whose quoted words were found in the document. */
export interface AskCitation {
  /** The number used in the answer text: [n]. */
  n: number;
  documentId: number;
  documentName: string;
  /** The page of the quoted words (grounded offset). */
  page: number;
  /** Section title path of the passage (root first). */
  section: string[];
  /** The words quoted from the source, as the model gave them. */
  quote: string;
  /** Canonical-text offsets of the quoted words: what the viewer highlights. */
  start: number;
  end: number;
  /** The cited passage: a leaf chunk of the current tree, or a merged finding. */
  kind: 'chunk' | 'finding';
  treeId: number | null;
  nodeIndex: number | null;
  mergedFindingId: number | null;
}

/** A citation the model gave that did not survive the checks; kept so the UI can say why the answer is marked. */
export interface DroppedCitation {
  n: number;
  quote: string;
  reason: 'not-in-context' | 'quote-not-found';
}

/** One round of the retrieval judge, as the user can expand it. */
export interface AskJudgeStep {
  round: number;
  /** The query this round retrieved with (the question, then the judge's refined query). */
  query: string;
  candidates: number;
  source: 'llm' | 'cached' | 'fallback' | 'disabled';
  refinedQuery: string | null;
  /** Titles of the passages the judge kept, best first. */
  kept: string[];
  needsMore: boolean;
  justification: string;
  fallbackReason: string | null;
  /** The passages this round kept, best first, with where they are and how the search scored them. */
  passages?: AskPassage[];
}

/** A passage a round kept: which document and pages, its index ID, and its search scores. */
export interface AskPassage {
  /** The passage's ID in the search index. */
  unitId: number;
  kind: 'chunk' | 'finding';
  documentId: number;
  documentName: string;
  pageStart: number;
  pageEnd: number;
  title: string;
  /** The merged finding a finding passage stands for. */
  mergedFindingId: number | null;
  /** Fused rank score of the search (reciprocal rank fusion). */
  score: number;
  /** 0..1: the larger of vector similarity and the share of the question's words present. */
  relevance: number;
}

export interface AskAnswer {
  question: string;
  /** The answer with [n] markers; markers of dropped citations are removed. */
  text: string;
  /** True when the documents (as retrieved) do not hold the answer. */
  notFound: boolean;
  citations: AskCitation[];
  dropped: DroppedCitation[];
  /** Some citation was dropped: the answer must be read with care. */
  marked: boolean;
  /**
   * An answer (not "not in the documents") with no citation left after the checks: nothing in it could be found
   * in the documents, so it is shown as unverified, never like a grounded answer.
   */
  unverified?: boolean;
  /** For "find all ..." questions: retrieval is not exhaustive; run an extraction profile over every chunk instead. */
  exhaustiveNote: string | null;
  steps: AskJudgeStep[];
  /** Passages the answer was written from. */
  contextSize: number;
  model: string | null;
  embedModel: string | null;
}

/** What the host streams to the window while a question is answered. */
export type AskEvent =
  | { askId: string; type: 'step'; phase: 'index' | 'retrieve' | 'judge' | 'answer'; message: string; step?: AskJudgeStep }
  /** The answer text so far, while the model writes it (its citations are not checked yet). */
  | { askId: string; type: 'partial'; text: string }
  | { askId: string; type: 'answer'; answer: AskAnswer; conversationId: number }
  | { askId: string; type: 'failed'; error: { code: string; message: string } };

export interface ConversationSummary {
  id: number;
  scope: 'library' | 'document';
  documentId: number | null;
  title: string;
  messageCount: number;
  updatedAt: string;
}

export interface ConversationMessage {
  id: number;
  role: 'user' | 'assistant';
  text: string;
  answer: AskAnswer | null;
  createdAt: string;
}

/** A stored conversation with every message: what `conversations.get` returns and what reports export. */
export interface StoredConversation {
  summary: ConversationSummary;
  messages: ConversationMessage[];
}

/** Longest question Ask takes (the app's form, the CLI and the engine): longer ones are refused with what to do. */
export const MAX_QUESTION_CHARS = 4000;

/** The sentence shown with an answer that has no verified citation (app, CLI, exported conversations). */
export const UNVERIFIED_TEXT =
  'Unverified: none of the places this answer cites could be found in the documents, so read it as the model’s words, not the documents’.';

/**
 * The [n] citation markers of an answer, with where they stand, skipping any inside code (`msg[0]`) or inside
 * a quotation ("…", “…”): there brackets are the document's own text, not a reference to a passage.
 */
export function citationMarkers(text: string): { n: number; index: number; length: number }[] {
  const markers: { n: number; index: number; length: number }[] = [];
  let inCode = false;
  let inQuote: string | null = null;
  const closing: Record<string, string> = { '"': '"', '“': '”', '«': '»' };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '`') {
      inCode = !inCode;
      continue;
    }
    if (inCode) continue;
    if (inQuote !== null) {
      if (ch === inQuote) inQuote = null;
      continue;
    }
    if (closing[ch]) {
      // A quotation opens only where a closing mark follows; a stray mark leaves the rest of the answer readable.
      if (text.indexOf(closing[ch]!, i + 1) > 0) inQuote = closing[ch]!;
      continue;
    }
    if (ch !== '[') continue;
    const m = /^\[(\d{1,3})\]/.exec(text.slice(i));
    if (!m) continue;
    markers.push({ n: Number(m[1]), index: i, length: m[0].length });
    i += m[0].length - 1;
  }
  return markers;
}
