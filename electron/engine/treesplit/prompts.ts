/**
 * Prompts and reply schemas of the tree split. The fixed instructions come
 * first and stay byte-identical across calls (Ollama reuses their KV cache);
 * the per-call context (node, window, what failed last time) follows, and the
 * document view comes last, delimited as data.
 */
import { z } from 'zod';
import { promptText, type JsonPrompt } from '../llm';

/**
 * Only what the engine uses: the start line and a title. Output is the slow part of a local model (about 40
 * tokens/s), and a model that lists every heading must still fit its list in the reply.
 */
export const ChapterSchema = z.object({
  line: z.number().int(),
  title: z.string(),
});
export const SplitReplySchema = z.object({ chapters: z.array(ChapterSchema) });
export type SplitReply = z.infer<typeof SplitReplySchema>;

export const ReviewReplySchema = z.object({ passes: z.boolean(), comments: z.string() });
export type ReviewReply = z.infer<typeof ReviewReplySchema>;

export const SPLIT_INSTRUCTIONS = promptText`
  You split a document into its chapters (logical sections) for an audit tool.
  The text is shown as numbered lines "N|text". A long text is shown compactly: a line ending with "…" is only its beginning, and lines inside paragraphs may be left out; the numbers still count every line.
  Rules: chapter 1 starts at the first line shown; start lines strictly increase; use only line numbers that are shown; start chapters at headings or where a new topic begins, never inside a sentence.
  For each chapter give its start line and a short title (at most 8 words) taken from the text.
  Aim for about the number of chapters asked for; never copy or rewrite the text.
`;

export const REVIEW_INSTRUCTIONS = promptText`
  You review a proposed split of a document into chapters for an audit tool.
  For each proposed chapter you see its start line with the lines around it ("N|text"; ">" marks the start line).
  A split passes when every start is at a natural boundary (a heading or the start of a new topic, not inside a sentence or a paragraph) and the titles fit the text.
  Set passes to true or false; in comments say which chapters are wrong and why (empty when it passes).
`;

type StageInput = { context: string; view: string; documentId: number };

/** Split and review prompts differ only in instructions, reply schema and what the document view is called. */
function stagePrompt<T>(instructions: string, schema: z.ZodType<T>, label: string) {
  return (input: StageInput): JsonPrompt<T> => ({ instructions, schema, context: input.context, document: { id: input.documentId, label, text: input.view } });
}

export const splitPrompt = stagePrompt(SPLIT_INSTRUCTIONS, SplitReplySchema, 'numbered-lines');
export const reviewPrompt = stagePrompt(REVIEW_INSTRUCTIONS, ReviewReplySchema, 'proposed-starts');
