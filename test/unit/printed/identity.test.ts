import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, type Grounding } from '../../../shared/findings';
import { comparableId, candidateIds, identifyFinding, printedNumberBefore } from '../../../electron/engine/printed';

const at = (text: string, quote: string): Grounding => {
  const start = text.indexOf(quote);
  if (start < 0) throw new Error(`quote not in text: ${quote}`);
  return { status: 'grounded', match: 'exact', score: 1, start, end: start + quote.length, page: 1, inContextOnly: false };
};
const ungrounded: Grounding = { status: 'ungrounded', match: null, score: null, start: null, end: null, page: null, inContextOnly: false };
const identify = (text: string, modelId: string | null, title: string, grounding: Grounding) =>
  identifyFinding(text, DEFAULT_PROFILE, { modelId, title, grounding, region: { start: 0, end: text.length } });

describe('comparable IDs', () => {
  it('ignore case, separators and zero padding, but keep the parts apart', () => {
    expect(comparableId('TOB-ETCD-001')).toBe('TOB-ETCD-1');
    expect(comparableId('tob etcd 1')).toBe('TOB-ETCD-1');
    expect(comparableId('TOB\u2013ETCD\u200b-01')).toBe('TOB-ETCD-1');
    expect(comparableId('TOB MOSQ CR 3')).toBe('TOB-MOSQ-CR-3');
  });

  it('take the ID out of what the model wrote: the longest pattern match, a glued title, an ID-like label', () => {
    expect(candidateIds('tob-mosq-cr-2', 'x', DEFAULT_PROFILE)).toEqual(['TOB-MOSQ-CR-2']);
    expect(candidateIds('TOB-ETCD-001: Gateway TLS', 'x', DEFAULT_PROFILE)).toEqual(['TOB-ETCD-001']);
    expect(candidateIds(null, 'PBI-1234 Login broken', DEFAULT_PROFILE)).toEqual(['PBI-1234']);
    expect(candidateIds('F-1', 'x', DEFAULT_PROFILE)).toEqual(['F-1']);
    expect(candidateIds('7', 'x', DEFAULT_PROFILE)).toEqual([]);
    expect(candidateIds(null, 'No ID here', DEFAULT_PROFILE)).toEqual([]);
  });

  it('never a standard or advisory the title names: two findings about ERC-20 would join by it', () => {
    expect(candidateIds(null, 'Unsafe ERC-20 approve in the router', DEFAULT_PROFILE)).toEqual([]);
    expect(candidateIds('CVE-2021-22569', 'Outdated protobuf dependency', DEFAULT_PROFILE)).toEqual([]);
    expect(candidateIds(null, 'TOB-X-3: Unsafe ERC-20 approve', DEFAULT_PROFILE)).toEqual(['TOB-X-3']);
    const text = '3. Unsafe ERC-20 approve in the router\nThe router approves the full balance of every token.';
    expect(identify(text, null, 'Unsafe ERC-20 approve in the router', at(text, 'The router approves the full balance')).idKey).toBeNull();
  });
});

describe('a model ID is a key only where the document prints it for the finding', () => {
  it("a description that opens with the title is a description, not the title line: the heading block's ID keys it", () => {
    const text = [
      '3.2 RWD-002 Paused pools still accrue rewards',
      'Severity: Medium',
      'Paused pools still accrue rewards was seen on the production systems during the quarter.',
      '3.3 RWD-003 Rewards are paid twice',
      'Severity: Low',
      'Rewards are paid twice when a schedule is renewed.',
    ].join('\n');
    const quote = 'Paused pools still accrue rewards was seen on the production systems during the quarter.';
    expect(identify(text, 'RWD-002', 'Paused pools still accrue rewards', at(text, quote)).idKey).toBe('RWD-002');
    // The next finding's ID is not this one's, however the model labels it.
    expect(identify(text, 'RWD-003', 'Paused pools still accrue rewards', at(text, quote)).idKey).toBeNull();
    // A table row quoted whole stays a title line: an ID of a neighbouring row is not taken for it.
    const table = ['RWD-001 | Rewards are paid twice | Low', 'Paused pools still accrue rewards | Medium', 'RWD-003 | Something else | Low'].join('\n');
    expect(identify(table, 'RWD-001', 'Paused pools still accrue rewards', at(table, 'Paused pools still accrue rewards | Medium')).idKey).toBeNull();
  });

  const detail = [
    '5. TOCTOU of gateway endpoint authentication',
    'Severity: Low Finding ID: TOB-ETCD-005',
    'Description',
    'The gateway only authenticates endpoints detected from DNS SRV records. ' + 'Filler sentence about the gateway. '.repeat(20),
    'An attacker can race the check and the use of the endpoint.',
  ].join('\n');

  it('the last ID printed before the quote (the heading block of its section), in whatever form the model wrote it', () => {
    const g = at(detail, 'An attacker can race the check');
    expect(identify(detail, 'TOB-ETCD-005', 'TOCTOU of gateway endpoint authentication', g).idKey).toBe('TOB-ETCD-005');
    expect(identify(detail, 'tob etcd 5', 'TOCTOU', g).idKey).toBe('TOB-ETCD-005');
  });

  it('not an ID the document never prints (the model numbering findings itself), not a neighbour row\u2019s ID', () => {
    expect(identify(detail, 'F-1', 'TOCTOU', at(detail, 'An attacker')).idKey).toBeNull();
    expect(identify(detail, 'TOB-ETCD-004', 'TOCTOU', at(detail, 'An attacker')).idKey).toBeNull();
    const table =
      'TOB-ETCD-004 Gateway TLS authentication only applies to DNS SRV endpoints Medium\nTOB-ETCD-005 TOCTOU of gateway endpoint authentication Low';
    const row = at(table, 'TOCTOU of gateway endpoint authentication Low');
    // The row opens with its own ID: that is the key, whichever ID the model wrote.
    expect(identify(table, 'TOB-ETCD-004', 'TOCTOU of gateway endpoint authentication', row).idKey).toBe('TOB-ETCD-005');
    expect(identify(table, 'TOB-ETCD-005', 'TOCTOU of gateway endpoint authentication', row).idKey).toBe('TOB-ETCD-005');
    // The row above's ID is the last one printed before the quote, but the quote's own line names another.
    const quotedTitle = at(table, 'TOCTOU of gateway endpoint authentication');
    expect(identify(table, 'TOB-ETCD-004', 'TOCTOU of gateway endpoint authentication', quotedTitle).idKey).toBe('TOB-ETCD-005');
  });

  it('a quoted row or heading is keyed by the ID it opens with, even when the model gave none: siblings one phrase apart stay apart', () => {
    const text = [
      '3.47 ACME-47: LDAP user sync double posts entries on a retry under peak load',
      'The sync retries without an idempotency key.',
      '3.48 ACME-48: LDAP user sync double posts entries on a retry under peak load in',
      'batch mode',
      'ACME-49 | Payroll batch drops the last record | High | Open',
    ].join('\n');
    const title = 'LDAP user sync double posts entries on a retry under peak load';
    expect(identify(text, null, title, at(text, '3.48 ACME-48: LDAP user sync double posts entries on a retry under peak load in')).idKey).toBe('ACME-48');
    expect(identify(text, null, title, at(text, 'LDAP user sync double posts entries on a retry under peak load in')).idKey).toBe('ACME-48');
    expect(identify(text, 'F-3', 'Payroll batch drops the last record', at(text, 'Payroll batch drops the last record | High')).idKey).toBe('ACME-49');
    // The description below a heading does not open with an ID: no key from its line.
    expect(identify(text, null, title, at(text, 'The sync retries without an idempotency key.')).idKey).toBeNull();
  });

  it('a line that opens with an ID list, a standard or a sentence about an ID is no row: no key from it', () => {
    const text = 'ACME-1, ACME-2 and ACME-3 are fixed in this release.\nCVE-2021-22569 allows a denial of service.\nSee ACME-4 for the fix.';
    expect(identify(text, null, 'Fixed issues', at(text, 'ACME-1, ACME-2 and ACME-3 are fixed')).idKey).toBeNull();
    expect(identify(text, null, 'Protobuf denial of service', at(text, 'CVE-2021-22569 allows a denial of service.')).idKey).toBeNull();
    expect(identify(text, null, 'Fix', at(text, 'See ACME-4 for the fix.')).idKey).toBeNull();
  });

  it('a label no pattern knows counts only in the finding\'s heading block: the model\'s "F-2" is not a hex dump\'s "f2" pages before', () => {
    const dump = 'Shadow byte legend:\nStack left redzone: f1\nStack mid redzone: f2\n' + 'Filler line of the appendix.\n'.repeat(30);
    const rows =
      'ID | Title | Status\n1 | Insufficient default number of PBKDF2 iterations | Unresolved\n2 | Improper implementation of constant-time comparison | Resolved';
    const text = dump + rows;
    const row = at(text, '2 | Improper implementation of constant-time comparison | Resolved');
    expect(identify(text, 'F-2', 'Improper implementation of constant-time comparison', row).idKey).toBeNull();
    // Printed in the heading block, the same kind of label is the document's.
    const heading = dump + 'ABC_12\nImproper implementation of constant-time comparison\nThe comparison returns early.';
    expect(identify(heading, 'ABC_12', 'Improper implementation of constant-time comparison', at(heading, 'The comparison returns early.')).idKey).toBe(
      'ABC_12',
    );
  });

  it("a sighting belongs to its own row: a neighbouring row's ID, above or below, never ties it", () => {
    const title = 'TOCTOU of gateway endpoint authentication';
    // The row's ID cell wrapped away from its title: the rows above and below print their own IDs.
    const table = [
      'TOB-ETCD-004 Gateway TLS authentication only applies to DNS SRV endpoints Medium',
      `${title} Low`,
      'TOB-ETCD-006 Insecure ciphers are allowed by default High',
    ].join('\n');
    const row = at(table, `${title} Low`);
    expect(identify(table, 'TOB-ETCD-004', title, row).idKey).toBeNull();
    expect(identify(table, 'TOB-ETCD-006', title, row).idKey).toBeNull();
    // Its heading block: an ID alone on the line above the heading, or a labelled ID line below it.
    const above = `Findings\nLID-05\n${title}\nSeverity: Medium`;
    expect(identify(above, 'LID-05', title, at(above, title)).idKey).toBe('LID-05');
    const below = `5. ${title}\nSeverity: Low\nType: Data Validation Finding ID: TOB-ETCD-005\nDescription`;
    expect(identify(below, 'TOB-ETCD-005', title, at(below, title)).idKey).toBe('TOB-ETCD-005');
  });

  it('a description quote takes the ID of its own heading block, never the table row printed above the heading', () => {
    const title = 'TOCTOU of gateway endpoint authentication';
    const text = [
      'TOB-ETCD-004 Gateway TLS authentication only applies to DNS SRV endpoints Medium',
      `5. ${title}`,
      'Description',
      'An attacker can race the check and the use of the endpoint.',
    ].join('\n');
    expect(identify(text, 'TOB-ETCD-004', title, at(text, 'An attacker can race')).idKey).toBeNull();
    const headed = [
      'TOB-ETCD-004 Gateway TLS authentication only applies to DNS SRV endpoints Medium',
      `TOB-ETCD-005 ${title}`,
      'Description',
      'An attacker can race the check and the use of the endpoint.',
    ].join('\n');
    expect(identify(headed, 'TOB-ETCD-005', title, at(headed, 'An attacker can race')).idKey).toBe('TOB-ETCD-005');
    expect(identify(headed, 'TOB-ETCD-004', title, at(headed, 'An attacker can race')).idKey).toBeNull();
  });

  it('an ungrounded finding: only when the ID is printed in the text the model was shown', () => {
    expect(identify(detail, 'TOB-ETCD-005', 'TOCTOU', ungrounded).idKey).toBe('TOB-ETCD-005');
    expect(identify(detail, 'PBI-9999', 'Invented', ungrounded).idKey).toBeNull();
  });
});

describe('printed numbers', () => {
  it('are the number printed right before the title: a table row, a heading, a contents line', () => {
    const text =
      'No Description Severity\n7 Compilation of wasm code does not specify Informational\nmemory limit\n\n7. Compilation of wasm code does not specify memory limit\nSeverity: Informational';
    const title = 'Compilation of wasm code does not specify memory limit';
    expect(printedNumberBefore(text, title, 0, text.length)).toBe('7');
    expect(printedNumberBefore('3.2 Compilation of wasm code is slow', 'Compilation of wasm code is slow', 0, 40)).toBe('3.2');
    expect(printedNumberBefore('#12 Compilation of wasm code is slow', 'Compilation of wasm code is slow', 0, 40)).toBe('12');
  });

  it("count a title that opens with punctuation, and a heading printed on its chapter title's line", () => {
    const gas = "++i costs less gas than i++, especially when it's used in for-loops";
    expect(printedNumberBefore(`Gas\n7.4.4 ${gas}\nFile: A.sol`, gas, 0, 200)).toBe('7.4.4');
    expect(printedNumberBefore('3. Detailed Findings 3.1. Lack of input validations\nTarget', 'Lack of input validations', 0, 80)).toBe('3.1');
    // A one-level number after words is a count or a version, never a section number.
    expect(printedNumberBefore('We found 3 Lack of input validations', 'Lack of input validations', 0, 80)).toBeNull();
    expect(printedNumberBefore('Upgrade to version 1.2 Lack of input validations', 'Lack of input validations', 0, 80)).toBeNull();
  });

  it('never digits that merely occur near the title', () => {
    const text = 'In 2023 we found 7 issues.\nCompilation of wasm code does not specify memory limit\nSee section 7.';
    expect(printedNumberBefore(text, 'Compilation of wasm code does not specify memory limit', 0, text.length)).toBeNull();
    expect(printedNumberBefore('Version 7 Compilation of wasm code', 'Compilation of wasm code', 0, 40)).toBeNull();
  });
});
