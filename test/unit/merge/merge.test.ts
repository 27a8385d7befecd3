import { describe, expect, it } from 'vitest';
import type { Grounding, StoredFinding } from '../../../shared/findings';
import { compareFindings, mergeFindings, unreviewedMentions } from '../../../electron/engine/merge';
import { textSimilarity } from '../../../electron/engine/printed';

let nextId = 1;
const ungrounded: Grounding = { status: 'ungrounded', match: null, score: null, start: null, end: null, page: null, inContextOnly: false };
function f(p: Partial<StoredFinding> & { title: string }): StoredFinding {
  return {
    findingId: nextId++,
    runId: 1,
    documentId: 1,
    treeId: 1,
    nodeIndex: 1,
    ordinal: 0,
    id: null,
    findingKey: null,
    printedNumber: null,
    type: 'defect',
    severity: 'Medium',
    severityCanonical: 'Medium',
    severityRank: 2,
    description: '',
    evidence: '',
    page: 1,
    grounding: ungrounded,
    ...p,
  };
}
const at = (start: number, end: number, page: number, inContextOnly = false): Grounding => ({
  status: 'grounded',
  match: 'exact',
  score: 1,
  start,
  end,
  page,
  inContextOnly,
});

describe('similarity measure', () => {
  it('keeps findings with similar titles but different objects distinct', () => {
    const a = { title: 'Missing rate limiting on login', description: 'The login endpoint accepts unlimited password attempts from one address.' };
    const b = { title: 'Missing rate limiting on password reset', description: 'The password reset endpoint sends unlimited reset emails for one account.' };
    expect(textSimilarity(a.title, b.title)).toBeCloseTo(0.667, 2);
    expect(compareFindings(a, b).same).toBe(false);
  });

  it('joins a summary-table title with its longer detailed heading and reworded titles', () => {
    expect(
      compareFindings(
        { title: 'Insufficient logging', description: '' },
        { title: 'Insufficient logging of administrative actions', description: 'long text' },
      ),
    ).toMatchObject({ same: true, rule: 'title-subset' });
    expect(
      compareFindings({ title: 'Login rate limiting missing', description: '' }, { title: 'Missing rate limiting on login', description: 'x' }),
    ).toMatchObject({ same: true });
    expect(compareFindings({ title: 'SQL Injection in export', description: '' }, { title: 'SQL injection in export.', description: '' })).toMatchObject({
      same: true,
      rule: 'title',
      score: 1,
    });
  });
});

describe('mergeFindings', () => {
  it('dedupes by normalised ID, keeps every source, the highest severity and the detailed section as main page', () => {
    const row = f({
      id: 'pbi-12',
      findingKey: 'PBI-12',
      title: 'Weak TLS',
      severity: 'Low',
      severityRank: 3,
      evidence: 'PBI-12 | Weak TLS | Low',
      grounding: at(10, 30, 1),
      nodeIndex: 1,
    });
    const detail = f({
      id: 'PBI\u201312',
      findingKey: 'PBI-12',
      title: 'Weak TLS configuration on the gateway',
      severity: 'Major',
      severityCanonical: 'High',
      severityRank: 1,
      description: 'The gateway accepts TLS 1.0 and export ciphers.',
      evidence: 'The gateway accepts TLS 1.0.',
      grounding: at(500, 530, 4),
      nodeIndex: 3,
    });
    const { merged, decisions } = mergeFindings([row, detail]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({
      findingKey: 'PBI-12',
      mainPage: 4,
      severity: 'Major',
      severityRank: 1,
      title: 'Weak TLS configuration on the gateway',
      grounded: true,
      mainFindingId: detail.findingId,
      absorbedFindingIds: [row.findingId],
    });
    expect(merged[0]!.sources.map((s) => s.page)).toEqual([1, 4]);
    expect(decisions).toEqual([{ mergedIndex: 0, keptFindingId: row.findingId, absorbedFindingId: detail.findingId, reason: 'same-id', score: 1 }]);
  });

  it('takes the detailed heading as main source over a contents line, however long the contents line and whatever description it carries', () => {
    const title = 'Withdrawals revert forever once the queue holds a cancelled request from a closed account';
    const contents = f({
      title,
      printedNumber: '5.2.1',
      description: 'A cancelled request keeps its slot in the queue.',
      evidence: `5.2.1 ${title} . . . . . . . . . . . . 6`,
      grounding: at(460, 560, 2),
      nodeIndex: 1,
    });
    const heading = f({
      title,
      printedNumber: '5.2.1',
      description: 'A cancelled request keeps its slot in the queue.',
      evidence: '5.2.1 Withdrawals revert forever once the queue holds a cancelled request from a',
      grounding: at(3043, 3121, 6),
      nodeIndex: 5,
    });
    const { merged } = mergeFindings([contents, heading]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ mainPage: 6, mainFindingId: heading.findingId });
  });

  it('lists only the sightings the text shows of a finding it shows; a sighting not found is counted and still absorbed', () => {
    // A weak model repeats a title it was given (a bare title: no quote the text shows) beside the heading it read.
    const heading = f({
      findingKey: 'CR-7',
      title: 'Session tokens never expire',
      evidence: 'CR-7 Session tokens never expire',
      grounding: at(900, 932, 5),
      nodeIndex: 4,
    });
    const bare = f({ findingKey: 'CR-7', title: 'Session tokens never expire', evidence: '', nodeIndex: 2 });
    const { merged } = mergeFindings([bare, heading]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ grounded: true, mainFindingId: heading.findingId, absorbedFindingIds: [bare.findingId], unfoundSightings: 1 });
    expect(merged[0]!.sources.map((s) => s.findingId)).toEqual([heading.findingId]);
    // A finding the text shows nowhere lists every sighting (there is nothing else to check) and counts none as unfound.
    const a = f({ findingKey: 'CR-9', title: 'Backups are not encrypted', nodeIndex: 1 });
    const b = f({ findingKey: 'CR-9', title: 'Backups are not encrypted', nodeIndex: 3 });
    const [alone] = mergeFindings([a, b]).merged;
    expect(alone!.grounded).toBe(false);
    expect(alone!.sources.map((s) => s.findingId).sort()).toEqual([a.findingId, b.findingId].sort());
    expect(alone!.unfoundSightings).toBeUndefined();
  });

  it('never merges different IDs, even with identical titles or overlapping evidence', () => {
    const a = f({ findingKey: 'CR-1', title: 'Same title', grounding: at(0, 50, 1), nodeIndex: 1 });
    const b = f({ findingKey: 'CR-2', title: 'Same title', grounding: at(0, 50, 1), nodeIndex: 2 });
    expect(mergeFindings([a, b]).merged).toHaveLength(2);
  });

  it('merges a boundary duplicate (same evidence seen from the next chunk context)', () => {
    const a = f({ title: 'Unpatched database server', grounding: at(100, 180, 2), nodeIndex: 2 });
    const b = f({ title: 'Database server lacks patches', grounding: at(100, 180, 2, true), nodeIndex: 3 });
    const r = mergeFindings([a, b]);
    expect(r.merged).toHaveLength(1);
    expect(r.merged[0]!.mainFindingId).toBe(a.findingId);
    expect(r.decisions[0]).toMatchObject({ reason: 'boundary-overlap', score: 1 });
  });

  it('keeps two findings apart when they share a printed ID but clearly disagree, and records the conflict', () => {
    // A model that put the neighbouring row's ID on a finding: same key, unrelated titles and evidence.
    const own = f({ findingKey: 'TOB-X-4', title: 'Gateway TLS authentication only applies to SRV endpoints', grounding: at(100, 160, 3), nodeIndex: 1 });
    const detail = f({ findingKey: 'TOB-X-4', title: 'Gateway TLS authentication applies only to SRV endpoints', grounding: at(900, 960, 7), nodeIndex: 4 });
    const wrong = f({ findingKey: 'TOB-X-4', title: 'Passwords stored in plaintext in WAL logs', grounding: at(200, 260, 3), nodeIndex: 1 });
    const r = mergeFindings([own, detail, wrong]);
    expect(r.merged).toHaveLength(2);
    const right = r.merged.findIndex((m) => m.sources.length === 2);
    expect(r.merged[right]!.sources.map((s) => s.findingId).sort()).toEqual([own.findingId, detail.findingId].sort());
    expect(r.conflicts).toEqual([{ kind: 'id', key: 'TOB-X-4', mergedIndexes: [0, 1], score: expect.any(Number) }]);
  });

  it('joins a table row and its detailed heading by the number printed before both, even worded differently', () => {
    const row = f({
      printedNumber: '15',
      title: 'Insecure ciphers are enabled by default',
      evidence: '15 Insecure ciphers are enabled by default Low',
      grounding: at(10, 50, 2),
      nodeIndex: 1,
    });
    const heading = f({
      printedNumber: '15',
      title: 'Insecure ciphers are allowed by default',
      evidence: 'The server accepts RC4.',
      grounding: at(900, 930, 9),
      nodeIndex: 5,
    });
    const r = mergeFindings([row, heading]);
    expect(r.merged).toHaveLength(1);
    expect(r.decisions[0]).toMatchObject({ reason: 'same-number' });
  });

  it('never joins findings the document numbers differently, even with identical titles; model labels neither join nor split', () => {
    const a = f({ printedNumber: '3', id: 'F-1', title: 'Missing input validation', grounding: at(10, 40, 2), nodeIndex: 1 });
    const b = f({ printedNumber: '8', id: 'F-1', title: 'Missing input validation', grounding: at(500, 540, 6), nodeIndex: 4 });
    expect(mergeFindings([a, b]).merged).toHaveLength(2);
    // Model labels differ, the document gives no ID: the same finding by its title.
    const c = f({ id: 'F-1', title: 'Missing input validation in the parser', grounding: at(10, 40, 2), nodeIndex: 1 });
    const d = f({ id: 'F-7', title: 'Missing input validation in the parser', grounding: at(500, 540, 6), nodeIndex: 4 });
    const merged = mergeFindings([c, d]).merged;
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ findingKey: null, modelLabels: ['F-1', 'F-7'] });
  });

  describe('siblings: printed titles one word apart are different findings, whatever text similarity says', () => {
    // A document that prints both sibling titles, each in a summary row and as a detailed heading, no IDs or numbers.
    const pairs = [
      ['Unused errors can be removed', 'Unused constants can be removed'],
      ['Missing implementation of ValidateGenesis method for authz module', 'Missing implementation of ValidateBasic method for GenericAuthorization'],
      [
        'Queued transfers can become stuck when new Transceivers are added',
        'Queued transfers can become stuck when instructions are encoded in the incorrect order',
      ],
    ] as const;
    const described = 'The declarations are never used anywhere in the code base and can be deleted to reduce the size of the contract.';
    for (const [one, other] of pairs) {
      it(`"${one}" vs "${other}"`, () => {
        const text = `Summary\n${one} Informational\n${other} Informational\n\f${one}\n${described}\n\f${other}\n${described}\n`;
        // The model words both descriptions alike (siblings are): title + description similarity alone would join them.
        const a = f({ title: one, description: described, grounding: at(8, 8 + one.length, 1), nodeIndex: 1 });
        const b = f({ title: other, description: described, grounding: at(30, 30 + other.length, 1), nodeIndex: 1 });
        const c = f({ title: one, description: described, grounding: at(100, 150, 2), nodeIndex: 2 });
        const d = f({ title: other, description: described, grounding: at(200, 250, 3), nodeIndex: 3 });
        expect(compareFindings(a, b).same).toBe(true);
        expect(mergeFindings([a, b, c, d]).merged).toHaveLength(1);
        const r = mergeFindings([a, b, c, d], { documentText: text });
        expect(r.merged.map((m) => m.sources.map((s) => s.findingId))).toEqual([
          [a.findingId, c.findingId],
          [b.findingId, d.findingId],
        ]);
        // The auditor sees the pair kept apart, once.
        expect(r.conflicts).toEqual([{ kind: 'title', key: expect.stringContaining(' / '), mergedIndexes: [0, 1], score: expect.any(Number) }]);
      });
    }

    it('a title only the model wrote keeps nothing apart; a shorter printed wording is the same finding', () => {
      const text = 'Insufficient logging Low\n\fInsufficient logging of administrative actions\nAdministrators act unseen.';
      const row = f({ title: 'Insufficient logging', grounding: at(0, 20, 1), nodeIndex: 1 });
      const heading = f({ title: 'Insufficient logging of administrative actions', grounding: at(30, 76, 2), nodeIndex: 2 });
      const shorter = mergeFindings([row, heading], { documentText: text });
      expect(shorter.merged).toHaveLength(1);
      expect(shorter.conflicts).toEqual([]);
      // The reworded title is not printed: the overlap of its quote with the heading's section joins it.
      const boundary = f({ title: 'Administrative actions are not logged', grounding: at(30, 76, 2, true), nodeIndex: 3 });
      expect(mergeFindings([heading, boundary], { documentText: text }).merged).toHaveLength(1);
    });

    it("a row the model gave its sibling's title belongs to the finding its row prints", () => {
      const [one, other] = ['Unused errors can be removed', 'Unused constants can be removed'];
      const text = `Summary\n7.5.3 ${one} Info\n7.5.10 ${other} Info\n\f${one}\nErrors are unused.\n\f${other}\nConstants are unused.\n`;
      const rowA = f({ title: one, printedNumber: '7.5.3', evidence: `7.5.3 ${one} Info`, grounding: at(8, 40, 1), nodeIndex: 1 });
      // The model titled the second row like the first: its quote is the document's row of the other sibling.
      // Its number was read before the model's title, on the row above: the retitled row takes the one it opens with.
      const rowB = f({ title: one, printedNumber: '7.5.3', evidence: `7.5.10 ${other} Info`, grounding: at(41, 80, 1), nodeIndex: 1 });
      const detailA = f({ title: one, description: 'Errors are unused.', evidence: 'Errors are unused.', grounding: at(110, 128, 2), nodeIndex: 2 });
      const detailB = f({
        title: other,
        printedNumber: '7.5.10',
        description: 'Constants are unused.',
        evidence: 'Constants are unused.',
        grounding: at(160, 181, 3),
        nodeIndex: 3,
      });
      const r = mergeFindings([rowA, rowB, detailA, detailB], { documentText: text });
      const holding = (title: string) =>
        r.merged
          .find((m) => m.title === title)!
          .sources.map((s) => s.findingId)
          .sort();
      expect(r.merged).toHaveLength(2);
      expect(holding(one)).toEqual([rowA.findingId, detailA.findingId].sort());
      expect(holding(other)).toEqual([rowB.findingId, detailB.findingId].sort());
    });

    it('no chain of similar pairs joins two findings: group against group, every printed title must be compatible', () => {
      // Contents lines a model describes alike: each pair is "similar" through the shared description, none is the same finding.
      const titles = ['Node Operator Rewards Unevenly Leaked', 'Possible Market Manipulation', 'Biased Node Operator Assignment', 'Submit Always Returns Zero'];
      const text = titles.map((t) => `${t} . . . . . 7`).join('\n');
      let at0 = 0;
      const lines = titles.map((t) => {
        const g = at(at0, at0 + t.length, 2);
        at0 += t.length + 12;
        return f({ title: t, description: 'Listed in the document\u2019s overview of findings.', evidence: `${t} . . . . . 7`, grounding: g, nodeIndex: 1 });
      });
      expect(mergeFindings(lines).merged.length).toBeLessThan(titles.length);
      expect(mergeFindings(lines, { documentText: text }).merged).toHaveLength(titles.length);
    });
  });

  it("a finding the document keys nowhere, whose model gave an ID the document prints, never joins another ID's finding by its text", () => {
    const row = f({
      id: 'OPS-5137',
      findingKey: 'OPS-5137',
      title: 'SMTP relay writes timestamps without the timezone offset',
      evidence: 'OPS-5137 | SMTP relay writes timestamps without the timezone offset | Done',
      grounding: at(0, 70, 1),
    });
    // The sibling's row the model could not ground (it was not in the text shown): its claimed ID is printed elsewhere.
    const sibling = f({ id: 'ops 5145', title: 'SMTP relay writes timestamps without the timezone offset on weekends', nodeIndex: 2 });
    const printedIds = new Set(['OPS-5137', 'OPS-5145']);
    expect(mergeFindings([row, sibling], { printedIds }).merged).toHaveLength(2);
    // Without the document's IDs the model's ID is only a label, and text joins the two (what the guard prevents).
    expect(mergeFindings([row, sibling]).merged).toHaveLength(1);
    // A model label the document never prints ("F-2") claims nothing: text still joins a reworded sighting.
    const label = f({ id: 'F-2', title: 'SMTP relay writes timestamps without the timezone offset', nodeIndex: 3 });
    expect(mergeFindings([row, label], { printedIds }).merged).toHaveLength(1);
    // Two unkeyed findings claiming the same printed ID join by text; claiming different ones, they stay apart.
    const again = f({ id: 'OPS-5145', title: 'SMTP relay writes timestamps without the timezone offset on weekends', nodeIndex: 4 });
    expect(mergeFindings([sibling, again], { printedIds }).merged).toHaveLength(1);
    const other = f({ id: 'OPS-5137', title: 'SMTP relay writes timestamps without the timezone offset on weekends', nodeIndex: 5 });
    expect(mergeFindings([sibling, other], { printedIds }).merged).toHaveLength(2);
  });

  it("a sighting quoting a heading under a title the document prints nowhere takes the heading's title: the quote is the document's words", () => {
    const text =
      'ACME-02 | Customer portal login retries forever | Medium | Open\n3.2 ACME-02: Customer portal login retries forever\nThe portal retries without a limit.';
    const row = f({
      id: 'ACME-02',
      findingKey: 'ACME-02',
      title: 'Customer portal login retries forever',
      evidence: 'ACME-02 | Customer portal login retries forever | Medium | Open',
      grounding: at(0, 60, 1),
    });
    const heading = f({
      findingKey: 'ACME-02',
      title: 'Customer portal login accepts expired session tokens',
      description: 'A long description the model wrote for another issue, longer than any other source.',
      evidence: '3.2 ACME-02: Customer portal login retries forever',
      grounding: at(61, 111, 5),
      nodeIndex: 2,
    });
    const { merged } = mergeFindings([row, heading], { documentText: text });
    expect(merged).toHaveLength(1);
    expect(merged[0]!.title).toBe('Customer portal login retries forever');
  });

  it('an ungrounded-only finding stays unverified', () => {
    const r = mergeFindings([f({ title: 'Invented' })]);
    expect(r.merged[0]!.grounded).toBe(false);
  });
});

describe('unreviewedMentions', () => {
  it('lists IDs no merged finding covers, with sorted unique pages, in order of first mention', () => {
    const m = (normalized: string, start: number, page: number) => ({ patternName: 'x', raw: normalized, normalized, start, end: start + 5, page });
    const mentions = [m('CR-9', 50, 3), m('PBI-1', 10, 1), m('CR-9', 5, 4), m('CR-9', 70, 3), m('CR-3', 90, 5)];
    expect(unreviewedMentions(mentions, [{ findingKey: 'PBI-1' }, { findingKey: null }])).toEqual([
      { id: 'CR-9', pages: [3, 4] },
      { id: 'CR-3', pages: [5] },
    ]);
  });
});
