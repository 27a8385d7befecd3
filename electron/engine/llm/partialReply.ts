/**
 * Reading a JSON reply that may be cut anywhere (done_reason "length"). A cut reply costs the model as much time as
 * a whole one; what it wrote completely before the cut is as good as in a whole reply. Callers that ask for a list
 * (extraction's findings, the tree split's chapters) keep its complete entries and ask again from after the last
 * one instead of throwing the reply away.
 *
 * The reader scans the text with string and escape awareness; it does not need the reply to be valid JSON past the
 * last complete entry. Each complete entry is parsed with JSON.parse; the caller checks its shape.
 */

/** One complete entry of a list: its parsed value, or `parsed: false` when the complete text is not valid JSON. */
export type ListEntry = { parsed: true; value: unknown } | { parsed: false };

export interface PartialList {
  /** Every entry written completely (objects and strings), in reply order. */
  entries: ListEntry[];
  /** Where the list's value starts ("[") in the unfenced text, or -1 when the key was not written. */
  listAt: number;
  /** Just past the list's "]", or -1 when the list was cut (or not written). */
  listEnd: number;
  /** The reply without a leading Markdown code fence: the text `listAt` and `listEnd` point into. */
  text: string;
}

/** The reply without the leading ```json fence some models write around JSON. */
export function unfenced(content: string): string {
  return content.replace(/^\s*```(?:json)?\s*/i, '');
}

/** Where the value of `"key":` starts (its first non-space character), outside strings, or -1. */
export function valueStart(text: string, key: string, from = 0): number {
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

/** A complete JSON string at `at` ("..." with its closing quote), or null when the text ends inside it. */
export function completeString(text: string, at: number): string | null {
  const m = /^"((?:[^"\\]|\\.)*)"/.exec(text.slice(at));
  return m ? m[0] : null;
}

function parsedEntry(json: string): ListEntry {
  try {
    return { parsed: true, value: JSON.parse(json) as unknown };
  } catch {
    return { parsed: false };
  }
}

/** The complete entries of the list under `"key":` (objects and strings), stopping at the cut or the list's end. */
export function completeListEntries(content: string, key: string): PartialList {
  const text = unfenced(content);
  const out: PartialList = { entries: [], listAt: valueStart(text, key), listEnd: -1, text };
  if (out.listAt < 0 || text[out.listAt] !== '[') return out;
  let i = out.listAt + 1;
  for (;;) {
    while (i < text.length && /[\s,]/.test(text[i]!)) i++;
    if (i >= text.length) break;
    if (text[i] === ']') {
      out.listEnd = i + 1;
      break;
    }
    if (text[i] === '"') {
      const written = completeString(text, i);
      if (written === null) break;
      out.entries.push(parsedEntry(written));
      i += written.length;
      continue;
    }
    if (text[i] !== '{') break;
    const end = objectEnd(text, i);
    if (end < 0) break;
    out.entries.push(parsedEntry(text.slice(i, end)));
    i = end;
  }
  return out;
}
