import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, type Grounding } from '../../../shared/findings';
import { comparableId, candidateIds, identifyFinding, printedNumberBefore } from '../../../electron/engine/extract';

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
});

describe('a model ID is a key only where the document prints it for the finding', () => {
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
    const table = 'TOB-ETCD-004 Gateway TLS authentication only applies to DNS SRV endpoints Medium\nTOB-ETCD-005 TOCTOU of gateway endpoint authentication Low';
    const row = at(table, 'TOCTOU of gateway endpoint authentication Low');
    expect(identify(table, 'TOB-ETCD-004', 'TOCTOU of gateway endpoint authentication', row).idKey).toBeNull();
    expect(identify(table, 'TOB-ETCD-005', 'TOCTOU of gateway endpoint authentication', row).idKey).toBe('TOB-ETCD-005');
    // The row above's ID is the last one printed before the quote, but the quote's own line names another.
    const quotedTitle = at(table, 'TOCTOU of gateway endpoint authentication');
    expect(identify(table, 'TOB-ETCD-004', 'TOCTOU of gateway endpoint authentication', quotedTitle).idKey).toBeNull();
  });

  it('an ungrounded finding: only when the ID is printed in the text the model was shown', () => {
    expect(identify(detail, 'TOB-ETCD-005', 'TOCTOU', ungrounded).idKey).toBe('TOB-ETCD-005');
    expect(identify(detail, 'PBI-9999', 'Invented', ungrounded).idKey).toBeNull();
  });
});

describe('printed numbers', () => {
  it('are the number printed right before the title: a table row, a heading, a contents line', () => {
    const text = 'No Description Severity\n7 Compilation of wasm code does not specify Informational\nmemory limit\n\n7. Compilation of wasm code does not specify memory limit\nSeverity: Informational';
    const title = 'Compilation of wasm code does not specify memory limit';
    expect(printedNumberBefore(text, title, 0, text.length)).toBe('7');
    expect(printedNumberBefore('3.2 Compilation of wasm code is slow', 'Compilation of wasm code is slow', 0, 40)).toBe('3.2');
    expect(printedNumberBefore('#12 Compilation of wasm code is slow', 'Compilation of wasm code is slow', 0, 40)).toBe('12');
  });

  it('never digits that merely occur near the title', () => {
    const text = 'In 2023 we found 7 issues.\nCompilation of wasm code does not specify memory limit\nSee section 7.';
    expect(printedNumberBefore(text, 'Compilation of wasm code does not specify memory limit', 0, text.length)).toBeNull();
    expect(printedNumberBefore('Version 7 Compilation of wasm code', 'Compilation of wasm code', 0, 40)).toBeNull();
  });
});
