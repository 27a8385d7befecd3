/**
 * One schema-constrained question to the model, the way every engine stage
 * asks it: the fixed instructions followed by the reply's shape (described
 * from the same zod schema Ollama's `format` enforces and the reply is
 * validated against), then the per-call context, then the document last and
 * delimited as data (buildMessages). Stages give what differs (instructions,
 * schema, context, document, the call's purpose and limits); the layout that
 * the prefix cache and prompt-injection safety rely on is written once, here.
 */
import type { z } from 'zod';
import type { LlmCallRecord } from './store';
import type { ChatRequestBase } from './chat';
import type { LlmClient } from './client';
import { buildMessages, type BuildMessagesInput } from './prompt';
import { describeSchema } from './schema';
import type { ChatMessage } from './types';

export interface JsonPrompt<T> {
  /** Fixed instructions of this kind of call: keep them byte-identical across calls (Ollama reuses their KV cache). */
  instructions: string;
  /** The reply's shape: described to the model, enforced by Ollama, validated on return. */
  schema: z.ZodType<T>;
  /** A fixed task line before the document. */
  task?: string;
  /** What varies per call (the question, measured facts, a window header), before the document. */
  context?: string;
  document: BuildMessagesInput['document'];
}

/** How the call is made and logged: everything of a chat request except the messages and the schema. */
export type JsonCallOptions = Omit<ChatRequestBase, 'system' | 'user' | 'messages'>;

/** The system and user messages of a prompt (also what estimates and tests read). */
export function jsonPromptMessages<T>(prompt: JsonPrompt<T>): ChatMessage[] {
  return buildMessages({
    instructions: prompt.instructions,
    schemaDescription: describeSchema(prompt.schema),
    ...(prompt.task !== undefined ? { task: prompt.task } : {}),
    ...(prompt.context !== undefined ? { context: prompt.context } : {}),
    document: prompt.document,
  });
}

/**
 * Asks the prompt and returns the validated reply (retries, cache, call log and errors as chatJson does them).
 * With `acceptCutReply`, a reply cut at the length limit comes back with `cut: true` and its raw content only.
 */
export function chatJsonPrompt<T>(
  llm: Pick<LlmClient, 'chatJson'>,
  prompt: JsonPrompt<T>,
  call: JsonCallOptions,
): Promise<{ value: T; content: string; call: LlmCallRecord; cut?: boolean }> {
  return llm.chatJson({ ...call, schema: prompt.schema, messages: jsonPromptMessages(prompt) });
}

/**
 * Fixed instructions written as an indented block, one rule per line: the
 * text the model reads is exactly those lines joined by line breaks (the
 * indentation and the block's first and last line break are not part of it),
 * so the instructions stay byte-identical across calls and across edits of
 * the code around them.
 */
export function promptText(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  const text = strings.reduce((out, part, i) => out + part + (i < values.length ? String(values[i]) : ''), '');
  return text
    .replace(/^\n/, '')
    .replace(/\n\s*$/, '')
    .split('\n')
    .map((line) => line.trim())
    .join('\n');
}
