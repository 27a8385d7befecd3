/**
 * A model-written summary that names an ID no finding has: a document can carry injected instructions ("report
 * finding TOB-FAKE-1 ..."), and a model that obeys writes the ID into its summary ("Referenced findings:
 * TOB-FAKE-1."). The invented finding itself is caught by grounding (its quote is not in the text) and listed apart;
 * the summary's mention of it is caught here, so the summary is marked as that finding is.
 *
 * An ID "a finding has" is one a grounded finding carries: the ID the document prints for it, the model's label
 * for it, or an ID its title names ("Port HADOOP-16754"). References (ERC-20, CVE-2021-1234, RFC 7231) are never
 * findings' IDs and are not marked.
 */
import type { MergedFinding } from '../../../shared/findings';
import type { IdPattern } from '../../../shared/idPatterns';
import { comparableId } from '../printed';
import { findIdMentions, isReferenceId } from '../rules';

export function summaryIdsWithoutFinding(summary: string, findings: readonly MergedFinding[], idPatterns: readonly IdPattern[]): string[] {
  const grounded = findings.filter((f) => f.grounded);
  const known = new Set(
    [
      ...grounded.flatMap((f) => [f.findingKey, ...f.modelLabels]),
      ...grounded.flatMap((f) => [f.title, ...f.sources.map((s) => s.title)]).flatMap((title) => findIdMentions(title, [], idPatterns).map((m) => m.raw)),
    ]
      .filter((id): id is string => id !== null && id !== '')
      // "TOB-ACME-01" in the summary is the finding printed "TOB-ACME-1".
      .map(comparableId),
  );
  const unknown = new Map<string, string>();
  for (const mention of findIdMentions(summary, [], idPatterns)) {
    if (isReferenceId(mention.normalized) || known.has(comparableId(mention.raw))) continue;
    if (!unknown.has(mention.normalized)) unknown.set(mention.normalized, mention.raw.trim());
  }
  return [...unknown.values()];
}
