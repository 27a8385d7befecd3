/**
 * Findings: the product's main output. Types shared by the engine (extract,
 * merge, summary, store), the reports and the UI, plus the extraction profile
 * (what counts as a finding, its types, severity scale and ID patterns) and
 * the severity ranking every stage uses.
 */

import { DEFAULT_ID_PATTERNS, type IdPattern } from './idPatterns';

export type ProfileIdPattern = IdPattern;

export interface ExtractionProfile {
  name: string;
  /** What counts as a finding; goes verbatim into the extraction instructions. */
  description: string;
  /** Finding types the model chooses from (it may answer another word; it is kept as given). */
  types: string[];
  /** The canonical severity scale, ordered from highest to lowest. */
  severities: string[];
  /**
   * Other vocabularies mapped onto the scale (lower-case word -> canonical
   * severity). The original word is always kept on the finding; the mapping
   * only gives it a rank.
   */
  severityAliases: Record<string, string>;
  idPatterns: ProfileIdPattern[];
}

/**
 * The type of a finding read by the rules from a row of the document's own list of findings (its summary table or
 * contents), not reported by the model (electron/engine/printed/listedRows.ts). A merged finding keeps it only when
 * the model reported nothing for the row's detailed section: it is then known from its row alone.
 */
export const LISTED_ENTRY_TYPE = 'listed entry';

/**
 * The type of a finding read by the rules from a row of a register (a release note's issue table, a list of change
 * requests: printed/registers.ts), whose rows are the findings themselves. Unlike a listed entry it counts as
 * analysed: the row is all the document says of that issue.
 */
export const REGISTER_ENTRY_TYPE = 'register entry';

/**
 * The type of a finding of the document's own list whose detailed section the model named in the text it read (by
 * its number in the RECORDED FINDINGS block), read there by the rules: heading, opening sentence, severity
 * (electron/engine/extract/recordedDetails.ts). It counts as analysed.
 */
export const RECORDED_FINDING_TYPE = 'finding';

/** Whether a finding was read by the rules from a row (a listed entry or a register row), not reported by the model. */
export const readByRules = (f: { type: string }) => f.type === LISTED_ENTRY_TYPE || f.type === REGISTER_ENTRY_TYPE;

export const DEFAULT_PROFILE: ExtractionProfile = {
  name: 'Audit report / release notes',
  description:
    'A finding is any problem, risk or required change the document reports: a production problem or incident, ' +
    'a change request, a defect or bug, a security vulnerability, a risk, a control deficiency or audit observation, ' +
    'an open action item or a recommendation made because something is wrong. ' +
    'A finding restated in several places (for example a summary table and a detailed section) is still reported each time it appears in this text.',
  types: ['production problem', 'change request', 'defect', 'vulnerability', 'risk', 'control deficiency', 'observation', 'other'],
  severities: ['Critical', 'High', 'Medium', 'Low', 'Informational'],
  severityAliases: {
    // Firm vocabularies seen in real audit reports (see shared/corpus): the original word is kept, this gives a rank.
    blocker: 'Critical',
    severe: 'High',
    major: 'High',
    moderate: 'Medium',
    // "Undetermined" (Trail of Bits): impact unknown; ranked Medium so it is never buried under Low.
    undetermined: 'Medium',
    unknown: 'Medium',
    minor: 'Low',
    trivial: 'Low',
    info: 'Informational',
    informative: 'Informational',
    note: 'Informational',
    'best practice': 'Informational',
    // Gas optimizations (Cyfrin, Spearbit) are counted in their own row; ranked with the informational ones.
    gas: 'Informational',
    none: 'Informational',
  },
  idPatterns: [...DEFAULT_ID_PATTERNS],
};

export interface SeverityRank {
  /** The word as the document or the model wrote it (trimmed). */
  original: string;
  /** The profile severity it maps to; null when unknown. */
  canonical: string | null;
  /** 0 = highest; unknown words rank after the whole scale. */
  rank: number;
}

/** Maps any severity word onto the profile scale, case-insensitively, keeping the original word. */
export function rankSeverity(profile: ExtractionProfile, word: string | null | undefined): SeverityRank {
  const original = (word ?? '').trim();
  const key = original
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.:]+$/, '');
  const direct = profile.severities.findIndex((s) => s.toLowerCase() === key);
  if (direct >= 0) return { original, canonical: profile.severities[direct]!, rank: direct };
  const aliasEntry = Object.entries(profile.severityAliases).find(([alias]) => alias.toLowerCase() === key);
  if (aliasEntry) {
    const idx = profile.severities.findIndex((s) => s.toLowerCase() === aliasEntry[1].toLowerCase());
    if (idx >= 0) return { original, canonical: profile.severities[idx]!, rank: idx };
  }
  // "High risk", "Severity: Low": take the first scale word contained in it.
  const words = key.split(/[^a-z]+/).filter(Boolean);
  for (const w of words) {
    const idx = profile.severities.findIndex((s) => s.toLowerCase() === w);
    if (idx >= 0) return { original, canonical: profile.severities[idx]!, rank: idx };
    const alias = profile.severityAliases[w];
    if (alias !== undefined) {
      const j = profile.severities.findIndex((s) => s.toLowerCase() === alias.toLowerCase());
      if (j >= 0) return { original, canonical: profile.severities[j]!, rank: j };
    }
  }
  return { original, canonical: null, rank: profile.severities.length };
}

/** A finding exactly as the model reported it (validated shape). */
export interface ReportedFinding {
  id: string | null;
  type: string;
  title: string;
  severity: string;
  description: string;
  evidence: string;
  /** The page the model stated; the grounded page wins when they differ. */
  page: number | null;
}

export type GroundingStatus = 'grounded' | 'ungrounded';
/** exact: verbatim; normalized: after whitespace/hyphenation/quote/dash/case normalisation; fuzzy: token alignment >= threshold. */
export type MatchKind = 'exact' | 'normalized' | 'fuzzy';

export interface Grounding {
  status: GroundingStatus;
  match: MatchKind | null;
  /** 1 for exact/normalized; the aligned token share for fuzzy; the best share seen when ungrounded (null if none). */
  score: number | null;
  /** [start, end) in the canonical text when grounded. */
  start: number | null;
  end: number | null;
  page: number | null;
  /**
   * The evidence lies entirely in the previous chunk's tail that was given as
   * context: the finding belongs to the previous chunk (merge dedupes it).
   */
  inContextOnly: boolean;
}

/** A reported finding after grounding, ready to be stored. */
export interface GroundedFinding extends ReportedFinding {
  /**
   * The finding's ID as the document prints it near the finding (normalised), the merge key; null when the
   * document prints none for it. The model's `id` alone never becomes a key: it stays the model's label.
   */
  findingKey: string | null;
  /** A sequence or section number the document prints directly before the finding's title ("7", "3.2"); null if none. */
  printedNumber: string | null;
  /** Profile severity the word maps to (null when unknown) and its rank (0 = highest). */
  severityCanonical: string | null;
  severityRank: number;
  grounding: Grounding;
}

/** A grounded finding as stored: one row of `findings`. */
export interface StoredFinding extends GroundedFinding {
  /** Row id. */
  findingId: number;
  runId: number;
  documentId: number;
  treeId: number;
  nodeIndex: number;
  /** Position in the chunk's reply. */
  ordinal: number;
}

export type MergeReason = 'same-id' | 'same-number' | 'similar-text' | 'boundary-overlap';

export interface FindingSource {
  findingId: number;
  nodeIndex: number;
  /** Grounded page, else the page the model stated. */
  page: number | null;
  title: string;
  evidence: string;
  evidenceStart: number | null;
  evidenceEnd: number | null;
  grounded: boolean;
  match: MatchKind | null;
  inContextOnly: boolean;
  isMain: boolean;
  /** The model's own `id` for this sighting (its label), when it gave one. */
  modelId: string | null;
}

export interface MergeDecision {
  /** Index of the merged finding in the merge result (the store maps it to a row id). */
  mergedIndex: number;
  /** The finding it was compared with (already in the group). */
  keptFindingId: number;
  absorbedFindingId: number;
  reason: MergeReason;
  /** 1 for same-id; the similarity or overlap share otherwise. */
  score: number;
}

/** Where a merged finding's ID comes from: printed in the document, only the model's label, or none at all. */
export type IdOrigin = 'document' | 'model' | 'none';

export interface MergedFindingDraft {
  /** The ID the document prints for this finding (normalised); null when it prints none. */
  findingKey: string | null;
  /** The number the document prints before the finding's title ("7", "3.2"), when any. */
  printedNumber: string | null;
  /** The model's labels (its `id` values) when the document prints no ID for the finding: shown, marked, never used to merge. */
  modelLabels: string[];
  title: string;
  type: string;
  /** The highest severity among the sources, as its source wrote it... */
  severity: string;
  /** ...and where it sits on the profile scale. */
  severityCanonical: string | null;
  severityRank: number;
  description: string;
  /** The main source's page (the detailed section rather than a summary-table row). */
  mainPage: number | null;
  mainFindingId: number;
  /** True when at least one source is grounded; ungrounded-only findings are never counted as verified. */
  grounded: boolean;
  /** The sightings listed, in document order: of a grounded finding only those found in the text (see `unfoundSightings`). */
  sources: FindingSource[];
  /** Finding ids absorbed into the main one: every sighting joined but the main, listed among `sources` or not. */
  absorbedFindingIds: number[];
  /**
   * Sightings of a grounded finding whose quote or title the text does not show (a model that repeats a title it was
   * given but not shown): joined to it, but not listed among its sources, only counted here. Absent when none.
   */
  unfoundSightings?: number;
}

/**
 * Two merged findings that share a document-printed ID or number while their titles and evidence clearly
 * disagree: kept apart instead of silently joined, for the auditor to resolve.
 */
export interface MergeConflictDraft {
  /** A shared printed ID or number whose titles disagree, or sibling titles (one or two words apart) that text alone would have joined. */
  kind: 'id' | 'number' | 'title';
  /** The shared ID or number; for 'title', the distinguishing words of each ("errors / constants"). */
  key: string;
  /** Indexes into the merge result's `merged`. */
  mergedIndexes: [number, number];
  /** Title similarity of the two (0..1). */
  score: number;
}

export interface MergeConflict extends Omit<MergeConflictDraft, 'mergedIndexes'> {
  id: number;
  runId: number;
  documentId: number;
  mergedIds: [number, number];
}

/** Where a merged finding's ID comes from (see IdOrigin). */
export function idOriginOf(f: Pick<MergedFindingDraft, 'findingKey' | 'printedNumber' | 'modelLabels'>): IdOrigin {
  if (f.findingKey !== null || f.printedNumber !== null) return 'document';
  return f.modelLabels.length > 0 ? 'model' : 'none';
}

/**
 * How a finding's ID is shown: the ID the document prints, else the number it prints before the title
 * ("No. 7"), else the model's own labels marked as such (never mistaken for the document's), else "—".
 */
export function idLabel(f: Pick<MergedFindingDraft, 'findingKey' | 'printedNumber' | 'modelLabels'>): string {
  if (f.findingKey) return f.findingKey;
  if (f.printedNumber) return `No. ${f.printedNumber}`;
  if (f.modelLabels.length > 0) return `${f.modelLabels.join(', ')} (model's label)`;
  return '—';
}

export interface MergedFinding extends MergedFindingDraft {
  id: number;
  runId: number;
  documentId: number;
}

export interface UnreviewedMention {
  /** Normalised ID. */
  id: string;
  pages: number[];
}

export interface DocumentSummary {
  text: string;
  chunkCount: number;
  /** 0 when the chunk summaries were appended as they are; else map levels + the reduce. */
  levels: number;
  /**
   * IDs the summary names that no grounded finding of the document has (an ID injected into the document, one the
   * model made up): shown marked, as ungrounded findings are. Empty when every ID it names is a finding's.
   */
  ungroundedIds: string[];
}
