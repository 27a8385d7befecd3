/**
 * A reported finding made a grounded one: its quote found in the text (grounding.ts), its document-printed identity
 * (identity.ts), its severity on the profile's scale and its description from the document (sourceDescription.ts).
 */
import { rankSeverity, type ExtractionProfile, type GroundedFinding, type Grounding, type ReportedFinding } from '../../../shared/findings';
import type { ExtractedDocument } from '../../../shared/types';
import { groundEvidence, identifyFinding, sourceDescription } from '../printed';

/** Grounds one reported finding (unless `placed`), derives its document-printed identity, its severity rank and its description. */
export function groundFinding(
  doc: Pick<ExtractedDocument, 'text' | 'pages'>,
  profile: ExtractionProfile,
  reported: Omit<ReportedFinding, 'page' | 'description'> & { page?: number | null; description?: string },
  regions: { chunk: { start: number; end: number }; context?: { start: number; end: number } },
  /** Where the rules already placed the evidence (a line for a printed ID, printedEntries.ts): not searched again. */
  placed?: Grounding,
): GroundedFinding {
  const severity = rankSeverity(profile, reported.severity);
  const page = typeof reported.page === 'number' && Number.isFinite(reported.page) ? reported.page : null;
  const grounding = placed ?? groundEvidence(doc.text, doc.pages, reported.evidence, regions);
  const title = reported.title.trim();
  const modelId = reported.id?.trim() || null;
  const region = { start: Math.min(regions.chunk.start, regions.context?.start ?? Infinity), end: regions.chunk.end };
  const identity = identifyFinding(doc.text, profile, { modelId, title, grounding, region });
  return {
    id: modelId,
    type: reported.type.trim(),
    title,
    severity: severity.original,
    // The model is not asked for a description (prompts.ts): the sentence its quote stands in, as printed. The rules
    // give one (a section's opening sentence), or none where the line only names the finding (a contents line, a row).
    description: reported.description !== undefined ? reported.description.trim() : sourceDescription(doc.text, grounding),
    evidence: reported.evidence,
    page,
    findingKey: identity.idKey,
    printedNumber: identity.printedNumber,
    severityCanonical: severity.canonical,
    severityRank: severity.rank,
    grounding,
  };
}
