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
  return readStatedStatus(view(text), anchors, others.map((o) => at(text, o)).sort((a, b) => a - b));
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
    expect(readFor(text, '2. Missing', [])).toMatchObject({ text: 'Acknowledged', category: 'accepted', quote: 'Resolution Acknowledged by the client; rate limits are planned.' });
  });

  it('a labelled response ("Client response: Risk accepted.")', () => {
    const text = '5. Outdated compiler\nClient response: Risk accepted.\n';
    expect(readFor(text, '5. Outdated', [])).toMatchObject({ text: 'Risk accepted', category: 'accepted' });
  });

  it('a status printed above the finding ID in its header block (fix-review layout)', () => {
    const text = '1. Attackers could mint more\nStatus: Resolved\nSeverity: Medium\nFinding ID: TOB-X-001\nDescription\n...\n2. Lack of two-step transfer\nStatus: Unresolved\nSeverity: High\nFinding ID: TOB-X-002\n';
    const anchors = { starts: [at(text, 'TOB-X-002')], titleSpans: [] };
    expect(readStatedStatus(view(text), anchors, [at(text, 'TOB-X-001')])).toMatchObject({ text: 'Unresolved' });
  });

  it('never takes the next finding\'s status when its own section states none', () => {
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

  it('categories count the words, the words stay the document\'s', () => {
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
