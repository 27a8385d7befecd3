/**
 * Matching merged findings to the entries of a document's listings (entryMatching.ts): sure matches by printed ID,
 * by the row a source was read from and by printed number take their entry first; the rest is one assignment by
 * title, so near-identical siblings each keep their own row; a duplicate joins its row after the row's own finding.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, rankSeverity, type FindingSource, type MergedFinding } from '../../../shared/findings';
import { checkCompleteness, matchEntries } from '../../../electron/engine/completeness';
import { findListings, textLines, type Listing } from '../../../electron/engine/printed';
import { bestAssignment } from '../../../electron/engine/completeness/bestAssignment';
import { normalizeId } from '../../../electron/engine/rules';
import { documentFromPages } from '../../helpers/documents';

interface FindingSpec {
  id: number;
  title: string;
  severity?: string;
  findingKey?: string | null;
  printedNumber?: string | null;
  /** Titles the model gave it elsewhere, with where it quoted them (grounded offsets, or none). */
  sources?: { title: string; start?: number; end?: number }[];
}

function finding(spec: FindingSpec): MergedFinding {
  const severity = spec.severity ?? 'Medium';
  const rank = rankSeverity(DEFAULT_PROFILE, severity);
  const sources: FindingSource[] = (spec.sources ?? []).map((s, i) => ({
    findingId: spec.id * 100 + i,
    nodeIndex: 0,
    page: 1,
    title: s.title,
    evidence: s.title,
    evidenceStart: s.start ?? null,
    evidenceEnd: s.end ?? null,
    grounded: s.start !== undefined,
    match: s.start !== undefined ? 'exact' : null,
    inContextOnly: false,
    isMain: false,
    modelId: null,
  }));
  return {
    id: spec.id,
    runId: 1,
    documentId: 1,
    findingKey: spec.findingKey ?? null,
    printedNumber: spec.printedNumber ?? null,
    modelLabels: [],
    title: spec.title,
    type: 'vulnerability',
    severity,
    severityCanonical: rank.canonical,
    severityRank: rank.rank,
    description: '',
    mainPage: 3,
    mainFindingId: spec.id,
    grounded: true,
    sources,
    absorbedFindingIds: [],
  };
}

const ERRORS = 'Unused errors can be removed from the vault contract';
const CONSTANTS = 'Unused constants can be removed from the vault contract';

/** A summary table of the given rows ("n Title Severity Status"), as the rules read it. */
function tableOf(rows: string[]): { listing: Listing; text: string } {
  const doc = documentFromPages([`Summary of Findings\nNo Title Severity Status\n${rows.join('\n')}\nDetailed Findings follow.`]);
  const listings = findListings(textLines(doc), doc.text, DEFAULT_PROFILE, DEFAULT_PROFILE.idPatterns);
  expect(listings).toHaveLength(1);
  return { listing: listings[0]!, text: doc.text };
}

const siblingTable = () => tableOf([`1 ${ERRORS} Low Open`, `2 ${CONSTANTS} Informational Open`, '3 Missing event on owner change Low Open']);
const owners = (listing: Listing, findings: MergedFinding[]) => matchEntries([listing], findings)[0]!.entries.map((e) => e.findingIds);

describe('matching findings to listed entries', () => {
  it("gives near-identical siblings each their own row, though the later one was also read under the earlier one's title", () => {
    const { listing } = siblingTable();
    // The model titled the second sibling's table row like the first: that title is among its sources.
    const errors = finding({ id: 1, title: ERRORS });
    const constants = finding({ id: 2, title: CONSTANTS, sources: [{ title: ERRORS }, { title: CONSTANTS }] });
    const event = finding({ id: 3, title: 'Missing event on owner change' });
    expect(owners(listing, [errors, constants, event])).toEqual([[1], [2], [3]]);
    // In the other order too: the first finding seen does not take the best row of both.
    expect(owners(listing, [constants, errors, event])).toEqual([[1], [2], [3]]);
  });

  it("takes the row a source was quoted from as that finding's, whatever title the model gave there, and leaves the sibling's row open", () => {
    const { listing, text } = siblingTable();
    const row2 = listing.entries[1]!;
    expect(text.slice(row2.start, row2.end)).toContain(CONSTANTS);
    // Its own title is reworded beyond a title match; its quote lies on row 2, under the sibling's title.
    const constants = finding({ id: 2, title: 'Constants nobody reads', sources: [{ title: ERRORS, start: row2.start, end: row2.end }] });
    expect(owners(listing, [constants])).toEqual([[], [2], []]);
    expect(owners(listing, [finding({ id: 1, title: ERRORS }), constants])).toEqual([[1], [2], []]);
  });

  it('does not take a row from a quote that runs over several rows', () => {
    const { listing } = siblingTable();
    const spanning = finding({
      id: 9,
      title: 'Rounding favours the depositor',
      sources: [{ title: 'Rounding favours the depositor', start: listing.entries[0]!.start, end: listing.entries[2]!.end }],
    });
    expect(owners(listing, [spanning])).toEqual([[], [], []]);
  });

  it('takes the row with the printed number the finding alone carries, before a title-only competitor', () => {
    const { listing } = siblingTable();
    // Titled like the first sibling everywhere, but the document prints 2 before it.
    const second = finding({ id: 2, title: ERRORS, printedNumber: '2' });
    expect(owners(listing, [second])).toEqual([[], [2], []]);
    expect(owners(listing, [finding({ id: 1, title: ERRORS }), second])).toEqual([[1], [2], []]);
  });

  it("does not take a row by number when several findings carry it, or when the title says the row is another finding's", () => {
    const { listing } = siblingTable();
    // Detailed sections numbered again in each severity group: two findings print "1".
    const restarted = [finding({ id: 1, title: ERRORS, printedNumber: '1' }), finding({ id: 3, title: 'Missing event on owner change', printedNumber: '1' })];
    expect(owners(listing, restarted)).toEqual([[1], [], [3]]);
    // A "3" from another numbering, on a finding sharing no words with row 3, whose own finding matches it by title.
    const otherNumbering = [
      finding({ id: 7, title: 'Rounding favours the depositor', printedNumber: '3' }),
      finding({ id: 3, title: 'Missing event on owner change' }),
    ];
    expect(owners(listing, otherNumbering)).toEqual([[], [], [3]]);
  });

  it("takes the row with the finding's printed ID away from a finding that only resembles it by title", () => {
    const { listing } = tableOf([`1 TOB-ACME-001 ${ERRORS} Low`, `2 TOB-ACME-002 ${CONSTANTS} Informational`]);
    expect(listing.entries.map((e) => e.id)).toEqual([normalizeId('TOB-ACME-001'), normalizeId('TOB-ACME-002')]);
    const keyed = finding({ id: 1, title: ERRORS, findingKey: normalizeId('TOB-ACME-001') });
    // No key of its own, read under the sibling's title as well as its own.
    const unkeyed = finding({ id: 2, title: CONSTANTS, sources: [{ title: ERRORS }] });
    expect(owners(listing, [unkeyed, keyed])).toEqual([[1], [2]]);
  });

  it('keeps a finding read from a row apart from its detailed section from covering the sibling row whose finding was missed', () => {
    const { listing } = siblingTable();
    const [row1, row2] = listing.entries;
    // The row read as a finding of its own (its printed number and title), the same finding's detailed section kept
    // apart by the merge (same number: neither is sure by it); the second sibling was missed.
    const fromRow = finding({ id: 1, title: ERRORS, printedNumber: '1', sources: [{ title: ERRORS, start: row1!.start, end: row1!.end }] });
    const detail = finding({ id: 4, title: ERRORS, printedNumber: '1' });
    expect(owners(listing, [detail, fromRow])).toEqual([[1, 4], [], []]);
    expect(row2!.findingIds).toEqual([]);
  });

  it('puts a duplicate the merge kept apart on its row after the row\'s own finding, so neither is "in none of the lists"', () => {
    const { listing, text } = siblingTable();
    const row1 = listing.entries[0]!;
    expect(text.slice(row1.start, row1.end)).toContain(ERRORS);
    const own = finding({ id: 1, title: ERRORS, sources: [{ title: ERRORS, start: row1.start, end: row1.end }] });
    const duplicate = finding({ id: 5, title: ERRORS });
    expect(owners(listing, [duplicate, own])).toEqual([[1, 5], [], []]);
  });
});

/** A detailed section's description: sections pages or paragraphs apart never read as a list. */
const BODY =
  'The server accepts it as configured.\nAn attacker on the network can use this.\nThe tests do not cover it.\nChange the default.\nThe team fixed it.';

describe('the verdict on sibling rows', () => {
  // Two rows of near-identical titles with different severities, and the later finding also read under the earlier title.
  const pages = [
    'Summary of Findings\nNo Title Severity Status\n1 Insecure ciphers are enabled by default Low Open\n2 etcd is insecure by default Informational Open\nTotal 2',
    `Detailed Findings\n1. Insecure ciphers are enabled by default\nSeverity: Low\n${BODY}\n2. etcd is insecure by default\nSeverity: Informational\n${BODY}`,
  ];
  const verdictOf = async (findings: MergedFinding[]) =>
    (
      await checkCompleteness({
        doc: documentFromPages(pages),
        profile: DEFAULT_PROFILE,
        idPatterns: DEFAULT_PROFILE.idPatterns,
        findings,
        unreviewedMentions: [],
        failedChunks: [],
      })
    ).verdict;

  it('is "Complete": each row has its own finding and its severity, no row "matches no finding", no "severity differs"', async () => {
    const ciphers = finding({ id: 1, title: 'Insecure ciphers are enabled by default', severity: 'Low' });
    const insecure = finding({
      id: 2,
      title: 'etcd is insecure by default',
      severity: 'Informational',
      sources: [{ title: 'Insecure ciphers are enabled by default' }],
    });
    const verdict = await verdictOf([insecure, ciphers]);
    expect(verdict.places).toEqual([]);
    expect(verdict.status).toBe('complete');
    expect(verdict.listed.map((e) => e.findingIds)).toEqual([[1], [2]]);
  });

  it("compares a row's severity with its own finding, not with a duplicate that reads like it", async () => {
    const ciphers = finding({ id: 1, title: 'Insecure ciphers are enabled by default', severity: 'Low', printedNumber: '1' });
    const insecure = finding({ id: 2, title: 'etcd is insecure by default', severity: 'Informational', printedNumber: '2' });
    const duplicate = finding({ id: 3, title: 'Insecure ciphers are enabled by default', severity: 'High' });
    const verdict = await verdictOf([duplicate, ciphers, insecure]);
    expect(verdict.listed.map((e) => e.findingIds)).toEqual([[1, 3], [2]]);
    expect(verdict.places.filter((p) => p.kind === 'severity-differs')).toEqual([]);
    // Its own finding found with another severity is still named.
    const changed = await verdictOf([{ ...ciphers, severity: 'Medium', severityCanonical: 'Medium' }, insecure]);
    expect(changed.places.map((p) => p.kind)).toContain('severity-differs');
    expect(changed.places.find((p) => p.kind === 'severity-differs')!.message).toBe(
      'Finding "Insecure ciphers are enabled by default" was found as Medium, but summary table row 1 on page 1 lists it as Low.',
    );
  });

  it("names the sibling's row when only the earlier sibling was found, and does not cover it with the one found", async () => {
    const insecure = finding({
      id: 2,
      title: 'etcd is insecure by default',
      severity: 'Informational',
      sources: [{ title: 'Insecure ciphers are enabled by default' }],
    });
    const verdict = await verdictOf([insecure]);
    expect(verdict.listed.map((e) => e.findingIds)).toEqual([[], [2]]);
    expect(verdict.places[0]).toMatchObject({ kind: 'entry-without-finding', page: 1 });
    expect(verdict.places[0]!.message).toContain(
      'Summary table row 1 on page 1, "Insecure ciphers are enabled by default" (Low), matches no finding reported from the text (at most its own row was read).',
    );
  });
});

describe('best assignment', () => {
  it("maximises the total where taking each row's best column in turn does not", () => {
    // Row 0's best is column 0, but row 1 can only use column 0: the best total gives row 0 column 1.
    expect(
      bestAssignment([
        [1, 0.9],
        [0.95, 0],
      ]),
    ).toEqual([1, 0]);
  });

  it('leaves rows without a column when the weights forbid every free one, in either shape', () => {
    expect(bestAssignment([[0.8], [0.9], [0]])).toEqual([-1, 0, -1]);
    expect(bestAssignment([[0, 0, 0.7]])).toEqual([2]);
    expect(bestAssignment([[0, 0]])).toEqual([-1]);
    expect(bestAssignment([])).toEqual([]);
  });
});
