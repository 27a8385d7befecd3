/**
 * A tolerant reader of extraction replies that may be cut anywhere (done_reason "length"): every entry written
 * completely before the cut is kept (a finding object, or a line for a finding whose ID the text prints), the one
 * being written when the reply stopped is not. A cut reply costs the model the same time as a whole one, so
 * throwing it away (and asking again with twice the limit) wastes all of it; reading what is complete lets
 * extraction continue after the last complete finding instead.
 *
 * The list is read by llm/partialReply.ts (string and escape aware, valid JSON not needed past the last complete
 * entry); each complete object is checked against the finding schema, and one that fails the check is counted
 * (never passed on as a finding).
 */
import type { z } from 'zod';
import { completeListEntries, completeString, valueStart } from '../llm';
import { quotedFindingSchema } from './prompts';

/** A finding written in full, with its quote. */
export type ReplyFinding = z.infer<typeof quotedFindingSchema>;
/** An entry of the reply's findings list: a finding in full, or one line for a finding whose ID the text prints (printedEntries.ts). */
export type ReplyEntry = ReplyFinding | string;

export interface PartialReply {
  /** The entries written completely (findings in full, and lines), in reply order. */
  findings: ReplyEntry[];
  /** Complete objects in the findings list that are not findings of the expected shape. */
  invalid: number;
  /** The summary, when the reply got as far as writing it whole. */
  summary: string | null;
  /** The RECORDED FINDINGS line numbers written completely (a number the cut may have shortened is left out). */
  recorded: number[];
}

const findingSchema = quotedFindingSchema;

export function parsePartialExtractionReply(content: string): PartialReply {
  const list = completeListEntries(content, 'findings');
  const { text, listAt, listEnd } = list;
  const out: PartialReply = { findings: [], invalid: 0, summary: null, recorded: [] };
  for (const entry of list.entries) {
    // A line for a finding whose ID the text prints, or a finding object of the expected shape.
    if (entry.parsed && typeof entry.value === 'string') {
      out.findings.push(entry.value);
      continue;
    }
    const checked = entry.parsed ? findingSchema.safeParse(entry.value) : undefined;
    if (checked?.success) out.findings.push(checked.data);
    else out.invalid++;
  }
  // The recorded numbers stand before the findings (the schema's order); never read from inside the list.
  const recordedAt = valueStart(text, 'recorded');
  if (recordedAt >= 0 && text[recordedAt] === '[' && (listAt < 0 || recordedAt < listAt || (listEnd >= 0 && recordedAt > listEnd))) {
    for (const m of text.slice(recordedAt + 1).matchAll(/\s*(\d+)\s*([,\]])|[^\s\d]/g)) {
      if (m[1] === undefined) break;
      out.recorded.push(Number(m[1]));
      if (m[2] === ']') break;
    }
  }
  // The summary may stand before or after the list; never read one from inside it.
  for (const from of [0, Math.max(0, listEnd)]) {
    const at = valueStart(text, 'summary', from);
    if (at < 0 || text[at] !== '"' || (listAt >= 0 && at > listAt && (listEnd < 0 || at < listEnd))) continue;
    const written = completeString(text, at);
    if (written === null) continue;
    try {
      out.summary = JSON.parse(written) as string;
    } catch {
      out.summary = null;
    }
    break;
  }
  return out;
}
