/**
 * Reading the status a later report states for a finding, by rules, in the
 * layouts audit and fix-review reports use:
 *
 *  - a labelled line in the finding's section: "Status: Resolved" (Oak,
 *    Certora, Hacken), "Fix Status: Partially Resolved", a "Status" field
 *    ("Resolved: See Resolution", Sigma Prime), "Resolution" or "Remediation"
 *    with the words on the next line (ConsenSys, Zellic: "This issue has been
 *    acknowledged by ..."), "Remediation Plan: SOLVED: ..." (Halborn),
 *    "Update: Resolved in pull request #42" (OpenZeppelin, Quantstamp),
 *    "Alleviation" (CertiK), or any short label followed by a status word
 *    ("Client: Fixed in commit 3a4b1c." (Cyfrin), "Morpho: Acknowledged."
 *    (Spearbit), "Team response: Risk accepted");
 *  - a row of a summary table that names the finding (its ID, or its number and
 *    title) and ends with a status word ("1  Attackers could mint ...  Resolved").
 *
 * The status shown is the document's own words (the matched text), with the
 * line it was read from as the quote and its page: the tool never restates it.
 * A finding's section runs from any of its anchors (its printed ID, the start of
 * its title, its evidence) to the next anchor of another finding, at most
 * SECTION_CHARS: a status stated under the next finding is never taken.
 */
import type { StatedStatus, StatusCategory } from '../../../shared/compare';

/**
 * How far past a finding's anchor its section may run when no other finding is named before: about two pages,
 * since firms print the status after the recommendation and its code (a Spearbit or Oak section runs 3,500-4,000
 * characters from its heading to its status). A section still ends where another finding is named.
 */
export const SECTION_CHARS = 6000;

/** Status words, longest first (so "Partially Resolved" is not read as "Resolved"). */
const STATUS_WORDS = [
  String.raw`partially\s+(?:resolved|fixed|solved|addressed|mitigated|remediated)`,
  String.raw`not\s+(?:been\s+|yet\s+)?(?:fixed|resolved|solved|addressed|remediated)`,
  // A fix said to be in place, worded in a sentence ("a fix was implemented in commit 5bb2", "created a fix in pull
  // request #17"; Zellic). A fix announced for later ("a fix will be released", "may be implemented") is no status.
  String.raw`(?:a\s+)?fix\s+(?:was|has\s+been)\s+(?:implemented|applied|merged|deployed)`,
  String.raw`(?:created|implemented|applied|merged|deployed)\s+a\s+fix`,
  String.raw`risk\s+accepted`,
  String.raw`accepted\s+risk`,
  String.raw`won['’]t\s+fix`,
  String.raw`will\s+not\s+(?:be\s+)?fix(?:ed)?`,
  'unresolved',
  'unfixed',
  'resolved',
  'solved',
  'fixed',
  'remediated',
  'mitigated',
  'addressed',
  'acknowledged',
  'undetermined',
  'closed',
  'open',
  'pending',
];
/** Words too common in prose to count after an arbitrary label ("Impact: Open positions..."): only after a status label or at a table row's end. */
const LABEL_ONLY_WORDS = new Set(['closed', 'open', 'pending', 'addressed']);

const STATUS_ALL_RE = new RegExp(String.raw`\b(?:${STATUS_WORDS.join('|')})\b`, 'gi');
const STATUS_AT_END_RE = new RegExp(String.raw`\b(?:${STATUS_WORDS.join('|')})\s*[.)]?\s*$`, 'i');
/** Labels that announce a status; the words may follow on the same line or the next. */
const STRONG_LABEL_RE = /^[ \t]*(?:fix(?:\s+review)?\s+)?(?:status|resolution|remediation\s+status)[ \t]*[:\-–—]?[ \t]*(.*)$/gim;
/**
 * Labels under which a status is often worded in a sentence ("Fix Analysis: This issue has been resolved.").
 * The label is followed by a colon or dash, or stands alone on its line: a recommendation that starts with
 * the same word ("Update the fee so that closed positions ...") is no label.
 */
const WEAK_LABEL_RE =
  /^[ \t]*(?:fix\s+analysis|remediation(?:\s+plan)?|alleviation|(?:client|team|developer)?(?:['’]s)?\s*(?:response|comment(?:ary)?)|update)[ \t]*(?:[:\-–—][ \t]*(.*))?$/gim;
/** After an arbitrary label, a status word may follow a short subject ("Acme: All issues have been fixed in ..."). */
const HAS_BEEN_RE = /^[^.;:]{0,40}\b(?:has|have)\s+(?:now\s+)?been\s+$/i;
/** Any short label followed at once by a status word ("Client: Acknowledged."). */
const ANY_LABEL_RE = /^[ \t]*[\p{L}][\p{L} .'’-]{0,30}:[ \t]*(.*)$/gimu;

/**
 * The status a text words, as printed, and where it stands; null when there is none. The first status word,
 * except an acknowledgement followed in the same sentence by what was done ("This issue has been acknowledged
 * by Acme, and a fix was implemented in commit 5bb2"; "Acknowledged and fixed in PR 12"): that is the status.
 */
export function statusWordIn(text: string): { text: string; index: number } | null {
  const found = [...text.matchAll(STATUS_ALL_RE)];
  const first = found[0];
  if (!first) return null;
  let chosen = first;
  if (/^acknowledged$/i.test(first[0])) {
    const sentenceEnd = /[.;!?](?:\s|$)/.exec(text.slice(first.index));
    const limit = sentenceEnd ? first.index + sentenceEnd.index : text.length;
    const done = found.find((m) => m.index > first.index && m.index < limit && ['resolved', 'partial'].includes(statusCategory(m[0])));
    if (done) chosen = done;
  }
  return { text: asPrinted(chosen[0]), index: chosen.index };
}

/** A line's words without the status a table row ends with ("Oracle price can be stale  Resolved" -> "Oracle price can be stale"). */
export function withoutTrailingStatus(text: string): string {
  return text.replace(STATUS_AT_END_RE, '').trimEnd();
}

export function statusCategory(text: string): StatusCategory {
  const t = text.toLowerCase().replace(/\s+/g, ' ');
  if (t.startsWith('partially')) return 'partial';
  if (/^(not |unresolved|unfixed|open|pending)/.test(t)) return 'open';
  if (/risk accepted|accepted risk|won['’]t fix|will not|acknowledged/.test(t)) return 'accepted';
  if (/^(resolved|solved|fixed|remediated|mitigated|addressed|closed)/.test(t) || /\bfix\b/.test(t)) return 'resolved';
  return 'unknown';
}

/** The status word as the document prints it, whitespace collapsed ("Partially\nResolved" -> "Partially Resolved"). */
function asPrinted(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export interface StatusTextView {
  text: string;
  pageAt(offset: number): number;
}

export interface FindingAnchors {
  /** Offsets where the finding is named or quoted in the later document (its ID, its title, its evidence). */
  starts: number[];
  /** Offsets where the finding's title starts (table rows), each with the title's end there. */
  titleSpans: { start: number; end: number }[];
}

function lineAround(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const nl = text.indexOf('\n', offset);
  return { start, end: nl === -1 ? text.length : nl };
}

function statusFrom(view: StatusTextView, wordStart: number, word: string, lineStart: number, lineEnd: number, source: StatedStatus['source']): StatedStatus {
  const printed = asPrinted(word);
  return {
    text: printed,
    category: statusCategory(printed),
    quote: asPrinted(view.text.slice(lineStart, lineEnd)),
    page: view.pageAt(wordStart),
    start: lineStart,
    end: lineEnd,
    source,
  };
}

/** Every labelled status line in text[from, to) for one kind of label, in order. */
function labelledStatuses(view: StatusTextView, from: number, to: number, re: RegExp, strict: boolean): StatedStatus[] {
  const region = view.text.slice(from, to);
  const out: StatedStatus[] = [];
  re.lastIndex = 0;
  for (const m of region.matchAll(re)) {
    const lineStart = from + m.index;
    let rest = m[1] ?? '';
    let restStart = lineStart + m[0].length - rest.length;
    let lineEnd = lineStart + m[0].length;
    if (rest.trim() === '' && !strict) {
      // "Resolution" alone on its line: the words are on the next non-empty line.
      const next = /\n[ \t]*(\S[^\n]*)/y;
      next.lastIndex = lineEnd;
      const n = next.exec(view.text);
      if (!n || n.index + n[0].length > to) continue;
      rest = n[1]!;
      restStart = n.index + n[0].length - rest.length;
      lineEnd = n.index + n[0].length;
    }
    // The status is the first words after the label (a free sentence may name it a little later).
    const head = rest.slice(0, strict ? 40 : 200);
    const w = statusWordIn(head);
    if (!w) continue;
    if (strict && ((w.index > 0 && !HAS_BEEN_RE.test(head.slice(0, w.index))) || LABEL_ONLY_WORDS.has(w.text.toLowerCase()))) continue;
    out.push(statusFrom(view, restStart + w.index, w.text, lineStart, lineEnd, 'section-line'));
  }
  return out;
}

/** A table row: the line holding the anchor ends with a status word, after the finding's title when the title is on it. */
function tableRowStatus(view: StatusTextView, anchor: number, titleEnd: number | null): StatedStatus | null {
  const line = lineAround(view.text, anchor);
  const after = titleEnd !== null && titleEnd <= line.end ? titleEnd : anchor;
  const tail = view.text.slice(after, line.end);
  const w = STATUS_AT_END_RE.exec(tail);
  if (!w) return null;
  const word = w[0].replace(/[\s.)]+$/, '');
  return statusFrom(view, after + w.index, word, line.start, line.end, 'table-row');
}

/**
 * How far above a finding's ID a "Status:" line of its header block may stand. Only for an ID printed as a
 * header field ("Finding ID: TOB-X-1"): a header block prints the status a few lines above it.
 */
export const HEADER_CHARS = 800;

/**
 * The status the later document states for one finding, or null. `boundaries` are the anchors of every
 * other finding (sorted): a section ends at the first one after its start, and a status line above an
 * anchor counts only when no other finding is named between them.
 */
export function readStatedStatus(view: StatusTextView, anchors: FindingAnchors, boundaries: readonly number[]): StatedStatus | null {
  const starts = [...new Set([...anchors.starts, ...anchors.titleSpans.map((s) => s.start)])].sort((a, b) => a - b);
  let best: { strength: number; distance: number; status: StatedStatus } | null = null;
  const consider = (strength: number, distance: number, status: StatedStatus | undefined) => {
    if (status && (!best || strength < best.strength || (strength === best.strength && distance < best.distance))) best = { strength, distance, status };
  };
  for (const start of starts) {
    const line = lineAround(view.text, start);
    const next = boundaries.find((b) => b > start);
    const sectionEnd = Math.min(next ?? view.text.length, start + SECTION_CHARS);
    const previous = [...boundaries].reverse().find((b) => b < line.start);
    const headerStart = Math.max(previous === undefined ? 0 : lineAround(view.text, previous).end, line.start - HEADER_CHARS);
    const below = labelledStatuses(view, line.start, sectionEnd, STRONG_LABEL_RE, false)[0];
    consider(0, below ? below.start - start : 0, below);
    const isHeaderField = /:\s*$/.test(view.text.slice(line.start, start));
    const above = isHeaderField ? labelledStatuses(view, headerStart, line.start, STRONG_LABEL_RE, false).at(-1) : undefined;
    consider(0, above ? start - above.start : 0, above);
    const worded =
      labelledStatuses(view, line.start, sectionEnd, WEAK_LABEL_RE, false)[0] ?? labelledStatuses(view, line.start, sectionEnd, ANY_LABEL_RE, true)[0];
    consider(1, worded ? worded.start - start : 0, worded);
  }
  if (best) return (best as { status: StatedStatus }).status;
  for (const span of anchors.titleSpans) {
    const found = tableRowStatus(view, span.start, span.end);
    if (found) return found;
  }
  for (const start of anchors.starts) {
    const found = tableRowStatus(view, start, null);
    if (found) return found;
  }
  return null;
}
