/**
 * Re-audit comparison (issue 30): the findings of an earlier and a later
 * version of a report (an audit and its fix review, two rounds of a report,
 * last year's and this year's audit) paired, labelled, and shown with the
 * status the later document states for each. Shared by the engine
 * (electron/engine/compare), the CLI, the exporters and the renderer.
 */

/**
 * What a pair says about a finding from one version to the next.
 * - still_present: in both, same severity and title
 * - severity_changed / title_changed: in both, changed (severity wins when both changed; `changes` lists all)
 * - no_longer_present: only in the earlier version
 * - new: only in the later version
 */
export const COMPARE_LABELS = ['still_present', 'no_longer_present', 'new', 'severity_changed', 'title_changed'] as const;
export type CompareLabel = (typeof COMPARE_LABELS)[number];

export const COMPARE_LABEL_TEXT: Readonly<Record<CompareLabel, string>> = {
  still_present: 'Still present',
  no_longer_present: 'No longer present',
  new: 'New',
  severity_changed: 'Severity changed',
  title_changed: 'Title changed',
};

/**
 * Which rule paired the two sides.
 * - printed-id: both print the same finding ID
 * - number-title: same printed number and a similar title
 * - similarity: title and evidence similarity (never between siblings, see pairing.ts)
 * - status-row: the later document names the earlier finding's ID only in a status line or table row
 * - auditor: confirmed by the auditor from a candidate
 */
export type PairRule = 'printed-id' | 'number-title' | 'similarity' | 'status-row' | 'auditor';

/** Where the stated status was read: a table row naming the finding, a "Status:" style line in its section, or a grounded model answer. */
export type StatusSource = 'table-row' | 'section-line' | 'model';

/**
 * How a stated status counts in the summary. The words stay the document's; this is only for counting:
 * resolved (Resolved, Fixed, Mitigated, Addressed, Closed), partial (Partially ...), open (Unresolved, Not
 * fixed, Open), accepted (Acknowledged, Risk accepted, Won't fix), unknown (anything else, e.g. Undetermined).
 */
export type StatusCategory = 'resolved' | 'partial' | 'open' | 'accepted' | 'unknown';

export interface StatedStatus {
  /** The status exactly as the document words it ("Resolved", "Partially Resolved", "Fixed"). */
  text: string;
  category: StatusCategory;
  /** The words quoted from the later document (the table row or the status line), found at `start`..`end`. */
  quote: string;
  page: number;
  start: number;
  end: number;
  source: StatusSource;
}

export interface CompareSide {
  /** The finding ID the document prints, or null. */
  id: string | null;
  /** The number printed before the title ("7", "3.2"), when any. */
  number: string | null;
  title: string;
  severity: string | null;
  /** Pages where the finding is stated, the main one first. */
  pages: number[];
  /** The main evidence quote and its page. */
  quote: string;
  page: number | null;
  /** The merged finding this side is (null for a side read from ID mentions or a status row). */
  mergedId: number | null;
  /** Offsets of the quote in the document's canonical text, when grounded. */
  start: number | null;
  end: number | null;
}

export interface AuditorNote {
  reviewer: string;
  at: string;
  text: string;
}

export interface ComparePair {
  /** Stable within a comparison: the order of the pairs. */
  index: number;
  earlier: CompareSide | null;
  later: CompareSide | null;
  label: CompareLabel;
  /** Every change between the two sides (a pair can be both retitled and re-rated). */
  changes: ('severity' | 'title')[];
  rule: PairRule | null;
  /** 0..1: how sure the pairing is (1 for a shared printed ID). */
  score: number;
  statedStatus: StatedStatus | null;
  /** Notes the auditor wrote on the earlier finding (the review module's), shown on its pair. */
  notes: AuditorNote[];
}

/**
 * An unsure pair, never silently paired: the two sides stay in the pairs as "no longer present" and "new"
 * until the auditor confirms it (then it becomes one pair) or rejects it.
 */
export interface CompareCandidate {
  earlierIndex: number;
  laterIndex: number;
  /** What identifies each side across re-runs (its printed ID, else its title): the auditor's answer is kept under these. */
  earlierKey: string;
  laterKey: string;
  /** Why it is unsure, in one sentence. */
  reason: string;
  score: number;
  decision: 'confirmed' | 'rejected' | null;
}

export interface CompareSummary {
  /** Earlier findings the later document states as resolved (Resolved, Fixed, ...). */
  resolved: number;
  /** Earlier findings still in the later document without a resolved status (partial, open, accepted, none stated). */
  stillOpen: number;
  /** Earlier findings the later document no longer has. */
  noLongerPresent: number;
  /** Findings only in the later document. */
  new: number;
  /** Pairs whose severity changed. */
  severityChanged: number;
  /** Unsure pairs waiting for the auditor. */
  candidates: number;
}

export interface CompareDocumentRef {
  documentId: number;
  runId: number;
  file: string;
  sha256: string;
  /** rules-only when the side has no merged findings, only printed IDs. */
  mode: 'full' | 'rules-only';
  /** Findings of the analysis left out of the comparison because none of their evidence was found in the text. */
  ungroundedFindings: number;
}

export interface Comparison {
  /** The stored comparison (null when not stored). */
  id: number | null;
  earlier: CompareDocumentRef;
  later: CompareDocumentRef;
  summary: CompareSummary;
  pairs: ComparePair[];
  candidates: CompareCandidate[];
  /**
   * The one model call for the statuses the rules could not read, when it was made (absent: not made, e.g.
   * rules-only): the model, how many statuses it read, how many quotes it gave that were not found in their
   * finding's section (dropped), and why it gave nothing (a failed call), else null.
   */
  modelStatus?: ModelStatusOutcome;
  createdAt: string;
}

export interface ModelStatusOutcome {
  model: string | null;
  read: number;
  dropped: number;
  problem: string | null;
}

export const COMPARE_JSON_VERSION = 1;

/** The formats a comparison is exported in (JSON: docs/compare.schema.json). */
export const COMPARE_FORMATS = ['md', 'html', 'pdf', 'csv', 'json'] as const;
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

/** Where the host wrote an exported comparison (the exports folder under the data folder). */
export interface CompareExportResult {
  comparisonId: number;
  format: CompareFormat;
  path: string;
  fileName: string;
  bytes: number;
}

/** The summary counted from the pairs (never kept apart from them). */
export function summarizePairs(pairs: readonly ComparePair[], candidates: readonly CompareCandidate[]): CompareSummary {
  let resolved = 0;
  let stillOpen = 0;
  let noLongerPresent = 0;
  let added = 0;
  let severityChanged = 0;
  for (const pair of pairs) {
    if (pair.changes.includes('severity')) severityChanged++;
    if (pair.label === 'new') added++;
    else if (pair.label === 'no_longer_present') noLongerPresent++;
    else if (pair.statedStatus?.category === 'resolved') resolved++;
    else stillOpen++;
  }
  return { resolved, stillOpen, noLongerPresent, new: added, severityChanged, candidates: candidates.filter((c) => c.decision === null).length };
}

/** What the status model call did, in one sentence (the CLI prints it, the Compare view shows it). */
export function modelStatusText(outcome: ModelStatusOutcome): string {
  if (outcome.problem !== null) return `Statuses the rules could not read are left unread: ${outcome.problem}`;
  const dropped = outcome.dropped > 0 ? `; ${outcome.dropped} quote(s) not found in their finding's section and dropped` : '';
  return `${outcome.read} status(es) the rules could not read were read by ${outcome.model ?? 'the model'}, each quote found in its finding's section${dropped}.`;
}
