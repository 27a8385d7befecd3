/**
 * The document's own word for a severity of the scale. Completeness tallies by the scale's canonical severities
 * ("High"), while an Oak Security report and the queue say "Major": where every finding of a canonical severity
 * carries one other word, the tally names both, "Major (High)", so the auditor reads the document's word.
 */
interface RatedFinding {
  severityCanonical: string | null;
  effective: { severity: string };
}

/** Canonical severity (lower case) -> the one other word its findings use; absent when they use the scale's word or several. */
export function printedSeverityWords(findings: readonly RatedFinding[]): Map<string, string> {
  const words = new Map<string, Set<string>>();
  for (const f of findings) {
    const word = f.effective.severity.trim();
    if (f.severityCanonical === null || word === '') continue;
    const key = f.severityCanonical.toLowerCase();
    words.set(key, (words.get(key) ?? new Set()).add(word));
  }
  const printed = new Map<string, string>();
  for (const [canonical, set] of words) {
    const distinct = new Set([...set].map((w) => w.toLowerCase()));
    const only = [...set][0]!;
    if (distinct.size === 1 && only.toLowerCase() !== canonical) printed.set(canonical, only);
  }
  return printed;
}

/** "Major (High)" where the document says Major for High, else the severity as the tally names it. */
export function severityHeading(severity: string, printed: ReadonlyMap<string, string>): string {
  const word = printed.get(severity.toLowerCase());
  return word ? `${word} (${severity})` : severity;
}
