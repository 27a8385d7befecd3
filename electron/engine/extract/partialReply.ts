/**
 * A tolerant reader of extraction replies that may be cut anywhere (done_reason "length"): every entry written
 * completely before the cut is kept (a finding object, or a line for a finding whose ID the text prints), the one
 * being written when the reply stopped is not. A cut reply costs the model the same time as a whole one, so
 * throwing it away (and asking again with twice the limit) wastes all of it; reading what is complete lets
 * extraction continue after the last complete finding instead.
 *
 * The reader scans the JSON text with string and escape awareness; it does not need the reply to be valid JSON
 * past the last complete finding. Each complete object is parsed with JSON.parse and checked against the finding
 * schema; an object that fails the check is counted (never passed on as a finding).
 */
import type { z } from 'zod';
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

/** Where the value of `"key":` starts (its first non-space character), outside strings, or -1. */
function valueStart(text: string, key: string, from = 0): number {
  const re = new RegExp(`"${key}"\\s*:\\s*`, 'g');
  re.lastIndex = from;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (!insideString(text, m.index)) return m.index + m[0].length;
  }
  return -1;
}

/** Whether offset `at` lies inside a JSON string (counting unescaped quotes before it). */
function insideString(text: string, at: number): boolean {
  let inside = false;
  for (let i = 0; i < at; i++) {
    const c = text[i];
    if (inside && c === '\\') i++;
    else if (c === '"') inside = !inside;
  }
  return inside;
}

/** The end (exclusive) of the JSON object starting at `open` (a "{"), or -1 when the text ends first. */
function objectEnd(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

export function parsePartialExtractionReply(content: string): PartialReply {
  const text = content.replace(/^\s*```(?:json)?\s*/i, '');
  const out: PartialReply = { findings: [], invalid: 0, summary: null, recorded: [] };
  let listEnd = -1;
  const listAt = valueStart(text, 'findings');
  if (listAt >= 0 && text[listAt] === '[') {
    let i = listAt + 1;
    for (;;) {
      while (i < text.length && /[\s,]/.test(text[i]!)) i++;
      if (i >= text.length) break;
      if (text[i] === ']') {
        listEnd = i + 1;
        break;
      }
      if (text[i] === '"') {
        // A line for a finding whose ID the text prints: kept when its closing quote was written.
        const m = /^"((?:[^"\\]|\\.)*)"/.exec(text.slice(i));
        if (!m) break;
        try {
          out.findings.push(JSON.parse(m[0]) as string);
        } catch {
          out.invalid++;
        }
        i += m[0].length;
        continue;
      }
      if (text[i] !== '{') break;
      const end = objectEnd(text, i);
      if (end < 0) break;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text.slice(i, end));
      } catch {
        parsed = undefined;
      }
      const checked = findingSchema.safeParse(parsed);
      if (checked.success) out.findings.push(checked.data);
      else out.invalid++;
      i = end;
    }
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
    const m = /^"((?:[^"\\]|\\.)*)"/.exec(text.slice(at));
    if (!m) continue;
    try {
      out.summary = JSON.parse(`"${m[1]}"`) as string;
    } catch {
      out.summary = null;
    }
    break;
  }
  return out;
}
