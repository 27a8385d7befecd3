/**
 * Completeness check (issue 19), run after the merge: holds the merged
 * findings against what the document says it contains (stated totals per
 * severity, its summary table and contents list of findings) and against the
 * other signs of a gap (unreviewed ID mentions, failed chunks, pages without
 * text), and gives one verdict per document.
 */
import type { CompletenessVerdict } from '../../../shared/completeness';
import { LISTED_ENTRY_TYPE, type ExtractionProfile, type MergedFinding } from '../../../shared/findings';
import type { IdPattern } from '../../../shared/idPatterns';
import type { ExtractedDocument } from '../../../shared/types';
import type { LlmClient } from '../llm';
import { runInSlices } from '../util';
import { headingBlockIds, ownIdFamilies, splitMentions, findItemLists, itemsWithoutFinding, findListings, findStatedTotals, textLines } from '../printed';
import { matchEntrySteps } from './entryMatching';
import { statedTotalsByLlm } from './llmTotals';
import { composeVerdict } from './verdict';

export { saveCompleteness, getCompleteness, latestCompleteness } from './store';
export { matchEntries, ENTRY_MATCH_THRESHOLD } from './entryMatching';
export { statedTotalsByLlm, overviewParts, mayStateCounts, StatedTotalsReplySchema, STATED_TOTALS_CHUNK_REF, STATED_TOTALS_INSTRUCTIONS } from './llmTotals';
export { composeVerdict, tallyKeys } from './verdict';
export { bestAssignment } from './bestAssignment';

export interface CompletenessInput {
  doc: ExtractedDocument;
  profile: ExtractionProfile;
  idPatterns: readonly IdPattern[];
  findings: readonly MergedFinding[];
  unreviewedMentions: readonly { id: string; pages: number[] }[];
  failedChunks: readonly { nodeIndex: number; pageStart: number; pageEnd: number }[];
  /** When given and the rules find no stated totals, one LLM call reads the summary parts. */
  llm?: { client: LlmClient; model: string; numCtx: number; runId: number; documentId: number; cache?: boolean; signal?: AbortSignal };
}

export interface CompletenessResult {
  verdict: CompletenessVerdict;
  /** What went wrong on the way without stopping the check (the LLM call failed...). */
  notes: string[];
}

export async function checkCompleteness(input: CompletenessInput): Promise<CompletenessResult> {
  const lines = textLines(input.doc);
  const notes: string[] = [];
  let stated = findStatedTotals(lines, input.profile);
  let usedLlm = false;
  if (stated.length === 0 && input.llm) {
    const byLlm = await statedTotalsByLlm({ ...input.llm, llm: input.llm.client, doc: input.doc, lines, profile: input.profile });
    stated = byLlm.counts;
    usedLlm = byLlm.counts.length > 0;
    if (byLlm.problem) notes.push(byLlm.problem);
  }
  // A finding known from its listed row alone (the rules read the row, the model reported nothing for its detailed
  // section: printed/listedRows.ts) does not make its entry found: the entry is named, so a skipped section shows.
  const analysed = input.findings.filter((f) => f.type !== LISTED_ENTRY_TYPE);
  // In slices: a listing of thousands of rows (a release note's issues) takes a while to match.
  const listings = await runInSlices(
    matchEntrySteps(findListings(lines, input.doc.text, input.profile, input.idPatterns), analysed),
    input.llm?.signal ? { signal: input.llm.signal } : {},
  );
  // Standards, licences and advisories (EIP-4844, AGPL-3, CVE-...) have the shape of finding IDs: only the document's own family counts.
  const families = ownIdFamilies(
    input.findings.map((f) => f.findingKey),
    listings.flatMap((l) => l.entries),
  );
  // An ID a found finding names in its title ("port HADOOP-16754 to thirdparty"), or printed in a listed entry that a
  // finding was matched to, is accounted for even when no finding carries it as its own key.
  const named = new Set(
    input.findings
      .flatMap((f) => [f.title, ...f.sources.map((s) => s.title)])
      .flatMap((t) => t.toUpperCase().match(/[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+/g) ?? []),
  );
  const listedAndFound = new Set(listings.flatMap((l) => l.entries.filter((e) => e.id !== null && e.findingIds.length > 0).map((e) => e.id!)));
  // So is the one ID printed in the heading block of a found finding the run did not key by it.
  const inFoundHeadings = headingBlockIds(input.doc.text, input.findings, input.idPatterns);
  const accounted = (id: string) => named.has(id.toUpperCase()) || listedAndFound.has(id) || inFoundHeadings.has(id);
  const verdict = composeVerdict({
    profile: input.profile,
    stated,
    listings,
    // Counted as found: what the analysis reported. A finding known from its row alone is named by its entry instead.
    findings: analysed,
    onlyListed: input.findings.filter((f) => f.type === LISTED_ENTRY_TYPE),
    // An item of a list of findings that no reported finding's evidence touches: a finding the model skipped.
    uncoveredItems: itemsWithoutFinding(findItemLists(lines, listings), evidenceSpans(analysed)),
    unreviewedMentions: splitMentions(input.unreviewedMentions, families, input.idPatterns).findingIds.filter((m) => !accounted(m.id)),
    failedChunks: input.failedChunks,
    // A page OCR read and found no words on holds only pictures: nothing was lost there, so it is no place to check
    // (the reports say so quietly). A page without text that was not read by OCR (OCR off) may hide findings.
    pagesWithoutText: input.doc.pages.filter((p) => !p.hasTextLayer && p.textSource !== 'ocr').map((p) => p.pageNumber),
    usedLlm,
  });
  return { verdict, notes };
}

/** Where the reported findings' grounded evidence lies (every source of every merged finding). */
function evidenceSpans(findings: readonly MergedFinding[]): { start: number; end: number }[] {
  return findings.flatMap((f) =>
    f.sources.flatMap((s) => (s.grounded && s.evidenceStart !== null && s.evidenceEnd !== null ? [{ start: s.evidenceStart, end: s.evidenceEnd }] : [])),
  );
}
