/**
 * The report as a model both readable formats render (markdown.ts, html.ts):
 * every heading, sentence, table and finding entry is worded here, once, and
 * every count is taken here, once, from the report data (reportData.ts). The
 * renderers only lay the model out and escape it, so a wording fix is made in
 * one place and the Markdown and HTML reports cannot say different things.
 *
 * Text is kept as written: strings from documents, the model and the
 * auditor stay literal here and every renderer escapes every string it is
 * given (HTML markup and Markdown syntax), our own words included.
 */
import { onlyListedNote } from '../../../shared/completeness';
import { SIMULATED_SUFFIX, simulatorNotice } from '../../../shared/simulator';
import { formatPageRanges } from '../../../shared/canonical';
import { problemWarnings } from '../../../shared/runOutcome';
import type { CompletenessStatus, CheckPlaceKind } from '../../../shared/completeness';
import { idOriginOf, type ExtractionProfile, type IdOrigin } from '../../../shared/findings';
import type { StoredConversation } from '../../../shared/retrieval';
import type { ReviewExportFinding, ReviewState } from '../../../shared/review';
import type { ChunkNode } from '../../../shared/types';
import { listingLines, statedSource, tallyRows } from './completeness';
import { citationLine, conversationScopeText, CONVERSATIONS_NOTE, documentNames, markedNote } from './conversationText';
import {
  baseName,
  chunkingText,
  CONFIRMED_ONLY_NOTE,
  conflictText,
  findingPages,
  formatDuration,
  formatUsage,
  idLabel,
  idOriginText,
  isFullMode,
  mainPageText,
  ocrNote,
  ocrPageList,
  pagesOf,
  profileOf,
  readableTime,
  REVIEW_STATE_LABEL,
  reviewCountsShort,
  reviewCountsText,
  reviewedBy,
  RULES_ONLY_NOTE,
  SECTION_TEXT,
  severityClass,
  sourcePage,
  severityLabel,
  shownValues,
  stateText,
  sumReviewCounts,
  type ReviewCountsOf,
} from './format';
import type { ReportData, ReportDocument, ReportFinding, ReportInput, ReportReview, ReportReviewFinding } from './reportData';

export const DEFAULT_OUTLINE_DEPTH = 2;

/**
 * A piece of a sentence. A plain string is text; the others carry a meaning
 * each format shows its own way (HTML as markup, Markdown as plain or bold text).
 */
export type Span =
  | string
  /** An ID, hash, error code or model name (`hash`: a long hex digest, broken anywhere to fit; `idOrigin`: a finding's ID, and where it comes from). */
  | { kind: 'code'; text: string; hash?: boolean; idOrigin?: IdOrigin }
  /** A word the reader must not miss ("NO", "not found in the text"). */
  | { kind: 'strong'; text: string }
  | { kind: 'time'; iso: string | null; text: string }
  /** A severity as written, with its class on the profile scale (HTML shows a badge). */
  | { kind: 'severity'; text: string; level: string }
  /** A review state (HTML shows a badge). */
  | { kind: 'state'; state: ReviewState; text: string }
  /** A field's value before (the model's) or after (the auditor's) an edit. */
  | { kind: 'edit'; side: 'original' | 'effective'; text: string }
  /** The evidence inside its context words. */
  | { kind: 'mark'; text: string }
  /** Text with a role a format may style (the reviewer, a reject reason, an OCR note, a page label, a digest). */
  | { kind: 'part'; role: 'reviewer' | 'reject-reason' | 'ocr' | 'ocr-low' | 'page' | 'digest'; text: string }
  /** A link inside the report. */
  | { kind: 'link'; anchor: string; text: string };

export type Sentence = readonly Span[];

/** A labelled value: a line of a document's facts, of the run header, of the settings appendix. */
export interface Fact {
  label: string;
  value: Sentence;
}

export interface Table {
  head: readonly string[];
  rows: readonly (readonly Sentence[])[];
}

/** A note under a section heading: a quiet remark, or a warning the reader must see. */
export interface Note {
  text: string;
  tone: 'note' | 'warning';
}

/** A section of a document: heading with its count, a note, and either its content or what to say when it is empty. */
export interface Section<Key extends string> {
  key: Key;
  heading: string;
  /** The contents entry (HTML), with the same count as the heading. */
  tocLabel: string;
  /** Listed apart from the findings: what the analysis left out or could not verify. */
  apart: boolean;
  note: Note | null;
  /** What the section says when it holds nothing ("None."); null when it holds something. */
  empty: string | null;
}

export interface ListSection<Key extends string> extends Section<Key> {
  items: readonly Sentence[];
}

export interface ReportModel {
  /** "Audit report: run 7": the page title and footer. */
  title: string;
  heading: string;
  /** The documents read, by name (the HTML subtitle). */
  documentNames: string;
  appVersion: string;
  generatedAt: string;
  header: readonly Fact[];
  notices: readonly { key: 'rules-only' | 'confirmed-only' | 'simulated'; text: string }[];
  /** Full mode only: the counts a reader needs first. */
  executiveSummary: ExecutiveSummary | null;
  inputs: { heading: string; table: Table };
  problems: { heading: string; items: readonly Problem[] } | null;
  documents: readonly DocumentModel[];
  conversations: ConversationsModel | null;
  settings: SettingsModel;
  outline: OutlineModel;
  footer: Sentence;
}

export interface Problem {
  file: string;
  code: string;
  message: string;
  /** The input failed (an error), rather than being read with a warning. */
  failed: boolean;
}

export interface ExecutiveSummary {
  heading: string;
  /** Every count of the summary, each taken from the documents' own lists. */
  counts: { findings: number; grounded: number; ungrounded: number; documents: number; unreviewedIds: number; problems: number; review: ReviewCountsOf | null };
  findingsSentence: Sentence;
  bySeverity: Table | null;
  reviewSentence: string | null;
  unreviewedSentence: string | null;
  problemsSentence: Sentence | null;
}

export interface DocumentModel {
  /** 1-based position among the inputs: the document's anchors are doc-<n>-<section>. */
  n: number;
  documentId: number;
  fileName: string;
  facts: readonly Fact[];
  completeness: CompletenessModel | null;
  /** Rules-only runs: why the document has no findings sections. */
  rulesOnlyNote: string | null;
  summary: (Section<'summary'> & { text: string | null }) | null;
  review: ReviewModel | null;
  findings: FindingsSection<'findings'> | null;
  ungrounded: FindingsSection<'ungrounded'> | null;
  conflicts: ListSection<'conflicts'> | null;
  unreviewed: ListSection<'unreviewed'> | null;
  noText: Section<'no-text'> & { sentence: string | null };
  ocr: (Section<'ocr'> & { sentence: string; low: boolean }) | null;
  unreadable: ListSection<'unreadable'> | null;
  failed: ListSection<'failed'> | null;
  mentions: Section<'mentions'> & { table: Table };
}

export interface CompletenessModel extends Section<'completeness'> {
  status: CompletenessStatus;
  tallies: Table & { differs: readonly boolean[] };
  statedSource: string;
  /** Findings known only from their listed row, in a sentence (none: null). */
  onlyListedNote: string | null;
  listings: readonly string[];
  places: { heading: string; items: readonly { kind: CheckPlaceKind; page: Span | null; message: string }[] } | null;
  picturePagesNote: string | null;
}

export interface FindingsSection<Key extends string> extends Section<Key> {
  table: FindingTable;
  entries: readonly FindingEntry[];
}

const FINDING_TABLE_HEAD = ['ID', 'Title', 'Severity', 'Type', 'Pages', 'Grounded', 'Review'] as const;

export interface FindingTable {
  head: readonly string[];
  /** Each row's cells, in the order of `head`, and the finding it stands for (its severity class on the scale). */
  rows: readonly { findingId: number; level: string; cells: readonly Sentence[] }[];
}

/** One merged finding in full: its facts, review, description and every source. */
export interface FindingEntry {
  findingId: number;
  grounded: boolean;
  level: string;
  /** The ID printed in the document, shown before the title (null when the document prints none). */
  key: string | null;
  title: string;
  facts: readonly Fact[];
  reviews: readonly ReviewBlock[];
  description: string;
  sourcesLabel: string;
  sources: readonly SourceEntry[];
}

export interface SourceEntry {
  page: number | null;
  found: boolean;
  where: Sentence;
  evidence: string;
  /** "In the document: …before <evidence> after…"; null when the quote was not found. */
  context: Sentence | null;
}

/** One reviewed finding's review: state, last change, each edit beside the model's value, notes. */
export interface ReviewBlock {
  reviewId: number;
  state: ReviewState;
  stateLine: Sentence;
  /** "Edited title: model “…” → auditor “…”", one per edited field. */
  edits: readonly { field: string; sentence: Sentence }[];
  notes: readonly Sentence[];
  warnings: readonly string[];
}

export interface ReviewModel extends Section<'review'> {
  counts: ReviewCountsOf;
  countsSentence: string;
  confirmedOnlyNote: string | null;
  table: Table & { rows: readonly (readonly Sentence[])[]; findings: readonly { reviewId: number; state: ReviewState; origin: string }[] };
  /** Reviewed findings the findings below do not show (added by the auditor, no longer reported), in full. */
  entries: readonly ReviewEntry[];
}

export interface ReviewEntry {
  reviewId: number;
  manual: boolean;
  heading: string;
  facts: readonly Fact[];
  description: string;
  evidence: string | null;
  review: ReviewBlock;
}

export interface ConversationsModel {
  heading: string;
  note: string;
  conversations: readonly ConversationModel[];
}

export interface ConversationModel {
  id: number;
  title: string;
  /** "Conversation 4, asked about handbook.md, last updated …." */
  meta: Sentence;
  messages: readonly (
    | { role: 'user'; text: string }
    | { role: 'assistant'; text: string; marked: string | null; note: string | null; citations: readonly { n: number; text: string }[] }
  )[];
}

export interface SettingsModel {
  heading: string;
  facts: readonly Fact[];
  /** Every model the run used with its digest: listed after `facts`, before `factsAfterModels`. */
  models: { label: string; items: readonly { name: string; line: Sentence }[] } | null;
  factsAfterModels: readonly Fact[];
  usageByModel: Table | null;
}

export interface OutlineModel {
  heading: string;
  note: string;
  documents: readonly { n: number; fileName: string; empty: string | null; entries: readonly { depth: number; title: string; pages: string }[] }[];
}

export interface ModelOptions {
  /** Depth of the chunk tree in the outline appendix (1 = top-level sections). */
  outlineDepth?: number;
}

const NONE = 'None.';
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const time = (iso: string | null | undefined, missing?: string): Span => ({ kind: 'time', iso: iso ?? null, text: readableTime(iso, missing) });
const code = (text: string): Span => ({ kind: 'code', text });

export function buildReportModel(data: ReportData, options: ModelOptions = {}): ReportModel {
  const depth = options.outlineDepth ?? DEFAULT_OUTLINE_DEPTH;
  const full = isFullMode(data);
  const profile = profileOf(data);
  const documents = data.inputs.flatMap((input, i) => (input.document ? [documentModel(input, input.document, i + 1, full, profile)] : []));
  // A picture-only page is noted quietly in its document's section, never a problem of the audit (trial row 10).
  const problemInputs = data.inputs.filter((input) => input.error || problemWarnings(input.warnings).length > 0);
  const title = `Audit report: run ${data.run.id}`;
  const simulator = data.runInfo.llm?.simulator ?? null;
  return {
    title,
    heading: 'Audit report',
    documentNames: documents.map((d) => d.fileName).join(', ') || 'No document was read',
    appVersion: data.appVersion,
    generatedAt: data.generatedAt,
    header: [
      { label: 'Run', value: [`${data.run.id} (${data.run.mode}), status ${data.run.status}`] },
      { label: 'Generated', value: [time(data.generatedAt), ` by Offline Audit ${data.appVersion}`] },
    ],
    notices: [
      // A run against a stand-in says so first: its findings are scripted, not a model's (shared/simulator.ts).
      ...(simulator ? [{ key: 'simulated' as const, text: simulatorNotice(simulator) }] : []),
      ...(full ? [] : [{ key: 'rules-only' as const, text: RULES_ONLY_NOTE }]),
      ...(data.confirmedOnly ? [{ key: 'confirmed-only' as const, text: CONFIRMED_ONLY_NOTE }] : []),
    ],
    executiveSummary: full ? executiveSummary(data, profile, problemInputs.length) : null,
    inputs: {
      heading: 'Inputs',
      table: {
        head: ['#', 'File', 'Status', 'Pages', 'sha256'],
        rows: data.inputs.map((input, i) => {
          const doc = input.document?.document;
          return [
            [String(i + 1)],
            [baseName(input.filePath)],
            [input.status],
            [doc ? String(doc.pageCount) : ''],
            doc ? [{ kind: 'code', text: doc.sha256, hash: true }] : [],
          ];
        }),
      },
    },
    problems:
      problemInputs.length === 0
        ? null
        : {
            heading: 'Problems',
            items: problemInputs.flatMap((input): Problem[] => [
              ...(input.error ? [{ file: baseName(input.filePath), code: input.error.code, message: input.error.message, failed: true }] : []),
              ...problemWarnings(input.warnings).map((w) => ({ file: baseName(input.filePath), code: w.code, message: w.message, failed: false })),
            ]),
          },
    documents,
    conversations: conversationsModel(data),
    settings: settingsModel(data),
    outline: {
      heading: 'Appendix: document outlines',
      note: `The chunk tree of each document, to depth ${depth}.`,
      documents: documents.map((d) => {
        const entries = outlineEntries(data.inputs[d.n - 1]!.document!.nodes, depth);
        return {
          n: d.n,
          fileName: d.fileName,
          empty: entries.length === 0 ? 'No chunk tree was built for this document.' : null,
          entries: entries.map((e) => ({ depth: e.depth, title: e.node.title, pages: `${pageSpan(e.node)}${e.node.isLeaf ? '' : `, ${e.leaves} chunks`}` })),
        };
      }),
    },
    footer: [`${title}. Generated `, time(data.generatedAt), ` by Offline Audit ${data.appVersion}.`],
  };
}

/**
 * What a reader needs first: findings by severity, how many are grounded in the text, where the review
 * stands (the states add up to the total), and what the analysis left out.
 */
function executiveSummary(data: ReportData, profile: ExtractionProfile, problems: number): ExecutiveSummary {
  const docs = data.inputs.flatMap((input) => (input.document ? [input.document] : []));
  const findings = docs.flatMap((d) => d.findings);
  const grounded = findings.filter((f) => f.grounded).length;
  const bySeverity = new Map<string, number>();
  for (const f of findings) bySeverity.set(f.severityCanonical ?? f.severity, (bySeverity.get(f.severityCanonical ?? f.severity) ?? 0) + 1);
  const order = [...profile.severities, ...[...bySeverity.keys()].filter((s) => !profile.severities.includes(s))].filter((s) => bySeverity.has(s));
  const reviews = docs.flatMap((d) => (d.review ? [d.review.counts] : []));
  const review = reviews.length > 0 ? sumReviewCounts(reviews) : null;
  const unreviewedIds = docs.reduce((total, d) => total + d.unreviewedMentions.length, 0);
  const share = findings.length === 0 ? '' : ` (${Math.round((grounded / findings.length) * 100)}%)`;
  const ungrounded = findings.length - grounded;
  return {
    heading: 'Executive summary',
    counts: { findings: findings.length, grounded, ungrounded, documents: docs.length, unreviewedIds, problems, review },
    findingsSentence: [
      `${plural(findings.length, 'finding')} in ${plural(docs.length, 'document')}; ${grounded} grounded in the source text${share}${ungrounded > 0 ? `, ${ungrounded} not found in the text (listed apart, not verified)` : ''}.`,
    ],
    bySeverity: order.length > 0 ? { head: ['Severity', 'Findings'], rows: order.map((s) => [[s], [String(bySeverity.get(s) ?? 0)]]) } : null,
    reviewSentence: review ? `Review: ${reviewCountsText(review)}.` : null,
    unreviewedSentence:
      unreviewedIds > 0 ? `${plural(unreviewedIds, 'ID')} mentioned in the documents no finding covers: read those places (listed per document).` : null,
    problemsSentence: problems > 0 ? [`${plural(problems, 'input')} with problems: see `, { kind: 'link', anchor: 'problems', text: 'Problems' }, '.'] : null,
  };
}

/** A summary naming IDs no verified finding has is marked, as ungrounded findings are. */
function summaryNote(summary: ReportDocument['summary']): Note | null {
  if (!summary || summary.ungroundedIds.length === 0) return null;
  return { text: `${SECTION_TEXT.summaryIdsNote} ${summary.ungroundedIds.join(', ')}.`, tone: 'warning' };
}

function section<Key extends string>(
  key: Key,
  heading: string,
  options: { toc?: string; apart?: boolean; note?: Note | null; empty?: string | null } = {},
): Section<Key> {
  return { key, heading, tocLabel: options.toc ?? heading, apart: options.apart ?? false, note: options.note ?? null, empty: options.empty ?? null };
}

function documentModel(input: ReportInput, doc: ReportDocument, n: number, full: boolean, profile: ExtractionProfile): DocumentModel {
  const leaves = doc.nodes.filter((node) => node.isLeaf).length;
  return {
    n,
    documentId: doc.document.id,
    fileName: doc.document.fileName,
    facts: [
      { label: 'File', value: [baseName(input.filePath)] },
      { label: 'sha256', value: [{ kind: 'code', text: doc.document.sha256, hash: true }] },
      { label: 'Pages', value: [String(doc.document.pageCount)] },
      { label: 'Status', value: [input.status] },
      { label: 'Chunking', value: [`${chunkingText(doc.strategy, doc.judge)} (${leaves} chunks)`] },
      ...(full ? [{ label: 'LLM usage', value: [formatUsage(doc.usage)] }] : []),
    ],
    completeness: doc.completeness ? completenessModel(doc) : null,
    rulesOnlyNote: full ? null : 'Rules-only run: no findings for this document, only the ID mentions below.',
    ...analysisSections(doc, full, profile),
    ...readingSections(doc),
    failed: full
      ? {
          ...section('failed', `Chunks that failed analysis (${doc.failedChunks.length})`, {
            apart: true,
            note: doc.failedChunks.length > 0 ? { text: SECTION_TEXT.failedNote, tone: 'warning' } : null,
            empty: doc.failedChunks.length === 0 ? NONE : null,
          }),
          items: doc.failedChunks.map((c) => [`${c.title} (${pagesOf(c.pageStart, c.pageEnd)}): `, code(c.error.code), `: ${c.error.message}`]),
        }
      : null,
    mentions: {
      ...section('mentions', `ID mentions (${doc.mentionGroups.length} distinct IDs)`, {
        toc: `ID mentions (${doc.mentionGroups.length})`,
        empty: doc.mentionGroups.length > 0 ? null : input.status === 'done' ? 'No ID matching the configured patterns was found.' : 'Not analysed.',
      }),
      table: {
        head: ['ID', 'Pages', 'Mentions'],
        rows: doc.mentionGroups.map((g) => [[code(g.id)], [formatPageRanges(g.pages)], [String(g.mentions.length)]]),
      },
    },
  };
}

/** What the model found and what the rules left for the auditor: summary, review, findings, ungrounded, conflicts, unreviewed IDs. */
function analysisSections(
  doc: ReportDocument,
  full: boolean,
  profile: ExtractionProfile,
): Pick<DocumentModel, 'summary' | 'review' | 'findings' | 'ungrounded' | 'conflicts' | 'unreviewed'> {
  const verified = doc.findings.filter((f) => f.grounded);
  const notShown = doc.findings.filter((f) => !f.grounded);
  return {
    summary: full
      ? {
          ...section('summary', 'Summary', { note: summaryNote(doc.summary), empty: doc.summary ? null : 'No summary was written for this document.' }),
          text: doc.summary?.text ?? null,
        }
      : null,
    review: full && doc.review ? reviewModel(doc, doc.review) : null,
    findings: full
      ? {
          ...section('findings', `Findings (${verified.length})`, {
            note: { text: `${SECTION_TEXT.findings}.`, tone: 'note' },
            empty: verified.length === 0 ? 'No grounded finding.' : null,
          }),
          table: findingTable(verified, profile),
          entries: verified.map((f) => findingEntry(f, profile)),
        }
      : null,
    ungrounded: full
      ? {
          ...section('ungrounded', `Ungrounded findings (${notShown.length})`, {
            apart: true,
            note: { text: SECTION_TEXT.ungroundedNote, tone: 'warning' },
            empty: notShown.length === 0 ? NONE : null,
          }),
          table: findingTable(notShown, profile),
          entries: notShown.map((f) => findingEntry(f, profile)),
        }
      : null,
    conflicts:
      full && doc.mergeConflicts.length > 0
        ? {
            ...section('conflicts', `Merge conflicts (${doc.mergeConflicts.length})`, {
              apart: true,
              note: { text: 'The document gives these the same ID or number, but they are different findings.', tone: 'note' },
            }),
            items: doc.mergeConflicts.map((c) => [conflictText(c)]),
          }
        : null,
    unreviewed: full
      ? {
          ...section('unreviewed', `Unreviewed ID mentions (${doc.unreviewedMentions.length})`, {
            apart: true,
            note: { text: SECTION_TEXT.unreviewedNote, tone: 'note' },
            empty: doc.unreviewedMentions.length === 0 ? NONE : null,
          }),
          items: doc.unreviewedMentions.map((m) => [code(m.id), `: pages ${formatPageRanges(m.pages)}`]),
        }
      : null,
  };
}

/** How the pages were read: without a text layer, by OCR, not at all. */
function readingSections(doc: ReportDocument): Pick<DocumentModel, 'noText' | 'ocr' | 'unreadable'> {
  const lowOcr = doc.ocrPages.filter((p) => p.low).length;
  const noText = doc.pagesWithoutText.length;
  return {
    noText: {
      ...section('no-text', `Pages without a text layer (${noText})`, { apart: true, empty: noText === 0 ? NONE : null }),
      sentence: noText === 0 ? null : `Pages ${formatPageRanges(doc.pagesWithoutText)}. ${SECTION_TEXT.noTextExplain}`,
    },
    ocr:
      doc.ocrPages.length > 0
        ? {
            ...section('ocr', `Pages read by OCR (${doc.ocrPages.length}${lowOcr > 0 ? `, ${lowOcr} low confidence` : ''})`, { apart: true }),
            sentence: `Pages ${ocrPageList(doc.ocrPages)}. ${SECTION_TEXT.ocrExplain}`,
            low: lowOcr > 0,
          }
        : null,
    unreadable:
      doc.unreadablePages.length > 0
        ? {
            ...section('unreadable', `Unreadable pages (${doc.unreadablePages.length})`, {
              apart: true,
              note: { text: SECTION_TEXT.unreadableExplain, tone: 'warning' },
            }),
            items: doc.unreadablePages.map(({ page, reason }) => [`Page ${page}: ${reason}`]),
          }
        : null,
  };
}

/** Stated vs found per severity, the document's own lists, and every place to check with its page. */
function completenessModel(doc: ReportDocument): CompletenessModel {
  const verdict = doc.completeness!;
  const rows = tallyRows(verdict);
  const heading = `Completeness: ${verdict.headline}`;
  return {
    ...section('completeness', heading),
    status: verdict.status,
    tallies: {
      head: ['Severity', 'Stated by the document', 'Listed in its summary table', 'Found'],
      rows: rows.map((row) => [
        [row.severity],
        [row.stated],
        [row.listed],
        [`${row.found}${row.agrees ? '' : ' (differs)'}${row.onlyListed > 0 ? `, and ${row.onlyListed} only listed` : ''}`],
      ]),
      differs: rows.map((row) => !row.agrees),
    },
    statedSource: statedSource(verdict),
    onlyListedNote: onlyListedNote(verdict),
    listings: listingLines(verdict),
    places:
      verdict.places.length > 0
        ? {
            heading: `Places to check (${verdict.places.length}):`,
            items: verdict.places.map((p) => ({
              kind: p.kind,
              page: p.page === null ? null : { kind: 'part', role: 'page', text: `Page ${p.page}` },
              message: p.message,
            })),
          }
        : null,
    picturePagesNote: doc.picturePagesNote,
  };
}

function findingTable(findings: readonly ReportFinding[], profile: ExtractionProfile): FindingTable {
  return {
    head: FINDING_TABLE_HEAD,
    rows: findings.map((f) => {
      const v = shownValues(f, profile);
      return {
        findingId: f.id,
        level: severityClass(v),
        cells: [
          [{ kind: 'code', text: idLabel(f), idOrigin: idOriginOf(f) }],
          [{ kind: 'link', anchor: `finding-${f.id}`, text: v.title }, ...(v.edited ? [' (edited)'] : [])],
          [{ kind: 'severity', text: severityLabel(v), level: severityClass(v) }],
          [v.type],
          [findingPages(f)],
          [f.grounded ? 'yes' : { kind: 'strong', text: 'NO' }],
          // The state is marked (a rejected one struck through); the reason beside it stays readable.
          f.review.length === 0
            ? ['not reviewed']
            : f.review.flatMap((r, i): Span[] => [
                ...(i > 0 ? ['; '] : []),
                { kind: 'state', state: r.state, text: `${r.label} ${REVIEW_STATE_LABEL[r.state]}` },
                ...(r.state === 'rejected' && r.rejectReason ? [`: ${r.rejectReason}`] : []),
              ]),
        ],
      };
    }),
  };
}

function findingEntry(f: ReportFinding, profile: ExtractionProfile): FindingEntry {
  const v = shownValues(f, profile);
  const origin = idOriginOf(f);
  return {
    findingId: f.id,
    grounded: f.grounded,
    level: severityClass(v),
    key: origin === 'document' ? idLabel(f) : null,
    title: v.title,
    facts: [
      { label: 'ID', value: [{ kind: 'code', text: idLabel(f), idOrigin: origin }, ` (${idOriginText(f)})`] },
      { label: 'Severity', value: [{ kind: 'severity', text: severityLabel(v), level: severityClass(v) }] },
      { label: 'type', value: [v.type] },
      { label: 'pages', value: [findingPages(f) || 'unknown'] },
      { label: 'main page', value: [mainPageText(f)] },
      { label: 'grounded', value: [f.grounded ? 'yes' : { kind: 'strong', text: 'NO' }] },
    ],
    reviews: f.review.map(reviewBlock),
    description: v.description,
    sourcesLabel: sourcesLabel(f),
    sources: foldedSources(f.sources).map(({ source: s, repeats }) => ({
      page: s.page,
      found: s.grounded,
      where: [
        `${sourcePage(s)}${s.isMain ? ' (main)' : ''}`,
        ...(s.ocr ? [' ', { kind: 'part', role: s.ocr.low ? 'ocr-low' : 'ocr', text: `(${ocrNote(s.ocr)})` } as const] : []),
        ', ',
        s.grounded ? `found (${s.match ?? 'exact'})` : { kind: 'strong', text: 'not found in the text' },
        `, chunk ${s.nodeIndex}`,
        ...(repeats.length > 0 ? [`; +${repeats.length} ${repeats.length === 1 ? 'repeat' : 'repeats'} of the same quote`] : []),
      ],
      evidence: s.evidence,
      context:
        s.documentText === null ? null : ['In the document: …', s.contextBefore ?? '', { kind: 'mark', text: s.documentText }, s.contextAfter ?? '', '…'],
    })),
  };
}

type ReportSource = ReportFinding['sources'][number];

/**
 * A finding's sources with the same quote seen again folded into the first (overlapping chunks, a model repeating a
 * title it was shown 60 times): each place is listed once with its repeats counted, so a report of 145 findings
 * stays readable (trial 2026-11-28 row 21: 304 PDF pages). The main source's quote comes first.
 */
function foldedSources(sources: readonly ReportSource[]): { source: ReportSource; repeats: ReportSource[] }[] {
  const groups = new Map<string, { source: ReportSource; repeats: ReportSource[] }>();
  for (const s of [...sources].sort((a, b) => Number(b.isMain) - Number(a.isMain))) {
    const key = `${s.grounded ? 'found' : 'not found'}|${s.evidence.replace(/\s+/g, ' ').trim().toLowerCase()}`;
    const group = groups.get(key);
    if (group) group.repeats.push(s);
    else groups.set(key, { source: s, repeats: [] });
  }
  return [...groups.values()];
}

/**
 * "Sources (3):", "Sources (3, +64 repeats):" when quotes repeat, and how many more sightings the merge joined that the
 * text does not show (not listed).
 */
function sourcesLabel(f: ReportFinding): string {
  const places = foldedSources(f.sources).length;
  const repeats = f.sources.length - places;
  const unfound = f.unfoundSightings ?? 0;
  const repeated = repeats > 0 ? `, +${repeats} ${repeats === 1 ? 'repeat' : 'repeats'}` : '';
  const notListed = unfound > 0 ? `; ${unfound} more sighting${unfound === 1 ? '' : 's'} not found in the text, not listed` : '';
  return `Sources (${places}${repeated}${notListed}):`;
}

function reviewBlock(r: ReviewExportFinding): ReviewBlock {
  const by = reviewedBy(r);
  return {
    reviewId: r.reviewId,
    state: r.state,
    stateLine: [
      `Review ${r.label}: `,
      { kind: 'state', state: r.state, text: REVIEW_STATE_LABEL[r.state] },
      ...(r.state === 'rejected' && r.rejectReason ? [' · ', { kind: 'part', role: 'reject-reason', text: `Reason: ${r.rejectReason}` } as const] : []),
      ' · ',
      ...(by
        ? ['last change by ', { kind: 'part', role: 'reviewer', text: r.lastReviewer! } as const, ', ', time(r.lastChangedAt)]
        : ['no auditor change yet']),
    ],
    edits: r.edits.map((e) => ({
      field: e.field,
      sentence: [
        `Edited ${e.field}: model “`,
        { kind: 'edit', side: 'original', text: e.original },
        '” → auditor “',
        { kind: 'edit', side: 'effective', text: e.effective },
        '”',
      ],
    })),
    notes: r.notes.map((note) => ['Note by ', { kind: 'part', role: 'reviewer', text: note.reviewer }, ', ', time(note.at), `: ${note.text}`]),
    warnings: [
      ...(r.changedFields.length > 0 ? [`The latest run reports other values for: ${r.changedFields.join(', ')} (not yet acknowledged).`] : []),
      ...(r.vanished ? ['The latest run no longer reports this finding.'] : []),
    ],
  };
}

function reviewModel(doc: ReportDocument, review: ReportReview): ReviewModel {
  const listed = new Set(doc.findings.map((f) => f.id));
  const byId = new Map(doc.findings.map((f) => [f.id, f]));
  // The ID the document prints for the finding ("TOB-PE-3", or its number "No. 7.3.5"), as the app shows it.
  const printedId = (r: ReportReviewFinding): string => {
    if (r.findingKey) return r.findingKey;
    const merged = r.mergedIds.map((id) => byId.get(id)).find((f) => f !== undefined);
    return merged && idOriginOf(merged) === 'document' ? idLabel(merged) : '—';
  };
  const c = review.counts;
  return {
    ...section('review', 'Review', {
      toc: `Review (${reviewCountsShort(c)})`,
      empty: review.findings.length > 0 ? null : review.confirmedOnly ? 'No finding was confirmed.' : 'No finding to review.',
    }),
    counts: c,
    countsSentence: reviewCountsText(c),
    confirmedOnlyNote: review.confirmedOnly ? 'Only confirmed findings are listed; the counts cover every finding.' : null,
    table: {
      head: ['Review', 'ID', 'Title', 'Severity', 'State', 'Last change'],
      rows: review.findings.map((r) => [
        [r.label],
        [code(printedId(r))],
        [`${r.effective.title}${r.edits.length > 0 ? ' (edited)' : ''}${r.origin === 'manual' ? ' (added by the auditor)' : ''}`],
        [r.effective.severity || '— unrated'],
        [stateText(r)],
        [reviewedBy(r) ?? '—'],
      ]),
      findings: review.findings.map((r) => ({ reviewId: r.reviewId, state: r.state, origin: r.origin })),
    },
    // Findings the auditor added, and findings no merged finding of this report stands for any more, have no
    // entry below: they are shown here in full.
    entries: review.findings.filter((r) => !r.mergedIds.some((id) => listed.has(id))).map(reviewEntry),
  };
}

function reviewEntry(r: ReportReviewFinding): ReviewEntry {
  const manual = r.origin === 'manual';
  const page = r.manualEvidence?.page ?? r.mainPage;
  return {
    reviewId: r.reviewId,
    manual,
    heading: `${r.label}: ${r.effective.title}${manual ? ' (added by the auditor)' : ''}`,
    facts: [
      { label: 'Severity', value: [r.effective.severity] },
      { label: 'type', value: [r.effective.type] },
      { label: 'page', value: [page === null ? 'unknown' : String(page)] },
    ],
    description: r.effective.description,
    evidence: r.manualEvidence?.text ?? null,
    review: reviewBlock(r),
  };
}

function conversationsModel(data: ReportData): ConversationsModel | null {
  if (data.conversations.length === 0) return null;
  const names = documentNames(data);
  return { heading: 'Questions and answers', note: CONVERSATIONS_NOTE, conversations: data.conversations.map((c) => conversationModel(c, names)) };
}

/** The questions and answers of one conversation (in a report, or exported on its own). */
export function conversationModel(conversation: StoredConversation, names: ReadonlyMap<number, string> = new Map()): ConversationModel {
  return {
    id: conversation.summary.id,
    title: conversation.summary.title,
    meta: [`Conversation ${conversation.summary.id}, ${conversationScopeText(conversation, names)}, last updated `, time(conversation.summary.updatedAt), '.'],
    messages: conversation.messages.map((m) =>
      m.role === 'user'
        ? { role: 'user' as const, text: m.text }
        : {
            role: 'assistant' as const,
            text: m.text,
            marked: m.answer?.marked ? markedNote(m.answer) : null,
            note: m.answer?.exhaustiveNote || null,
            citations: (m.answer?.citations ?? []).map((c) => ({ n: c.n, text: citationLine(c) })),
          },
    ),
  };
}

function settingsModel(data: ReportData): SettingsModel {
  const info = data.runInfo;
  const simulator = info.llm?.simulator ?? null;
  const chunking =
    info.strategyChoice === 'auto'
      ? info.judgeEnabled
        ? 'auto: the LLM judge chooses per document'
        : 'auto: chosen from the document structure, no judge'
      : `${info.strategyChoice} (set by the user)`;
  const llm: Fact[] = info.llm
    ? [
        {
          label: 'Models',
          value: Object.entries(info.llm.models).flatMap(([stage, model], i): Span[] => [
            ...(i > 0 ? [', '] : []),
            `${stage}: `,
            code(model),
            ...(simulator ? [SIMULATED_SUFFIX] : []),
          ]),
        },
        { label: 'num_ctx', value: [`${info.llm.numCtx ?? 'unknown'} (chunk budget ${info.llm.chunkTokenBudget ?? 'unknown'} tokens)`] },
        { label: 'LLM server', value: [info.llm.description] },
      ]
    : data.run.mode === 'full'
      ? [{ label: 'Models', value: ['not recorded: the run stopped before the language model was reached'] }]
      : [];
  return {
    heading: 'Appendix: how this analysis was made',
    facts: [{ label: 'Profile', value: [info.profileName ?? 'default'] }, { label: 'Chunking', value: [chunking] }, ...llm],
    factsAfterModels: [
      {
        label: 'Run duration',
        value: [`${formatDuration(info.durationMs)} (started `, time(data.run.startedAt, 'never'), ', finished ', time(data.run.finishedAt, 'not yet'), ')'],
      },
      { label: 'LLM usage', value: [formatUsage(info.usage)] },
    ],
    models:
      info.models.length > 0
        ? {
            label: 'Model digests (as Ollama listed them for this run)',
            items: info.models.map((m) => ({
              name: m.name,
              line: [
                `${m.stage}: `,
                code(m.name),
                ...(simulator ? [SIMULATED_SUFFIX] : []),
                ' (digest ',
                m.digest ? { kind: 'code', text: m.digest, hash: true } : { kind: 'part', role: 'digest', text: 'not recorded' },
                ')',
              ],
            })),
          }
        : null,
    usageByModel:
      info.usage.byModel.length > 0
        ? {
            head: ['Model', 'Calls', 'Prompt tokens', 'Generated tokens', 'Model time'],
            rows: info.usage.byModel.map((m) => [
              [code(m.model), ...(simulator ? [SIMULATED_SUFFIX] : [])],
              [String(m.calls)],
              [String(m.promptTokens)],
              [String(m.evalTokens)],
              [formatDuration(m.llmMs)],
            ]),
          }
        : null,
  };
}

/** Every section of a document in the order both formats show them (absent ones left out). */
export function documentSections(doc: DocumentModel): Section<string>[] {
  return [
    doc.completeness,
    doc.summary,
    doc.review,
    doc.findings,
    doc.ungrounded,
    doc.conflicts,
    doc.unreviewed,
    doc.noText,
    doc.ocr,
    doc.unreadable,
    doc.failed,
    doc.mentions,
  ].filter((s): s is NonNullable<typeof s> => s !== null);
}

/** The text of a sentence, every part in its own words (for comparing formats, and plain-text places). */
export function sentenceText(sentence: Sentence): string {
  return sentence.map((span) => (typeof span === 'string' ? span : span.text)).join('');
}

export function pageSpan(node: Pick<ChunkNode, 'pageStart' | 'pageEnd'>): string {
  return node.pageStart === node.pageEnd ? `p. ${node.pageStart}` : `pp. ${node.pageStart}-${node.pageEnd}`;
}

export interface OutlineEntry {
  node: ChunkNode;
  /** 1 = child of the root. */
  depth: number;
  /** Leaves (analysed chunks) under this node; 1 for a leaf. */
  leaves: number;
}

/**
 * The chunk tree below the root, to `depth` levels, in document order. A
 * section's first leaf often repeats its title at the same place (the text
 * between the heading and its first sub-heading): shown once, as the section.
 */
export function outlineEntries(nodes: readonly ChunkNode[], depth: number): OutlineEntry[] {
  const depthOf = new Map<number, number>();
  const leaves = new Map<number, number>();
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!;
    const own = node.isLeaf ? 1 : (leaves.get(node.index) ?? 0);
    leaves.set(node.index, own);
    if (node.parentIndex !== null) leaves.set(node.parentIndex, (leaves.get(node.parentIndex) ?? 0) + own);
  }
  const out: OutlineEntry[] = [];
  for (const node of nodes) {
    // Pre-order storage: a parent is always seen before its children.
    const d = node.parentIndex === null ? 0 : (depthOf.get(node.parentIndex) ?? 0) + 1;
    depthOf.set(node.index, d);
    if (d < 1 || d > depth) continue;
    const parent = node.parentIndex === null ? undefined : nodes[node.parentIndex];
    if (parent && parent.title === node.title && parent.start === node.start) continue;
    out.push({ node, depth: d, leaves: leaves.get(node.index) ?? 0 });
  }
  return out;
}

/**
 * Sections from the document's own structure (outline, headings or the LLM
 * tree split), leaf or not, to a section level.
 */
export function outlineSections(nodes: readonly ChunkNode[], depth: number): ChunkNode[] {
  return nodes.filter((node) => {
    if (node.origin !== 'outline' && node.origin !== 'heading' && node.origin !== 'llm') return false;
    if (node.section.level < 1 || node.section.level > depth) return false;
    const parent = node.parentIndex === null ? undefined : nodes[node.parentIndex];
    return !(parent && parent.title === node.title && parent.start === node.start);
  });
}
