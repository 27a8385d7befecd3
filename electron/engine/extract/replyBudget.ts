/**
 * num_predict for the extraction and summary calls, planned from what the reply can hold.
 *
 * num_predict is a limit, not a cost: a reply that ends early costs only what it wrote. But a model that loops
 * (repeats a table row until it is stopped, see ../shared/docs/model-behaviours.md) writes up to the limit, at about
 * 40 tokens/s, so a one-leaf call of 200 tokens should not get the room of a 4,000-token unit, and a summary asked
 * for "at most 8 sentences" should not get 2,048 tokens. Each call gets an upper bound of its honest reply, with a
 * floor and a cap. A reply that still does not fit is cut at the limit and handled as before (llm/chat.ts retries it
 * once with a larger limit; extraction then splits the text at a leaf boundary): never dropped.
 */

/**
 * The densest text an audit report has is its summary table: one finding per row (ID, title, severity, status),
 * about this many source tokens a row. A unit of N tokens therefore holds at most about N / this many findings.
 */
export const SOURCE_TOKENS_PER_FINDING = 30;
/**
 * One finding of the compact extraction reply ({id, type, title, severity, description of at most 8 words, quote of
 * at most 12 words, page}) with its JSON punctuation, written by a model that overshoots the word limits by a fifth:
 * measured on the corpus bench, about 100 tokens for prose, up to 150 for quotes with code paths.
 */
export const REPLY_TOKENS_PER_FINDING = 120;
/**
 * One line for a finding whose ID the text prints ("PBI-10014 | defect | Medium | <title>", printedEntries.ts),
 * pretty-printed in its list: measured on the dense bench, about 30 tokens with a 10-word title, 45 with a 20-word one.
 */
export const PRINTED_LINE_TOKENS = 40;
/** The reply's frame: `{"findings": [...], "summary": "<one sentence>"}`. */
export const REPLY_FRAME_TOKENS = 100;
/** No extraction call gets less: a short leaf can still carry several findings (a table's last rows). */
export const MIN_EXTRACTION_REPLY_TOKENS = 512;

/**
 * num_predict for an extraction call carrying `textTokens` tokens of document text: room for every finding the text
 * can hold at compact reply size, or for the findings the rules expect in it (the distinct IDs printed in it) when
 * that is more, at least MIN_EXTRACTION_REPLY_TOKENS, at most `cap` (the reply room the run's num_ctx was planned
 * with).
 */
export function planExtractionReplyTokens(textTokens: number, cap: number, expectedFindings = 0): number {
  const mostFindings = Math.max(Math.ceil(Math.max(0, textTokens) / SOURCE_TOKENS_PER_FINDING), expectedFindings);
  const upperBound = REPLY_FRAME_TOKENS + mostFindings * REPLY_TOKENS_PER_FINDING;
  return Math.max(Math.min(MIN_EXTRACTION_REPLY_TOKENS, cap), Math.min(upperBound, cap));
}
