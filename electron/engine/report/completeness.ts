/**
 * What every exporter says about a document's completeness verdict, in the
 * same words: the rows of stated / listed / found per severity, and where
 * the stated totals and the document's lists of findings were read.
 */
import { listingName, type CompletenessVerdict, type SeverityTally, type StatedCount } from '../../../shared/completeness';
import { plural } from '../../../shared/runOutcome';

export interface TallyRow {
  severity: string;
  /** "High 9 (p. 6)", "Medium 3 + Undetermined 1 (p. 6)", or "not stated". */
  stated: string;
  listed: string;
  found: number;
  /** Findings known only from their listed row (not counted in `found`). */
  onlyListed: number;
  /** False when the stated or listed number differs from what was found. */
  agrees: boolean;
}

export function tallyRows(verdict: CompletenessVerdict): TallyRow[] {
  const rows = verdict.tallies.map((t): TallyRow => {
    const counts = verdict.stated.filter((c) => c.severity !== null && statedUnder(c, verdict) === t.severity);
    const stated = counts.length === 0 ? 'not stated' : `${counts.map((c) => `${c.label} ${c.count}`).join(' + ')} (p. ${counts[0]!.page})`;
    return {
      severity: t.severity ?? 'unrated or off the scale',
      stated,
      listed: t.listed === null ? '—' : String(t.listed),
      found: t.found,
      onlyListed: t.onlyListed ?? 0,
      agrees: agrees(t, verdict),
    };
  });
  const total = verdict.stated.find((c) => c.severity === null);
  rows.push({
    severity: 'Total',
    stated: total ? `${total.count} (p. ${total.page})` : verdict.statedTotal === null ? 'not stated' : `${verdict.statedTotal} (sum)`,
    listed: verdict.tallies.some((t) => t.listed !== null) ? String(verdict.tallies.reduce((n, t) => n + (t.listed ?? 0), 0)) : '—',
    found: verdict.foundTotal,
    onlyListed: verdict.tallies.reduce((n, t) => n + (t.onlyListed ?? 0), 0),
    agrees: verdict.statedTotal === null || verdict.statedTotal === verdict.foundTotal,
  });
  return rows;
}

/** The tally a stated count belongs to: the one named by its own word ("Undetermined", counted on its own), else its scale word's. */
function statedUnder(c: StatedCount, verdict: CompletenessVerdict): string | null {
  const own = verdict.tallies.find((t) => t.severity !== null && t.severity.toLowerCase() === c.label.trim().toLowerCase());
  return own ? own.severity : c.severity;
}

function agrees(t: SeverityTally, verdict: CompletenessVerdict): boolean {
  const perSeverityStated = verdict.stated.some((c) => c.severity !== null);
  const stated = t.stated ?? (perSeverityStated && t.severity !== null ? 0 : null);
  return (stated === null || stated === t.found) && (t.listed === null || t.listed === t.found);
}

/** Where the document lists its findings: "Summary table from page 16: 16 entries, 15 with a finding". */
export function listingLines(verdict: CompletenessVerdict): string[] {
  // Entries are stored listing after listing; each listing starts at its entry 1 ("1", or "4.1").
  const listings: CompletenessVerdict['listed'][] = [];
  for (const entry of verdict.listed) {
    // A new list starts where the kind of list changes, or where the numbering starts again (a number the list being
    // read already has): "7.1" then "7.1.1" are one contents, not two lists of one entry each.
    const current = listings.at(-1);
    if (!current || current.at(-1)!.kind !== entry.kind || current.some((e) => e.number === entry.number)) listings.push([]);
    listings.at(-1)!.push(entry);
  }
  return listings.map((list) => {
    const first = list[0]!;
    const matched = list.filter((e) => e.findingIds.length > 0).length;
    return `${listingName(first.kind)} from page ${first.page}: ${plural(list.length, 'entry', 'entries')}, ${matched} with a finding`;
  });
}

export function statedSource(verdict: CompletenessVerdict): string {
  if (verdict.stated.length === 0) return 'The document states no totals of its findings.';
  const pages = [...new Set(verdict.stated.map((c) => c.page))].join(', ');
  return `Stated totals read ${verdict.usedLlm ? 'by the language model (each quote found in the document)' : 'by the layout rules'} on page ${pages}: ${verdict.stated.map((c) => `"${c.text}"`).join(', ')}.`;
}
