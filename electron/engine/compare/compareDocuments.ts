/**
 * Comparing two analysed documents: the findings of each side (the merged,
 * grounded findings of its latest analysis; or, without a model, the IDs it
 * prints), paired (pairing.ts), labelled, each later side with the status the
 * later document states for it (statedStatus.ts), the earlier side with the
 * auditor's notes, and the candidates the auditor confirmed or rejected.
 */
import type { Database } from 'better-sqlite3';
import { pageAt } from '../../../shared/canonical';
import {
  summarizePairs,
  type CompareCandidate,
  type CompareDocumentRef,
  type ComparePair,
  type CompareSide,
  type Comparison,
  type PairRule,
} from '../../../shared/compare';
import { AppError, ErrorCode } from '../../../shared/errors';
import { DEFAULT_PROFILE, type ExtractionProfile, type MergedFinding } from '../../../shared/findings';
import type { IdPattern } from '../../../shared/idPatterns';
import type { ExtractedDocument, IdMention } from '../../../shared/types';
import { findListings, isReferenceId, textLines, comparableId, listsToRead, severitiesAsPrinted, words } from '../printed';
import { listMergedFindings } from '../merge';
import { getDocument, getRun, loadExtractedDocument, loadMentions } from '../store';
import { agreeEnough, pairFindings, type Candidate, type Match, type PairingItem } from './pairing';
import { readStatedStatus, withoutTrailingStatus, type FindingAnchors, type StatusTextView } from './statedStatus';
import { latestFinishedRun, latestMergedRun, listDecisions, notesOnFindings } from './store';

export interface CompareInput {
  earlierDocumentId: number;
  laterDocumentId: number;
  /** Default: each document's latest analysis (with findings, else the latest run that read it). */
  earlierRunId?: number;
  laterRunId?: number;
  /** rules-only: pair by the IDs the documents print, read statuses by the rules; no model findings are used. */
  mode?: 'auto' | 'rules-only';
  now?: string;
}

/** One finding of one side, as pairing and labelling need it. */
export interface Item extends PairingItem {
  side: CompareSide;
  /** The run's finding ids behind it (for the auditor's notes). */
  findingIds: number[];
  /** Offsets that name or quote it in its document. */
  anchors: number[];
}

/** One analysed document: its findings (merged, or read from its printed IDs), its text and ID mentions. */
export interface Side {
  doc: ExtractedDocument;
  /** The profile and ID patterns its run read it with. */
  reading: { profile: ExtractionProfile; idPatterns: readonly IdPattern[] };
  ref: CompareDocumentRef;
  text: string;
  view: StatusTextView;
  mentions: IdMention[];
  items: Item[];
}

/** What identifies a finding across re-runs, for the auditor's decisions: its printed ID, else its title's words. */
export function findingKeyOf(side: Pick<CompareSide, 'id' | 'title'>): string {
  return side.id !== null ? `id:${comparableId(side.id)}` : `title:${words(side.title).join(' ')}`;
}

function lineAt(text: string, offset: number): { start: number; end: number; text: string } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const nl = text.indexOf('\n', offset);
  const end = nl === -1 ? text.length : nl;
  return { start, end, text: text.slice(start, end) };
}

function uniqueMentions(mentions: readonly IdMention[]): IdMention[] {
  const seen = new Set<string>();
  return mentions.filter((m) => {
    const key = `${m.start}:${m.normalized}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function itemFromMerged(m: MergedFinding): Item | null {
  const grounded = m.sources.filter((s) => s.grounded);
  const main = grounded.find((s) => s.isMain) ?? grounded[0];
  if (!main) return null;
  const pages = [...new Set([m.mainPage, ...grounded.map((s) => s.page)].filter((p): p is number => p !== null))];
  return {
    id: m.findingKey,
    number: m.printedNumber,
    title: m.title,
    description: m.description,
    evidence: grounded.map((s) => s.evidence).join(' '),
    side: {
      id: m.findingKey,
      number: m.printedNumber,
      title: m.title,
      // No severity (the document prints none, the model gave none) is unknown, never a severity of its own.
      severity: m.severity.trim() === '' ? null : m.severity,
      pages,
      quote: main.evidence,
      page: main.page,
      mergedId: m.id,
      start: main.evidenceStart,
      end: main.evidenceEnd,
    },
    findingIds: m.sources.map((s) => s.findingId),
    anchors: grounded.map((s) => s.evidenceStart).filter((x): x is number => x !== null),
  };
}

/** The words of an ID's line that can serve as its title: the line without the ID, separators and a trailing status. */
function titleFromLine(line: string, raw: string): string {
  return withoutTrailingStatus(line)
    .replace(raw, ' ')
    .replace(/^[\s\d.:|–—-]+/, '')
    .replace(/[\s|:–—-]+$/, '')
    .replace(/\s{2,}/g, ' ')
    .trim()
    .slice(0, 200);
}

/** Glued to what precedes it ("Fertilizer.sol#L35-55"): a reference into code or a path, not a finding's ID. */
function isGlued(text: string, m: IdMention): boolean {
  return m.start > 0 && /[\p{L}\p{N}#/._@-]/u.test(text[m.start - 1]!);
}

/**
 * Where an ID announces a finding rather than refers to one: at the start of its line after nothing but
 * numbering and punctuation (a heading, a table row), or as a labelled field ("Finding ID: TOB-X-1").
 */
function announces(text: string, m: IdMention): boolean {
  return /^[\s\d.)(|#*\-–—]*$/.test(text.slice(lineAt(text, m.start).start, m.start)) || isHeaderField(text, m);
}

/** Printed after a label on its line ("Finding ID: TOB-X-1"). */
function isHeaderField(text: string, m: IdMention): boolean {
  return /:\s*$/.test(text.slice(lineAt(text, m.start).start, m.start));
}

/** The numbered heading just above an ID printed as a header field ("6. Solidity compiler ... / Finding ID: TOB-X-6"). */
function headingAbove(text: string, m: IdMention): string | null {
  const window = text.slice(Math.max(0, m.start - HEADING_WINDOW), lineAt(text, m.start).start);
  const headings = [...window.matchAll(/^[ \t]*\d+(?:\.\d+)*\.?[ \t]+(\p{L}[^\n]*)$/gmu)];
  return headings.at(-1)?.[1]?.trim() ?? null;
}
/** How far above a header field its heading may stand. */
const HEADING_WINDOW = 600;

/**
 * One item per printed finding ID (rules-only): its pages, the line of its first announcing mention as the
 * quote, the words printed beside it (or the heading above its header field) as its title. IDs that are
 * only referred to in prose, code references glued to a path, and references shaped like IDs (GPL-2, ERC-20,
 * CVE-...: the completeness check's list) are not findings.
 */
function itemsFromMentions(text: string, mentions: readonly IdMention[], only?: ReadonlySet<string>): Item[] {
  const byId = new Map<string, IdMention[]>();
  for (const m of mentions) {
    const key = comparableId(m.normalized);
    if ((only && !only.has(key)) || isGlued(text, m) || isReferenceId(m.normalized)) continue;
    byId.set(key, [...(byId.get(key) ?? []), m]);
  }
  return [...byId.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([, group]) => group)
    .filter((group) => group.some((m) => announces(text, m)))
    .map((group) => {
      // Titles come from where the ID announces the finding; a header field's heading is the finding's own words.
      const announcing = group.filter((m) => announces(text, m));
      const headed = announcing.map((m) => (isHeaderField(text, m) ? headingAbove(text, m) : null)).find((h) => h);
      const beside = announcing
        .filter((m) => !isHeaderField(text, m))
        .map((m) => titleFromLine(lineAt(text, m.start).text, m.raw))
        .sort((a, b) => words(b).length - words(a).length)[0];
      const title = headed ?? beside ?? '';
      // The quote is where the finding is announced most fully: its header field, else its fullest line.
      const first =
        announcing.find((m) => isHeaderField(text, m)) ?? announcing.find((m) => titleFromLine(lineAt(text, m.start).text, m.raw) === beside) ?? announcing[0]!;
      const line = lineAt(text, first.start);
      return {
        id: first.normalized,
        number: null,
        // The words printed beside the ID: enough to tell an ID reused for another finding after a renumbering.
        title,
        description: '',
        evidence: '',
        side: {
          id: first.normalized,
          number: null,
          title,
          severity: null,
          pages: [...new Set([first.page, ...group.map((m) => m.page)])],
          quote: line.text.trim(),
          page: first.page,
          mergedId: null,
          start: line.start,
          end: line.end,
        },
        findingIds: [],
        anchors: group.map((m) => m.start),
      };
    });
}

/**
 * Items read from the printed IDs get the severity the document prints for them (their section's field, their row's
 * cell, their group heading: printed/sections.ts), as model findings get it after their merge.
 */
function withPrintedSeverity(doc: ExtractedDocument, profile: ExtractionProfile, idPatterns: readonly IdPattern[], items: Item[]): Item[] {
  if (items.length === 0) return items;
  // The rows of its lists (numbered detailed sections with short bodies also parse as a list: they are no rows).
  const rows = listsToRead(doc.text, findListings(textLines(doc), doc.text, profile, idPatterns)).flatMap((l) => l.entries);
  const places = items.map((item) => ({
    titles: item.side.title ? [item.side.title] : [],
    printedNumber: item.side.number,
    places: item.side.start === null || item.side.end === null ? [] : [{ start: item.side.start, end: item.side.end }],
  }));
  const severities = severitiesAsPrinted(doc.text, profile, places, rows);
  return items.map((item, i) => ({ ...item, side: { ...item.side, severity: severities[i]?.original ?? null } }));
}

/** The profile and ID patterns a run read its document with (the defaults for a run whose settings cannot be read). */
function readingOf(db: Database, runId: number): { profile: ExtractionProfile; idPatterns: readonly IdPattern[] } {
  const settings = getRun(db, runId)?.settings;
  return settings ? { profile: settings.profile, idPatterns: settings.idPatterns } : { profile: DEFAULT_PROFILE, idPatterns: DEFAULT_PROFILE.idPatterns };
}

/** A document's findings for a comparison (or a reconciliation): its latest merged findings, else (or with rules-only) the IDs it prints where it announces a finding. */
export function loadSide(db: Database, documentId: number, runId: number | undefined, mode: CompareInput['mode']): Side {
  const stored = getDocument(db, documentId);
  const doc = stored && loadExtractedDocument(db, documentId);
  if (!stored || !doc)
    throw new AppError(ErrorCode.COMPARE_NOT_ANALYSED, `Document ${documentId} is not in the store. Analyse it first (npm run analyze -- <file>).`);
  const mentions = uniqueMentions(loadMentions(db, documentId)).sort((a, b) => a.start - b.start);
  const mergedRun = mode === 'rules-only' ? undefined : (runId ?? latestMergedRun(db, documentId));
  const merged = mergedRun === undefined ? [] : listMergedFindings(db, mergedRun, documentId);
  const full = mergedRun !== undefined && merged.length > 0;
  const run = full ? mergedRun : (runId ?? latestFinishedRun(db, documentId));
  if (run === undefined)
    throw new AppError(ErrorCode.COMPARE_NOT_ANALYSED, `Document ${stored.fileName} has no finished analysis. Analyse it first (npm run analyze -- <file>).`);
  const reading = readingOf(db, run);
  const items = full
    ? merged.map(itemFromMerged).filter((i): i is Item => i !== null)
    : withPrintedSeverity(doc, reading.profile, reading.idPatterns, itemsFromMentions(doc.text, mentions));
  return {
    doc,
    reading,
    ref: {
      documentId,
      runId: run,
      file: stored.fileName,
      sha256: stored.sha256,
      mode: full ? 'full' : 'rules-only',
      ungroundedFindings: full ? merged.length - items.length : 0,
    },
    text: doc.text,
    view: { text: doc.text, pageAt: (offset) => pageAt(doc.pages, offset) },
    mentions,
    items,
  };
}

/** A severity changed only when both sides print one and the words differ ("Undetermined" to "Medium" is a change); an unknown side changes nothing. */
function sameSeverity(a: string | null, b: string | null): boolean {
  const word = (s: string | null) => (s ?? '').trim().toLowerCase();
  return word(a) === '' || word(b) === '' || word(a) === word(b);
}

function sameTitle(a: CompareSide, b: CompareSide): boolean {
  // A title read from an ID's line (no merged finding) is no heading to compare.
  if (a.mergedId === null || b.mergedId === null) return true;
  return words(a.title).join(' ') === words(b.title).join(' ');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Where a title starts in the text (its first words, any spacing or line break between them), with where the match ends. */
function titleSpans(text: string, title: string): { start: number; end: number }[] {
  const ws = title.split(/\s+/).filter(Boolean).slice(0, 8);
  if (ws.length < 2) return [];
  const re = new RegExp(ws.map(escapeRegExp).join(String.raw`\s+`), 'gi');
  return [...text.matchAll(re)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** Every place the later document names or quotes each of its findings (and, for a pair, the earlier finding's ID and title). */
function anchorsOf(later: Side, item: Item, earlier: CompareSide | null): FindingAnchors {
  const ids = new Set([item.side.id, earlier?.id].filter((x): x is string => x !== null && x !== undefined).map(comparableId));
  const starts = [...item.anchors, ...later.mentions.filter((m) => ids.has(comparableId(m.normalized))).map((m) => m.start)];
  const titles = [...new Set([item.side.title, earlier?.title].filter((t): t is string => !!t && t.length > 0))];
  return { starts, titleSpans: titles.flatMap((t) => titleSpans(later.text, t)) };
}

/**
 * Items read from the IDs `side` prints (where it announces a finding) for findings of the other side that
 * `side`'s model findings lack: only for a side with model findings, and only IDs it has no finding for.
 */
function missedButPrinted(side: Side, unpairedOthers: readonly Item[]): Item[] {
  if (side.ref.mode !== 'full') return [];
  const own = new Set(side.items.filter((i) => i.id !== null).map((i) => comparableId(i.id!)));
  const wanted = new Set(unpairedOthers.filter((i) => i.id !== null && !own.has(comparableId(i.id))).map((i) => comparableId(i.id!)));
  return wanted.size === 0
    ? []
    : withPrintedSeverity(side.doc, side.reading.profile, side.reading.idPatterns, itemsFromMentions(side.text, side.mentions, wanted));
}

export function compareDocuments(db: Database, input: CompareInput): Comparison {
  if (input.earlierDocumentId === input.laterDocumentId) {
    throw new AppError(ErrorCode.COMPARE_SAME_DOCUMENT, 'The earlier and the later document are the same file: compare two different versions of a report.');
  }
  const earlier = loadSide(db, input.earlierDocumentId, input.earlierRunId, input.mode);
  const later = loadSide(db, input.laterDocumentId, input.laterRunId, input.mode);
  const pairing = pairSides(earlier, later);
  const { candidates, confirmed } = auditorCandidates(db, input, earlier, later, pairing);
  const table = buildPairs(db, earlier, later, pairing.matches, confirmed);
  // Candidates name the pairs their two sides stand in (each side's own row until the auditor confirms).
  const asPairIndexes = candidates.map((c) => ({
    ...c,
    earlierIndex: table.earlierIndexOfPair.get(c.earlierIndex)!,
    laterIndex: table.laterIndexOfPair.get(c.laterIndex)!,
  }));
  return {
    id: null,
    earlier: earlier.ref,
    later: later.ref,
    summary: summarizePairs(table.pairs, asPairIndexes),
    pairs: table.pairs,
    candidates: asPairIndexes,
    createdAt: input.now ?? new Date().toISOString(),
  };
}

/** The findings paired so far (item indexes of each side), and the candidate pairs left for the auditor. */
interface Pairing {
  readonly matches: Match[];
  readonly pairedEarlier: Set<number>;
  readonly pairedLater: Set<number>;
  /** Candidates whose two sides are both still unpaired. */
  readonly found: Candidate[];
}

/**
 * The two sides paired by the rules (pairing.ts); then a finding the model missed on one side, whose ID that document
 * prints where it announces a finding, is read from there and paired by that ID (the side's items grow by it): that
 * side is where it is printed (a fix review's row or heading; the earlier report's "Finding ID:" field), never "new"
 * or "no longer present" for want of a model finding.
 */
function pairSides(earlier: Side, later: Side): Pairing {
  const { matches, candidates } = pairFindings(earlier.items, later.items);
  const pairedEarlier = new Set(matches.map((m) => m.earlier));
  const pairedLater = new Set(matches.map((m) => m.later));
  const pairByPrintedId = (e: number, l: number) => {
    matches.push({ earlier: e, later: l, rule: 'printed-id', score: 1 });
    pairedEarlier.add(e);
    pairedLater.add(l);
  };
  for (const extra of missedButPrinted(
    later,
    earlier.items.filter((_, e) => !pairedEarlier.has(e)),
  )) {
    const e = earlier.items.findIndex((item, i) => !pairedEarlier.has(i) && item.id !== null && comparableId(item.id) === comparableId(extra.id!));
    if (!agreeEnough(earlier.items[e]!, extra)) continue;
    later.items.push(extra);
    pairByPrintedId(e, later.items.length - 1);
  }
  for (const extra of missedButPrinted(
    earlier,
    later.items.filter((_, l) => !pairedLater.has(l)),
  )) {
    const l = later.items.findIndex((item, i) => !pairedLater.has(i) && item.id !== null && comparableId(item.id) === comparableId(extra.id!));
    if (!agreeEnough(extra, later.items[l]!)) continue;
    earlier.items.push(extra);
    pairByPrintedId(earlier.items.length - 1, l);
  }
  const found = candidates.filter((c) => !pairedEarlier.has(c.earlier) && !pairedLater.has(c.later));
  return { matches, pairedEarlier, pairedLater, found };
}

/** The candidates with the auditor's answers (kept per pair of documents), and those confirmed as pairs (each side once). */
function auditorCandidates(
  db: Database,
  input: CompareInput,
  earlier: Side,
  later: Side,
  pairing: Pairing,
): { candidates: CompareCandidate[]; confirmed: { earlier: number; later: number; score: number }[] } {
  const { pairedEarlier, pairedLater } = pairing;
  const decisions = new Map(listDecisions(db, input.earlierDocumentId, input.laterDocumentId).map((d) => [`${d.earlierKey}|${d.laterKey}`, d.decision]));
  const candidates: CompareCandidate[] = [];
  const confirmed: { earlier: number; later: number; score: number }[] = [];
  for (const c of pairing.found) {
    const earlierKey = findingKeyOf(earlier.items[c.earlier]!.side);
    const laterKey = findingKeyOf(later.items[c.later]!.side);
    const decision = decisions.get(`${earlierKey}|${laterKey}`) ?? null;
    if (
      decision === 'confirmed' &&
      !pairedEarlier.has(c.earlier) &&
      !pairedLater.has(c.later) &&
      !confirmed.some((x) => x.earlier === c.earlier || x.later === c.later)
    ) {
      confirmed.push(c);
    }
    candidates.push({ earlierIndex: c.earlier, laterIndex: c.later, earlierKey, laterKey, reason: c.reason, score: c.score, decision });
  }
  return { candidates, confirmed };
}

/**
 * One row per earlier finding (paired by the rules, by the auditor, or no longer present), then one per later finding
 * left (new); with where each side's item landed.
 */
function buildPairs(
  db: Database,
  earlier: Side,
  later: Side,
  matches: readonly Match[],
  confirmed: readonly { earlier: number; later: number; score: number }[],
) {
  const pairs: ComparePair[] = [];
  const laterIndexOfPair = new Map<number, number>();
  const add = (e: Item | null, l: Item | null, rule: PairRule | null, score: number) =>
    pairs.push(pairOf(db, earlier, later, { e, l, rule, score, index: pairs.length }));
  const confirmedByEarlier = new Map(confirmed.map((c) => [c.earlier, c]));
  for (const [e, item] of earlier.items.entries()) {
    const match = matches.find((m) => m.earlier === e);
    const byAuditor = confirmedByEarlier.get(e);
    if (match) add(item, later.items[match.later]!, match.rule, match.score);
    else if (byAuditor) add(item, later.items[byAuditor.later]!, 'auditor', byAuditor.score);
    else add(item, null, null, 0);
    if (match || byAuditor) laterIndexOfPair.set((match ?? byAuditor)!.later, pairs.length - 1);
  }
  const earlierIndexOfPair = new Map(earlier.items.map((_, e) => [e, e]));
  for (const [l, item] of later.items.entries()) {
    if (laterIndexOfPair.has(l)) continue;
    add(null, item, null, 0);
    laterIndexOfPair.set(l, pairs.length - 1);
  }
  return { pairs, earlierIndexOfPair, laterIndexOfPair };
}

/** One row: its label and changes, the status the later document states, the auditor's notes on the earlier finding. */
function pairOf(
  db: Database,
  earlier: Side,
  later: Side,
  row: { e: Item | null; l: Item | null; rule: PairRule | null; score: number; index: number },
): ComparePair {
  const { e, l } = row;
  const changes: ComparePair['changes'] = [];
  if (e && l && !sameSeverity(e.side.severity, l.side.severity)) changes.push('severity');
  if (e && l && !sameTitle(e.side, l.side)) changes.push('title');
  const label: ComparePair['label'] = !l
    ? 'no_longer_present'
    : !e
      ? 'new'
      : changes.includes('severity')
        ? 'severity_changed'
        : changes.includes('title')
          ? 'title_changed'
          : 'still_present';
  return {
    index: row.index,
    earlier: e?.side ?? null,
    later: l?.side ?? null,
    label,
    changes,
    rule: row.rule,
    score: row.score,
    statedStatus: l ? readStatedStatus(later.view, anchorsOf(later, l, e?.side ?? null), statusBoundaries(later, l)) : null,
    notes: e ? notesOnFindings(db, earlier.ref.runId, e.findingIds) : [],
  };
}

/** Where another finding of the later document is named: the status read for `item` stops there. */
function statusBoundaries(later: Side, item: Item): number[] {
  const own = new Set(item.side.id === null ? [] : [comparableId(item.side.id)]);
  const others = later.items.filter((i) => i !== item).flatMap((i) => [...i.anchors, ...titleSpans(later.text, i.side.title).map((s) => s.start)]);
  // A standard or licence named in the text (ERC-20, GPL-2, CVE-...) is no other finding: it does not end a section.
  const otherMentions = later.mentions.filter((m) => !own.has(comparableId(m.normalized)) && !isReferenceId(m.normalized)).map((m) => m.start);
  return [...others, ...otherMentions].sort((a, b) => a - b);
}
