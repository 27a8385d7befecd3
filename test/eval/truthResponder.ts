/**
 * A simulator responder driven by truth files: for each extraction request it reports the truth findings
 * whose title (or printed ID) appears in the chunk, the way a good model would (every sighting: summary-table
 * row, table of contents, detailed heading, a figure or cross-reference that names the ID), with verbatim
 * quotes and the page marker above them. Switchable modes make it answer the way real local models do
 * (../shared/docs/model-behaviours.md): each mode has a test that the pipeline's result stays correct.
 *
 * The responder never reads the truth page numbers to decide what to report: only the chunk text. Truth
 * pages are used to word the detailed sighting's description and by the scoring, never to help the merge.
 */
import { readFileSync } from 'node:fs';
import { normalizeForMatch, comparableId } from '../../electron/engine/printed';
import { promptBlocks } from '../fixtures/plantedFindings';
import { CORPUS_DIR, corpusFile, wholeCorpusDocuments } from '../helpers/corpus';
import { fnv1a as hash, minimalInstance, schemaResponder, type Responder, type SimChatRequest, type SimReply } from '../ollama-sim/index';

export const MODEL_MODES = [
  /** A finding without a printed ID gets the model's own per-chunk numbering ("F-1", "F-2", ... restarting in every chunk). */
  'invented-ids',
  /** A finding without a printed ID gets null. With invented-ids also on, chunks alternate between the two. */
  'null-ids',
  /** A finding without a printed ID gets the number printed before its title, else a bare per-chunk number ("1", "2"). */
  'section-number-ids',
  /** Printed IDs come back reformatted: zero padding dropped, lower case, spaces, or the title glued on. */
  'reformatted-ids',
  /** Quotes are near-verbatim: invisible characters dropped, whitespace collapsed, quotes curled, a small word changed. */
  'paraphrased-quotes',
  /** Quotes near a page end run on across the page break (the marker dropped, the two lines joined). */
  'page-break-quotes',
  /**
   * Sightings besides the detailed section are reported too: summary-table rows, contents lines, ID references.
   * Asked to report each finding once (the extraction rule REPORT_ONCE_RULE), the model reports it once per call:
   * from its detailed section when the call shows it, else from the first line that names it by title; a reference
   * by ID alone is then not reported, unless a follow-up call names that ID.
   */
  'summary-and-detail',
  /** Every sighting is reported, whatever the instructions say: rows, contents lines, each ID reference, the detailed section. */
  'every-occurrence',
  /** Some chunks without any finding get an invented finding whose quote is not in the text. */
  'invented-finding',
  /** One finding per document is never reported. */
  'missed-finding',
  /** About 15% of each document's findings are never reported, as small models skip findings in long replies. */
  'skips-findings',
  /** The first finding of a reply is repeated in the same reply. */
  'duplicates-in-reply',
  /** Severity words off the profile's scale ("Moderate", "Very High", "Info", "Blocker"). */
  'off-scale-severity',
  /**
   * Near-identical siblings (titles one or a few words apart, "Unused errors / constants can be removed"): the
   * model describes both alike (one description for the pair), and gives the later sibling's summary-table and
   * contents rows the earlier sibling's title (the same title); its detailed section and the places that cite its
   * ID keep its own title.
   */
  'siblings-same-title',
  /**
   * Each finding reported once per request, at its first occurrence in the text shown: a finding printed as a
   * summary-table row (or contents line) and as a detailed section in the same unit is reported once, quoting the
   * row, with the row's page, never the detail page.
   */
  'once-per-unit-first-occurrence',
  // Dense documents (issue 25): replies as long as real models write them, lists ended early.
  /** Pretty-printed JSON, quote and description at their word limits: about 100 output tokens a finding, cut on dense units. */
  'verbose-replies',
  /** Ends its list normally (done_reason "stop") after `stopAfter` findings (default 20) in one reply; IDs named in the request first. */
  'stops-after-n',
  /**
   * Writes a finding the prompt's RECORDED FINDINGS block names in full, as any other, instead of giving its line
   * number: a model that does not take up that instruction (it costs time, never a finding).
   */
  'ignores-recorded',
  /**
   * Writes a finding whose ID the text prints as a full entry with its quote, as any other, instead of the one line
   * "ID | type | severity | title" the reply schema offers for it: a model that does not take up that instruction.
   */
  'ignores-id-lines',
  // Reply shapes of weaker models (issue 36): the document still prints what the model leaves out.
  /**
   * Takes the simplest branch of the findings union: every finding it reports is a bare string holding only its title
   * (no ID, no severity, no quote, no page), the recorded ones too (it does not take up the numbering).
   */
  'bare-titles',
  /** Leaves the `id` of about 20% of the findings whose ID the text prints empty (null), writing them as objects. */
  'drops-ids',
  /** Forgets or shifts about 10% of the RECORDED FINDINGS numbers it gives (half left out, half given as a neighbouring line's number). */
  'recorded-slips',
] as const;
export type ModelMode = (typeof MODEL_MODES)[number];

/** What a faithful model does that the merge must survive: the CI gate runs with these on. */
export const FAITHFUL_MODES: readonly ModelMode[] = ['invented-ids', 'null-ids', 'summary-and-detail'];

/**
 * An imperfect model (issue 36's measurement): skips findings, paraphrases quotes, drops printed IDs, invents findings,
 * slips on the recorded numbers, ends its lists after 20 entries and writes long fields.
 */
export const IMPERFECT_MODES: readonly ModelMode[] = [
  ...FAITHFUL_MODES,
  'skips-findings',
  'paraphrased-quotes',
  'drops-ids',
  'invented-finding',
  'recorded-slips',
  'stops-after-n',
  'verbose-replies',
];

/** A weaker model that answers every finding with its bare title. */
export const BARE_TITLE_MODES: readonly ModelMode[] = [...FAITHFUL_MODES, 'bare-titles'];

/** The named sets `npm run eval -- --modes <set>` takes besides single modes. */
export const MODE_SETS: Readonly<Record<string, readonly ModelMode[]>> = {
  faithful: FAITHFUL_MODES,
  imperfect: IMPERFECT_MODES,
  'bare-titles-set': BARE_TITLE_MODES,
};

export interface TruthFindingSpec {
  /** As the truth file gives it: an ID string (TOB-ETCD-001) or a bare sequence number ("7"). */
  id: string | null;
  title: string;
  /** The detailed heading's wording where it differs from the summary table's. */
  detailTitle?: string;
  severity: string;
  /** Page of the detailed section (1-based physical page). */
  page: number;
  type?: string;
}

export interface TruthDocument {
  name: string;
  findings: TruthFindingSpec[];
  /** Totals the document prints about its own findings, when it does. */
  statedCounts?: Record<string, number> | null;
  /** What the PDF itself prints where it differs from the report's source (`pdf_stated_counts`): the check must read this. */
  pdfStatedCounts?: Record<string, number> | null;
}

const DEFAULT_SEED = 7;

/** Share of a document's findings (in percent) the skips-findings mode never reports. */
export const SKIPPED_PERCENT = 15;

export interface TruthResponderOptions {
  modes?: readonly ModelMode[];
  /** Findings the model leaves out (besides missed-finding's own choice). */
  omit?: (finding: TruthFindingSpec, doc: TruthDocument) => boolean;
  /** Non-extraction requests (judge, summary, tree split...). Default: schema-shaped minimal replies. */
  fallback?: Responder;
  seed?: number;
  /** stops-after-n: findings per reply before the model ends its list (default STOPS_AFTER). */
  stopAfter?: number;
}

/** stops-after-n's default: small local models often end a long list after 15-30 items. */
export const STOPS_AFTER = 20;

/**
 * Every document of ../shared/corpus with its truth (documents without findings get an empty list): the whole ones,
 * with both their PDF and their truth file (a PDF whose truth is not written yet cannot be scored).
 */
export function loadCorpusTruth(corpusDir = defaultCorpusDir()): TruthDocument[] {
  return wholeCorpusDocuments(corpusDir).map((name) => {
    const raw = JSON.parse(readFileSync(corpusFile(name, 'truth', corpusDir), 'utf8')) as {
      findings: { id: string; title: string; detail_title?: string; severity: string; page: number; type?: string }[];
      stated_counts?: Record<string, number> | null;
      pdf_stated_counts?: Record<string, number> | null;
    };
    return {
      name,
      findings: raw.findings.map((t) => ({
        id: t.id ?? null,
        title: t.title,
        ...(t.detail_title ? { detailTitle: t.detail_title } : {}),
        severity: t.severity,
        page: t.page,
        ...(t.type ? { type: t.type } : {}),
      })),
      statedCounts: raw.stated_counts ?? null,
      pdfStatedCounts: raw.pdf_stated_counts ?? null,
    };
  });
}

export function defaultCorpusDir(): string {
  return CORPUS_DIR;
}

export function isExtractionRequest(req: Pick<SimChatRequest, 'format'>): boolean {
  const props = (req.format as { properties?: Record<string, unknown> } | null)?.properties;
  return typeof req.format === 'object' && req.format !== null && props !== undefined && 'findings' in props;
}

/** An ID string, as opposed to a bare sequence number. */
export const isIdString = (id: string | null): id is string => id !== null && /\p{L}/u.test(id) && /\d/.test(id);

// ---------------------------------------------------------------------------------------------
// Reading the chunk the way the model sees it
// ---------------------------------------------------------------------------------------------

interface ChunkView {
  /** The DOCUMENT block as sent, page markers included. */
  raw: string;
  /** Same length as raw, with the page markers blanked out (offsets stay the same). */
  masked: string;
  /** Page marker positions: the page that starts at `at`. */
  markers: { page: number; at: number; end: number }[];
  normalized: { text: string; map: ArrayLike<number> };
  tokens: { text: string; start: number; end: number }[];
}

function viewOf(raw: string): ChunkView {
  const markers = [...raw.matchAll(/\[page (\d+)\]\n?/g)].map((m) => ({ page: Number(m[1]), at: m.index, end: m.index + m[0].length }));
  let masked = raw;
  for (const m of markers) masked = masked.slice(0, m.at) + ' '.repeat(m.end - m.at) + masked.slice(m.end);
  const normalized = normalizeForMatch(masked);
  const tokens = [...normalized.text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({
    text: m[0],
    start: normalized.map[m.index]!,
    end: normalized.map[m.index + m[0].length - 1]! + 1,
  }));
  return { raw, masked, markers, normalized, tokens };
}

const pageAtOffset = (view: ChunkView, at: number): number => {
  let page = view.markers[0]?.page ?? 1;
  for (const m of view.markers) if (m.at <= at) page = m.page;
  return page;
};

const titleTokens = (title: string) => normalizeForMatch(title).text.match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Occurrences of a title's words in order at the start of a line (after a number, ID or punctuation only),
 * allowing a few other tokens between them: a wrapped table cell interleaves the next columns' words.
 */
function titleOccurrences(view: ChunkView, title: string): { start: number; end: number }[] {
  const want = titleTokens(title);
  if (want.length === 0) return [];
  const out: { start: number; end: number }[] = [];
  const maxGap = 4;
  const maxSpan = want.length + 10;
  for (let i = 0; i < view.tokens.length; i++) {
    if (view.tokens[i]!.text !== want[0]) continue;
    let j = i;
    let matched = 1;
    while (matched < want.length) {
      let k = j + 1;
      while (k < view.tokens.length && k - j - 1 <= maxGap && view.tokens[k]!.text !== want[matched]) k++;
      if (k >= view.tokens.length || view.tokens[k]!.text !== want[matched] || k - i >= maxSpan) break;
      j = k;
      matched++;
    }
    if (matched < want.length) continue;
    // A title that opens with punctuation ("++i costs less gas ...") starts at that punctuation.
    const start = view.tokens[i]!.start - leadingPunctuation(view, view.tokens[i]!.start, title);
    if (!atLineStart(view, start)) continue;
    out.push({ start, end: view.tokens[j]!.end });
    i = j;
  }
  return out;
}

const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u202A-\u202E\u2066-\u2069]/g;

/** The title's own punctuation before its first word ("++" of "++i costs ..."), when printed right before `at`. */
function leadingPunctuation(view: ChunkView, at: number, title: string): number {
  const lead = /^[^\p{L}\p{N}]*/u.exec(title.trim())![0].replace(/\s+/g, '');
  return lead.length > 0 && view.masked.slice(at - lead.length, at) === lead ? lead.length : 0;
}

/**
 * Only a list bullet, numbers, IDs and punctuation before it on its line: a heading, a table row, a contents line, a
 * list item ("o REL-1504: Adding labels ..."). Or a section
 * number of two levels or more right before it, after other words: a heading printed on its chapter title's line
 * ("3. Detailed Findings 3.1. Lack of input validations"), which a reader sees as the heading it is.
 */
function atLineStart(view: ChunkView, start: number): boolean {
  const lineStart = view.masked.lastIndexOf('\n', start - 1) + 1;
  const before = view.masked.slice(lineStart, start).replace(INVISIBLE, '');
  if (/(?:^|\s)\d+(?:\.\d+)+\.?\s+$/.test(before)) return true;
  return /^[\s#.:)(|\-–—]*(?:(?:[•●▪◦‣·*]|o(?=\s))\s*)?(?:(?:\d+(?:\.\d+)*|[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+|No\.?|ID:?)[\s.:)(|\-–—]*)*$/.test(before);
}

function lineBounds(text: string, at: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const nl = text.indexOf('\n', at);
  return { start, end: nl < 0 ? text.length : nl };
}

/** Printed occurrences of an ID string (any separators, case, zero padding). */
function idOccurrences(view: ChunkView, id: string): { start: number; end: number }[] {
  const parts = comparableId(id)
    .split('-')
    .map((p) => (/^\d+$/.test(p) ? `0*${p}` : p));
  const re = new RegExp(`(?<![\\p{L}\\p{N}-])${parts.join('[\\s\\-\u2010-\u2014]?')}(?![\\p{N}])`, 'giu');
  const clean = view.masked.replace(INVISIBLE, ' ');
  return [...clean.matchAll(re)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

// ---------------------------------------------------------------------------------------------
// The responder
// ---------------------------------------------------------------------------------------------

interface Sighting {
  doc: TruthDocument;
  finding: TruthFindingSpec;
  title: string;
  start: number;
  end: number;
  kind: 'title' | 'id';
}

const INVENTED = [
  {
    title: 'Hard-coded administrator credentials in configuration',
    evidence: 'The configuration file stores the administrator password in plain text and it is shared by all nodes.',
  },
  {
    title: 'Missing audit trail for privileged operations',
    evidence: 'Privileged operations are not recorded in any audit trail, so misuse cannot be detected afterwards.',
  },
  {
    title: 'Outdated TLS library with known vulnerabilities',
    evidence: 'The service links an outdated TLS library that is affected by several published vulnerabilities.',
  },
];

const OFF_SCALE: Record<string, string> = {
  critical: 'Blocker',
  high: 'Very High',
  major: 'Very High',
  medium: 'Moderate',
  low: 'Minor',
  minor: 'Low',
  informational: 'Info',
  undetermined: 'Unknown',
};

/** Share of findings (in percent) whose printed ID the drops-ids mode leaves out. */
const DROPPED_ID_PERCENT = 20;
/** Share of recorded numbers (in percent) the recorded-slips mode forgets, and as many it shifts to a neighbouring line. */
const SLIPPED_RECORDED_PERCENT = 10;

/** recorded-slips: some numbers forgotten, as many given as a neighbouring line's number. */
function slipNumbers(numbers: readonly number[], chunkSeed: number): number[] {
  return numbers.flatMap((n) => {
    const roll = hash(`${chunkSeed}:slip:${n}`) % 100;
    if (roll < SLIPPED_RECORDED_PERCENT / 2) return [];
    if (roll < SLIPPED_RECORDED_PERCENT) return [n > 1 && roll % 2 === 0 ? n - 1 : n + 1];
    return [n];
  });
}

/** The findings of a document the skips-findings mode never reports (the same ones on every run with the same seed). */
export function skippedFindings(doc: TruthDocument, seed = DEFAULT_SEED): TruthFindingSpec[] {
  return doc.findings.filter((f) => hash(`${seed}:skip:${doc.name}:${f.title}`) % 100 < SKIPPED_PERCENT);
}

/** The one finding of a document the mode missed-finding leaves out. */
export function missedFinding(doc: TruthDocument, seed = DEFAULT_SEED): TruthFindingSpec | undefined {
  return doc.findings.length > 0 ? doc.findings[hash(`${seed}:${doc.name}`) % doc.findings.length] : undefined;
}

export function truthResponder(docs: readonly TruthDocument[], options: TruthResponderOptions = {}): Responder {
  const modes = new Set(options.modes ?? []);
  const fallback = options.fallback ?? schemaResponder;
  const seed = options.seed ?? DEFAULT_SEED;
  const missed = new Set<TruthFindingSpec>();
  if (modes.has('missed-finding')) {
    for (const doc of docs) {
      const left = missedFinding(doc, seed);
      if (left) missed.add(left);
    }
  }
  if (modes.has('skips-findings')) for (const doc of docs) for (const f of skippedFindings(doc, seed)) missed.add(f);
  const left = (f: TruthFindingSpec, doc: TruthDocument) => missed.has(f) || (options.omit?.(f, doc) ?? false);
  const siblings = modes.has('siblings-same-title') ? siblingPairs(docs) : new Map<TruthFindingSpec, { first: TruthFindingSpec; description: string }>();

  return (req: SimChatRequest): SimReply | Promise<SimReply> => {
    if (!isExtractionRequest(req)) return fallback(req);
    const { chunk } = promptBlocks(req);
    const view = viewOf(chunk ?? '');
    const chunkSeed = hash(`${seed}:${view.raw}`);
    const sightings = findSightings(view, docs).filter((s) => !left(s.finding, s.doc));
    const recordedLine = recordedIn(req);
    const careless = modes.has('once-per-unit-first-occurrence') || modes.has('every-occurrence') || (modes.has('summary-and-detail') && !asksOnce(req));
    const chosen = modes.has('once-per-unit-first-occurrence')
      ? firstOccurrences(sightings)
      : careless
        ? sightings
        : modes.has('summary-and-detail')
          ? oncePerFinding(view, sightings, namedIds(req), (s) => recordedLine(s) > 0)
          : sightings.filter((s) => isDetail(view, s));
    // A model that follows the instructions gives a recorded finding whose detailed section it reads by its line
    // number ("recorded", when the reply schema has it); one that reports every sighting writes every entry in full.
    const byNumber = !careless && !modes.has('ignores-recorded') && !modes.has('bare-titles') && hasReplyField(req.format, 'recorded');
    const named = byNumber ? [...new Set(chosen.filter((s) => isDetail(view, s) && recordedLine(s) > 0).map(recordedLine))] : [];
    const recordedNumbers = modes.has('recorded-slips') ? slipNumbers(named, chunkSeed) : named;
    const reported = byNumber ? chosen.filter((s) => !(isDetail(view, s) && recordedLine(s) > 0)) : chosen;

    let counter = 0;
    const idless = idlessStyle(modes, chunkSeed);
    const findings = reported.map((s, i) => {
      const dropped = modes.has('drops-ids') && hash(`${chunkSeed}:drop:${s.finding.title}`) % 100 < DROPPED_ID_PERCENT;
      const printedId = isIdString(s.finding.id) && idVisibleNear(view, s) && !dropped ? s.finding.id : null;
      let id: string | null;
      if (printedId) id = modes.has('reformatted-ids') ? reformatId(printedId, s.title, chunkSeed + i) : printedId;
      else if (idless === 'invented') id = `F-${++counter}`;
      else if (idless === 'number') id = numberBefore(view, s.start) ?? String(++counter);
      else id = null;
      const sibling = siblings.get(s.finding);
      return {
        // Not a reply field: whether the text prints the ID the model writes (shapeLike leaves it out).
        printed: printedId !== null,
        id,
        type: s.finding.type ?? 'vulnerability',
        title: sibling && sibling.first !== s.finding && s.kind === 'title' && !isDetail(view, s) ? sibling.first.title : s.title,
        severity: modes.has('off-scale-severity') ? (OFF_SCALE[s.finding.severity.toLowerCase()] ?? s.finding.severity) : s.finding.severity,
        description: sibling?.description ?? describe(view, s),
        evidence: quoteOf(view, s, modes, chunkSeed + i),
        page: pageAtOffset(view, s.start),
      };
    });

    if (modes.has('invented-finding') && findings.length === 0 && recordedNumbers.length === 0 && chunkSeed % 3 === 0) {
      const inv = INVENTED[chunkSeed % INVENTED.length]!;
      findings.push({
        printed: false,
        id: idless === 'invented' ? 'F-1' : null,
        type: 'vulnerability',
        title: inv.title,
        severity: 'High',
        description: 'Reported by the model; not in the text.',
        evidence: inv.evidence,
        page: view.markers[0]?.page ?? 1,
      });
    }
    if (modes.has('duplicates-in-reply') && findings.length > 0) findings.splice(1, 0, { ...findings[0]! });

    const summary =
      chosen.length > 0
        ? `This part covers ${[...new Set(chosen.map((s) => s.finding.title))].join('; ')}.`
        : 'This part describes the review without reporting a finding.';
    const stopAfter = options.stopAfter ?? STOPS_AFTER;
    const listed = modes.has('stops-after-n') ? endsListEarly(req, findings, stopAfter) : findings;
    const recorded = modes.has('stops-after-n') ? recordedNumbers.slice(0, stopAfter) : recordedNumbers;
    // A model that follows the instructions writes a finding whose ID the text prints as one line (when the reply
    // schema offers lines); one that reports every sighting carelessly still writes what the schema offers.
    const asLines = !modes.has('ignores-id-lines') && acceptsLines(req.format);
    const entries =
      modes.has('bare-titles') && acceptsLines(req.format)
        ? listed.map((f) => String(f.title))
        : asLines
          ? listed.map((f) => (f.printed ? `${String(f.id)} | ${String(f.type)} | ${String(f.severity)} | ${String(f.title)}` : f))
          : listed;
    const reply = shapeLike(req.format, { recorded, findings: entries, summary });
    if (modes.has('verbose-replies')) return verboseReply(req.format, reply);
    return JSON.stringify(reply);
  };
}

/**
 * Sibling findings of each document: titles sharing at least 60% of the shorter one's words, not equal. Each
 * sibling maps to the first of its group and to the one description the model gives them all.
 */
function siblingPairs(docs: readonly TruthDocument[]): Map<TruthFindingSpec, { first: TruthFindingSpec; description: string }> {
  const out = new Map<TruthFindingSpec, { first: TruthFindingSpec; description: string }>();
  for (const doc of docs) {
    doc.findings.forEach((b, j) => {
      const wb = new Set(titleTokens(b.title));
      const a = doc.findings.slice(0, j).find((x) => {
        const wa = new Set(titleTokens(x.title));
        const shared = [...wa].filter((w) => wb.has(w)).length;
        return x.title !== b.title && shared / Math.max(1, Math.min(wa.size, wb.size)) >= 0.6;
      });
      if (!a) return;
      const first = out.get(a)?.first ?? a;
      const common = titleTokens(first.title)
        .filter((w) => wb.has(w))
        .join(' ');
      const entry = { first, description: `The code has the issue named "${common}"; the same change fixes it in every place listed.` };
      if (!out.has(first)) out.set(first, entry);
      out.set(b, out.get(first)!);
    });
  }
  return out;
}

function findSightings(view: ChunkView, docs: readonly TruthDocument[]): Sighting[] {
  const out: Sighting[] = [];
  for (const doc of docs) {
    for (const finding of doc.findings) {
      const titles = [...new Set([finding.title, ...(finding.detailTitle ? [finding.detailTitle] : [])])];
      const byTitle: Sighting[] = [];
      for (const title of titles) {
        for (const o of titleOccurrences(view, title)) {
          if (byTitle.some((s) => s.start < o.end && o.start < s.end)) continue;
          byTitle.push({ doc, finding, title, start: o.start, end: o.end, kind: 'title' });
        }
      }
      out.push(...byTitle);
      if (!isIdString(finding.id)) continue;
      // The printed ID with no title sighting around it (a figure, a reference, the continuation of a detailed section): once per chunk.
      const idOnly = idOccurrences(view, finding.id).find((o) => !byTitle.some((s) => Math.abs(o.start - s.start) < 600));
      if (idOnly) out.push({ doc, finding, title: finding.title, start: idOnly.start, end: idOnly.end, kind: 'id' });
    }
  }
  // A title that opens a sibling's ("X" and "X in batch mode") matches where the sibling's is printed: a reader sees
  // the whole line, so the place is the longer title's (siblings-same-title is the mode that confuses them).
  const longer = (s: Sighting) => out.some((t) => t.kind === 'title' && t.finding !== s.finding && t.start === s.start && t.end > s.end);
  return out.filter((s) => s.kind !== 'title' || !longer(s)).sort((a, b) => a.start - b.start);
}

/** One sighting per finding: its first title sighting in the text shown (else its first ID reference), in text order. */
function firstOccurrences(sightings: readonly Sighting[]): Sighting[] {
  const first = new Map<TruthFindingSpec, Sighting>();
  for (const s of sightings) {
    const seen = first.get(s.finding);
    if (!seen || (seen.kind === 'id' && s.kind === 'title')) first.set(s.finding, s);
  }
  return [...first.values()].sort((a, b) => a.start - b.start);
}

/** The instructions ask for each finding once per call (electron/engine/extract/prompts.ts REPORT_ONCE_RULE). */
function asksOnce(req: SimChatRequest): boolean {
  return /Report each finding ONCE/.test(promptBlocks(req).system);
}

/** The IDs a focused follow-up call names ("These IDs are printed ...: A, B"), comparable; empty for other calls. */
function namedIds(req: SimChatRequest): Set<string> {
  const named = /These IDs are printed[^:]*:\s*([^\n]*?)\. The DOCUMENT/.exec(promptBlocks(req).user)?.[1];
  return new Set(named ? named.split(',').map((id) => comparableId(id.trim())) : []);
}

/**
 * A model that follows "report each finding once": per finding, its detailed section when shown (its heading, or its
 * ID printed on its own page), else the first line naming it by title; an ID referred to elsewhere only when the call
 * names that ID (a follow-up asking for it).
 */
function oncePerFinding(view: ChunkView, sightings: readonly Sighting[], named: ReadonlySet<string>, recorded: (s: Sighting) => boolean): Sighting[] {
  // The detailed section's own lines (its heading, its "Finding ID" line) first, then a title line, then an ID asked for.
  const onOwnPage = (s: Sighting) => pageAtOffset(view, s.start) === s.finding.page;
  const rank = (s: Sighting) => (isDetail(view, s) ? 0 : onOwnPage(s) ? 1 : s.kind === 'title' ? 2 : 3);
  const chosen = new Map<TruthFindingSpec, Sighting>();
  for (const s of sightings) {
    const asked = isIdString(s.finding.id) && named.has(comparableId(s.finding.id));
    if (s.kind === 'id' && !asked && !onOwnPage(s)) continue;
    // A finding the prompt lists as recorded is reported only from its detailed section (its heading or its own ID line).
    if (recorded(s) && !asked && rank(s) > 1) continue;
    const seen = chosen.get(s.finding);
    if (!seen || rank(s) < rank(seen)) chosen.set(s.finding, s);
  }
  return [...chosen.values()].sort((a, b) => a.start - b.start);
}

/**
 * The line number ([n]) of a sighting's finding in the prompt's recorded list (the findings the document's own lists
 * name), by its ID, else by its title's words in order on the line; 0 when the list does not name it.
 */
function recordedIn(req: SimChatRequest): (s: Sighting) => number {
  const block = promptBlocks(req).recorded;
  if (!block) return () => 0;
  const lines = block.split('\n').map((line) => {
    const m = /^\[(\d+)\]\s*(.*)$/.exec(line.trim());
    return {
      n: m ? Number(m[1]) : 0,
      words: ` ${titleTokens(m?.[2] ?? line).join(' ')} `,
      ids: new Set((line.match(/[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+/g) ?? []).map(comparableId)),
    };
  });
  return (s) => {
    const byId = isIdString(s.finding.id) ? lines.find((l) => l.ids.has(comparableId(s.finding.id!))) : undefined;
    const line = byId ?? lines.find((l) => l.words.includes(` ${titleTokens(s.finding.title).join(' ')} `));
    // A list without line numbers (an older prompt) still names the finding.
    return line ? line.n || 1 : 0;
  };
}

/** The properties of the reply schema's finding object (its items, or the object branch of an anyOf). */
export function findingItemProperties(format: unknown): Record<string, { description?: string }> | undefined {
  const items = (format as { properties?: Record<string, { items?: ItemSchema }> } | undefined)?.properties?.findings?.items;
  if (items?.properties) return items.properties;
  return items?.anyOf?.find((a) => a.properties)?.properties;
}
type ItemSchema = { properties?: Record<string, { description?: string }>; anyOf?: ItemSchema[]; type?: string };

/** Whether the reply schema lets a finding be one line (a string entry of its findings list). */
function acceptsLines(format: unknown): boolean {
  const items = (format as { properties?: Record<string, { items?: ItemSchema }> } | undefined)?.properties?.findings?.items;
  return items?.type === 'string' || (items?.anyOf ?? []).some((a) => a.type === 'string');
}

/** Whether the reply schema has a top-level field `name`. */
function hasReplyField(format: unknown, name: string): boolean {
  return name in ((format as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
}

/** The detailed section: the heading on the finding's own page (the truth page only words the description). */
function isDetail(view: ChunkView, s: Sighting): boolean {
  return s.kind === 'title' && pageAtOffset(view, s.start) === s.finding.page;
}

function idlessStyle(modes: ReadonlySet<ModelMode>, chunkSeed: number): 'invented' | 'null' | 'number' {
  const styles: ('invented' | 'null' | 'number')[] = [];
  if (modes.has('invented-ids')) styles.push('invented');
  if (modes.has('null-ids')) styles.push('null');
  if (modes.has('section-number-ids')) styles.push('number');
  return styles.length === 0 ? 'null' : styles[chunkSeed % styles.length]!;
}

function idVisibleNear(view: ChunkView, s: Sighting): boolean {
  if (s.kind === 'id') return true;
  return idOccurrences(view, s.finding.id!).some((o) => o.start > s.start - 200 && o.start < s.end + 400);
}

function numberBefore(view: ChunkView, at: number): string | null {
  const line = lineBounds(view.masked, at);
  return /^\s*#?\s*(\d+(?:\.\d+)*)/.exec(view.masked.slice(line.start, at).replace(INVISIBLE, ''))?.[1] ?? null;
}

function reformatId(id: string, title: string, n: number): string {
  switch (n % 4) {
    case 0:
      return comparableId(id); // TOB-ETCD-1
    case 1:
      return id.toLowerCase();
    case 2:
      return id.replace(/-/g, ' ');
    default:
      return `${id}: ${title}`;
  }
}

/**
 * The quote: for a detailed section, a sentence of its description (what models quote to show a finding,
 * well below the heading and its ID line); otherwise the sighting's whole line(s). Verbatim (line breaks read
 * as spaces) unless a mode says otherwise.
 */
function quoteOf(view: ChunkView, s: Sighting, modes: ReadonlySet<ModelMode>, n: number): string {
  const first = lineBounds(view.masked, s.start);
  let start = first.start;
  let end = Math.min(lineBounds(view.masked, Math.max(s.start, s.end - 1)).end, first.start + 320);
  // A finding whose only description is its table row (a changelog; ingestion writes a row's cells as one line with
  // " | " between them) is quoted by its row: the lines after it are the next findings' rows.
  const tableRow = view.masked.slice(first.start, first.end).includes(' | ');
  if (isDetail(view, s) && !tableRow) {
    // The description's first sentence, while it starts on the heading's page (else the heading line itself).
    const sentence = descriptionSentence(view, lineBounds(view.masked, s.end).end);
    if (sentence && pageAtOffset(view, sentence.start) === pageAtOffset(view, s.start)) ({ start, end } = sentence);
  }
  if (modes.has('page-break-quotes')) {
    // Run on across the next page break when one is close: the marker dropped, the next page's first line joined.
    const marker = view.markers.find((m) => m.at >= end && m.at - end <= 400);
    if (marker) end = lineBounds(view.masked, marker.end).end;
  }
  let quote = view.masked.slice(start, end).replace(/\s+/g, ' ');
  if (modes.has('paraphrased-quotes')) quote = paraphrase(quote, n);
  return quote.trim();
}

/** The first sentence of 40 to 400 characters after a heading, past its metadata and sub-heading lines ("Severity: ...", "Description"). */
function descriptionSentence(view: ChunkView, from: number): { start: number; end: number } | null {
  const text = view.masked.slice(from, from + 2500);
  const re = /(?:^|\n)(?![ \t]*(?:Severity|Difficulty|Type|Target|Finding ID|Status)\b)(?![ \t]*\w+[ \t]*\n)[ \t]*([A-Z][^\n]*(?:\n(?!\s*\n)[^\n]*){0,6})/g;
  for (const m of text.matchAll(re)) {
    const body = m[1]!;
    const sentence = /^[\s\S]{40,400}?[.!?](?=\s|$)/.exec(body);
    if (!sentence) continue;
    const at = from + m.index + m[0].length - body.length;
    return { start: at, end: at + sentence[0].length };
  }
  return null;
}

/** Near-verbatim: what models do to quotes they copy. */
function paraphrase(quote: string, n: number): string {
  let out = quote.replace(INVISIBLE, '').replace(/\s+/g, ' ').replace(/'/g, '\u2019').replace(/"/g, '\u201d');
  const words = out.split(' ');
  // One small word swapped in longer quotes ("the" for "a"): still grounded by token alignment, never verbatim.
  if (words.length >= 10 && n % 2 === 0) {
    const i = words.findIndex((w, k) => k > 2 && /^(the|a)$/i.test(w));
    if (i > 0) words[i] = words[i]!.toLowerCase() === 'the' ? 'a' : 'the';
    out = words.join(' ');
  }
  return out;
}

/** A short description in the model's words: the text after a detailed heading, a table row's note otherwise. */
function describe(view: ChunkView, s: Sighting): string {
  if (!isDetail(view, s)) return s.kind === 'id' ? `The text refers to ${s.finding.id}.` : 'Listed in the document\u2019s overview of findings.';
  const after = view.masked
    .slice(lineBounds(view.masked, s.end).end, lineBounds(view.masked, s.end).end + 600)
    .replace(INVISIBLE, '')
    .replace(/\s+/g, ' ')
    .trim();
  const sentence = /^.{40,260}?[.!?](?=\s|$)/.exec(after)?.[0] ?? after.slice(0, 200);
  return sentence;
}

/** Keeps only the fields the request's JSON schema asks for (a compact schema gets a compact reply). */
function shapeLike(format: unknown, reply: { recorded?: number[]; findings: (Record<string, unknown> | string)[]; summary: string }): Record<string, unknown> {
  const props = (format as { properties?: Record<string, unknown> }).properties ?? {};
  const itemProps = findingItemProperties(format);
  const findings = itemProps
    ? reply.findings.map((f) => (typeof f === 'string' ? f : Object.fromEntries(Object.entries(f).filter(([k]) => k in itemProps))))
    : reply.findings;
  const given: Record<string, unknown> = { findings, summary: reply.summary, ...(reply.recorded ? { recorded: reply.recorded } : {}) };
  // In the schema's order, as constrained decoding writes them; a field the schema lacks is not written.
  const out: Record<string, unknown> = Object.keys(props).length === 0 ? { findings } : {};
  for (const [key, schema] of Object.entries(props)) out[key] = key in given ? given[key] : minimalInstance(schema, format);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Dense documents: long replies and lists ended early (issue 25)
// ---------------------------------------------------------------------------------------------

/**
 * stops-after-n: the first `n` findings of the reply, the rest left out with a normal end. A request that names IDs
 * (a focused follow-up: "These IDs are printed ... : A, B") gets those first, as a model asked for them lists them.
 */
function endsListEarly(req: SimChatRequest, findings: Record<string, unknown>[], n: number): Record<string, unknown>[] {
  const asked = namedIds(req);
  if (asked.size === 0) return findings.slice(0, n);
  const isAsked = (f: Record<string, unknown>) => typeof f.id === 'string' && asked.has(comparableId(f.id));
  return [...findings.filter(isAsked), ...findings.filter((f) => !isAsked(f))].slice(0, n);
}

/** A word of filler a verbose model pads a field with (its own words, not the document's). */
const PADDING = 'the issue affects the component described in this part of the report and should be fixed'.split(' ');

/**
 * verbose-replies: pretty-printed with two-space indentation, every "at most N words" field at N words (a quote cut
 * to its first N words stays verbatim; a shorter description is padded in the model's own words), the summary too.
 */
function verboseReply(format: unknown, reply: Record<string, unknown>): string {
  const props =
    (format as { properties?: Record<string, { description?: string; items?: { properties?: Record<string, { description?: string }> } }> }).properties ?? {};
  const atLimit = (value: string, description: string | undefined, verbatim: boolean): string => {
    const limit = /at most (\d+) words/.exec(description ?? '');
    if (!limit) return value;
    const n = Number(limit[1]);
    const words = value.split(/\s+/).filter(Boolean);
    if (words.length >= n || verbatim) return words.slice(0, n).join(' ');
    while (words.length < n) words.push(PADDING[words.length % PADDING.length]!);
    return words.join(' ');
  };
  const items = findingItemProperties(format) ?? {};
  const findings = (reply.findings as (Record<string, unknown> | string)[]).map((f) =>
    typeof f === 'string'
      ? f
      : Object.fromEntries(Object.entries(f).map(([k, v]) => [k, typeof v === 'string' ? atLimit(v, items[k]?.description, k === 'evidence') : v])),
  );
  const summary = typeof reply.summary === 'string' ? atLimit(reply.summary, props.summary?.description, false) : reply.summary;
  return JSON.stringify({ ...reply, findings, ...(summary !== undefined ? { summary } : {}) }, null, 2);
}
