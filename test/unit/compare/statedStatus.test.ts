import { describe, expect, it } from 'vitest';
import { readStatedStatus, statusCategory, type FindingAnchors, type StatusTextView } from '../../../electron/engine/compare';

/** A text whose pages are separated by form feeds (page n starts after the (n-1)th). */
function view(text: string): StatusTextView {
  return { text, pageAt: (offset) => text.slice(0, offset).split('\f').length };
}

const at = (text: string, needle: string) => {
  const i = text.indexOf(needle);
  if (i < 0) throw new Error(`not in text: ${needle}`);
  return i;
};

/** Anchors for the finding whose heading is `heading`; boundaries at the other headings. */
function readFor(text: string, heading: string, others: string[]) {
  const anchors: FindingAnchors = { starts: [at(text, heading)], titleSpans: [] };
  return readStatedStatus(
    view(text),
    anchors,
    others.map((o) => at(text, o)).sort((a, b) => a - b),
  );
}

describe('reading the status a later report states', () => {
  it('"Status: Fixed" under the heading, in the document\'s words, with its line and page', () => {
    const text = 'Intro\f3. Reentrancy in withdraw\nStatus: Fixed\nSeverity: High\n\f4. Front-running\nStatus: Unresolved\n';
    const s = readFor(text, '3. Reentrancy', ['4. Front-running']);
    expect(s).toMatchObject({ text: 'Fixed', category: 'resolved', quote: 'Status: Fixed', page: 2, source: 'section-line' });
    expect(readFor(text, '4. Front-running', ['3. Reentrancy'])).toMatchObject({ text: 'Unresolved', category: 'open', page: 3 });
  });

  it('"Partially Resolved" is read whole, not as "Resolved"', () => {
    const text = '1. Oracle price can be stale\nFix Status: Partially Resolved\n';
    expect(readFor(text, '1. Oracle', [])).toMatchObject({ text: 'Partially Resolved', category: 'partial' });
  });

  it('"Resolution" alone on its line reads the words of the next line', () => {
    const text = '2. Missing rate limiting\nResolution\nAcknowledged by the client; rate limits are planned.\nSeverity: Medium\n';
    expect(readFor(text, '2. Missing', [])).toMatchObject({
      text: 'Acknowledged',
      category: 'accepted',
      quote: 'Resolution Acknowledged by the client; rate limits are planned.',
    });
  });

  it('a labelled response ("Client response: Risk accepted.")', () => {
    const text = '5. Outdated compiler\nClient response: Risk accepted.\n';
    expect(readFor(text, '5. Outdated', [])).toMatchObject({ text: 'Risk accepted', category: 'accepted' });
  });

  it('a status printed above the finding ID in its header block (fix-review layout)', () => {
    const text =
      '1. Attackers could mint more\nStatus: Resolved\nSeverity: Medium\nFinding ID: TOB-X-001\nDescription\n...\n2. Lack of two-step transfer\nStatus: Unresolved\nSeverity: High\nFinding ID: TOB-X-002\n';
    const anchors = { starts: [at(text, 'TOB-X-002')], titleSpans: [] };
    expect(readStatedStatus(view(text), anchors, [at(text, 'TOB-X-001')])).toMatchObject({ text: 'Unresolved' });
  });

  it("never takes the next finding's status when its own section states none", () => {
    const text = '1. First finding\nSeverity: Low\nDescription of the first.\n2. Second finding\nStatus: Fixed\n';
    expect(readFor(text, '1. First', ['2. Second'])).toBeNull();
  });

  it('a summary-table row ending with the status, after the title', () => {
    const text = 'ID  Title  Status\n1  Open redirect in login page  Resolved\n2  Weak hashing  Unresolved\n';
    const title = 'Open redirect in login page';
    const start = at(text, title);
    const s = readStatedStatus(view(text), { starts: [], titleSpans: [{ start, end: start + title.length }] }, [at(text, 'Weak hashing')]);
    // "Open" inside the title is not the status: the status column is.
    expect(s).toMatchObject({ text: 'Resolved', source: 'table-row', quote: '1 Open redirect in login page Resolved' });
  });

  it('prose after an arbitrary label is not a status ("Impact: Open positions ...")', () => {
    const text = '1. Liquidation edge case\nImpact: Open positions can be liquidated early.\n';
    expect(readFor(text, '1. Liquidation', [])).toBeNull();
  });

  it("categories count the words, the words stay the document's", () => {
    expect(['Fixed', 'Resolved', 'Mitigated'].map(statusCategory)).toEqual(['resolved', 'resolved', 'resolved']);
    expect(['Partially Fixed', 'Not fixed', 'Unresolved', 'Acknowledged', "Won't fix", 'Undetermined'].map(statusCategory)).toEqual([
      'partial',
      'open',
      'open',
      'accepted',
      'accepted',
      'unknown',
    ]);
  });
});

describe('status layouts of other firms, inside the same report', () => {
  it('a "Status" field without a colon, the words after it ("Status  Resolved: See Resolution")', () => {
    const text =
      'LID-01 Node operator rewards unevenly leaked\nAsset  contracts/NodeOperatorRegistry.sol\nStatus  Closed: See Resolution\nRating  Severity: Medium\n';
    expect(readFor(text, 'LID-01', [])).toMatchObject({ text: 'Closed', category: 'resolved', quote: 'Status Closed: See Resolution' });
  });

  it('"Remediation Plan:" with the status on the next line, in capitals ("SOLVED: ...", "RISK ACCEPTED: ...")', () => {
    const text =
      '1. Missing slippage check\nDescription of it.\nRemediation Plan:\nSOLVED: The Acme team solved the issue in commit 1a2b3c.\n2. Centralisation risk\nRemediation Plan:\nRISK ACCEPTED: The Acme team accepted the risk.\n';
    expect(readFor(text, '1. Missing', ['2. Central'])).toMatchObject({ text: 'SOLVED', category: 'resolved' });
    expect(readFor(text, '2. Central', ['1. Missing'])).toMatchObject({ text: 'RISK ACCEPTED', category: 'accepted' });
  });

  it('"Update:" sentences, partial and acknowledged ones kept apart', () => {
    const text =
      '1. Fee rounding\nUpdate: Partially resolved in pull request #42.\n2. Stale oracle\nUpdate: Acknowledged, not resolved. The Acme team stated: we accept it.\n';
    expect(readFor(text, '1. Fee', ['2. Stale'])).toMatchObject({ text: 'Partially resolved', category: 'partial' });
    expect(readFor(text, '2. Stale', ['1. Fee'])).toMatchObject({ text: 'Acknowledged', category: 'accepted' });
  });

  it('an acknowledgement followed in its sentence by the fix is read as the fix; a fix announced for later is not', () => {
    const text =
      '3.1. Lock time overflow\nRemediation\nThis issue has been acknowledged by Acme, and a fix was implemented in commit 5bb2.\n3.2. Out-of-bounds read\nRemediation\nThe issue has been acknowledged by Acme and a fix may be implemented in the future.\n3.3. Gas griefing\nRemediation\nThe issue was also found by Acme and a fix will be released with version 2.\n';
    expect(readFor(text, '3.1.', ['3.2.', '3.3.'])).toMatchObject({
      text: 'a fix was implemented',
      category: 'resolved',
      quote: 'Remediation This issue has been acknowledged by Acme, and a fix was implemented in commit 5bb2.',
    });
    expect(readFor(text, '3.2.', ['3.1.', '3.3.'])).toMatchObject({ text: 'acknowledged', category: 'accepted' });
    expect(readFor(text, '3.3.', ['3.1.', '3.2.'])).toBeNull();
  });

  it('a client\'s labelled answer ("Client: Fixed in commit ...", "Acme: Acknowledged.") and an "Alleviation" paragraph', () => {
    const text =
      '1. First\nClient: Fixed in commit 308a72e.\nCyfrin: Verified.\n2. Second\nAcme: Acknowledged. This is an acceptable edge case.\nSpearbit: Acknowledged.\n3. Third\nAlleviation\n[Acme Team]: The team heeded the advice and resolved the issue in commit 9f8e7d.\n';
    expect(readFor(text, '1. First', ['2. Second', '3. Third'])).toMatchObject({ text: 'Fixed', quote: 'Client: Fixed in commit 308a72e.' });
    expect(readFor(text, '2. Second', ['1. First', '3. Third'])).toMatchObject({ text: 'Acknowledged', category: 'accepted' });
    expect(readFor(text, '3. Third', ['1. First', '2. Second'])).toMatchObject({ text: 'resolved', category: 'resolved' });
  });

  it("a status after the recommendation and its code, two pages below the heading, is still the finding's own", () => {
    const code = Array.from({ length: 60 }, (_, i) => `    uint256 value${i} = balances[account] * rate / PRECISION;`).join('\n');
    const text = `5.2.2 Dust left behind after wrapping\nDescription of it.\n${code}\nRecommendation\nTransfer the balance.\nAcme: Acknowledged. It is an acceptable edge case.\n`;
    expect(text.indexOf('Acme: Acknowledged') - text.indexOf('5.2.2')).toBeGreaterThan(3500);
    expect(readFor(text, '5.2.2', [])).toMatchObject({ text: 'Acknowledged', quote: 'Acme: Acknowledged. It is an acceptable edge case.' });
  });

  it('after an arbitrary label, a status word may follow a short subject ("Acme: All issues have been fixed ..."), not a long sentence', () => {
    const text =
      '1. First\nAcme: All issues have been fixed in the following commits:\n2. Second\nImpact: An attacker who waits until the pool has been drained can have been fixed rates.\n';
    expect(readFor(text, '1. First', ['2. Second'])).toMatchObject({ text: 'fixed', category: 'resolved' });
    expect(readFor(text, '2. Second', ['1. First'])).toBeNull();
  });

  it('a recommendation that starts with a label\'s word is no label ("Update the fee so that closed positions ...")', () => {
    const text =
      '1. Liquidation edge case\nRecommendations\nUpdate the fee so that closed positions pay nothing.\nResponse time matters here, not fixed costs.\n';
    expect(readFor(text, '1. Liquidation', [])).toBeNull();
  });
});
