/**
 * The summary stage's prompts (map: condense consecutive parts; reduce: the final summary) and the reply room each
 * call is planned with: the instructions state the sentence cap and num_predict is planned from it.
 */
import { buildMessages, promptText, type ChatMessage } from '../llm';

/** How long a summary call's reply may be; the instructions say it and num_predict is planned from it (planSummaryReplyTokens). */
export const SUMMARY_MAP_SENTENCES = 8;
export const SUMMARY_REDUCE_SENTENCES = 12;

export const SUMMARY_MAP_INSTRUCTIONS = promptText`
  You condense consecutive partial summaries of one document into one shorter summary.
  Keep every finding, problem, risk, identifier, figure and conclusion they mention; keep their order; drop repetition.
  Write plain prose, at most ${SUMMARY_MAP_SENTENCES} sentences. Do not add anything that is not in the parts.
`;

export const SUMMARY_REDUCE_INSTRUCTIONS = promptText`
  You write the final summary of a document from consecutive partial summaries that together cover the whole document in order.
  Say what the document is, its main findings and problems (with their identifiers), risks and conclusions.
  Write plain prose, at most ${SUMMARY_REDUCE_SENTENCES} sentences. Do not add anything that is not in the parts.
`;

export const SUMMARY_TASK = 'Summarise the parts in the DOCUMENT block below.';

export function renderSummaryParts(parts: readonly string[]): string {
  return parts.map((p, i) => `[part ${i + 1}]\n${p.trim()}`).join('\n\n');
}

export function buildSummaryMessages(kind: 'map' | 'reduce', parts: readonly string[], label: string): ChatMessage[] {
  return buildMessages({
    instructions: kind === 'map' ? SUMMARY_MAP_INSTRUCTIONS : SUMMARY_REDUCE_INSTRUCTIONS,
    task: SUMMARY_TASK,
    document: { id: label, role: 'summaries', text: renderSummaryParts(parts) },
  });
}

/**
 * A sentence of summary prose is about 30 tokens; a summary asked for "at most N sentences" gets room for N sentences
 * of 40 (long sentences, identifiers) and a floor of 256.
 */
export function planSummaryReplyTokens(maxSentences: number): number {
  return Math.max(256, maxSentences * 40);
}
