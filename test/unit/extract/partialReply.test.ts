import { describe, expect, it } from 'vitest';
import { parsePartialExtractionReply } from '../../../electron/engine/extract/partialReply';

const finding = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `PBI-${n}`,
  type: 'defect',
  title: `Item ${n} with "quotes", braces {} and [brackets]`,
  severity: 'High',
  // A field the schema does not ask for (a model may add one): dropped, but its braces must not end the object.
  description: 'A line with a backslash \\ and a brace }.',
  evidence: `PBI-${n} fixed`,
  page: 1,
  ...extra,
});

/** The ID of a kept entry: a finding's field, or the first part of a line. */
const idOf = (entry: string | { id?: string | null }) => (typeof entry === 'string' ? entry.split(' | ')[0] : entry.id);

/** A finding as the reply schema keeps it: fields it does not ask for are dropped. */
const asked = (f: ReturnType<typeof finding>) => {
  const { description: _unasked, ...kept } = f;
  return kept;
};

describe('a reply cut at the length limit', () => {
  const whole = JSON.stringify({ findings: [finding(1), finding(2), finding(3)], summary: 'Three items.' }, null, 2);

  it('keeps every finding written whole, wherever the reply was cut, and never the one being written', () => {
    const ends = [whole.indexOf('"PBI-2"'), whole.indexOf('"PBI-3"'), whole.indexOf('"summary"')];
    for (const [i, at] of ends.entries()) {
      const r = parsePartialExtractionReply(whole.slice(0, at));
      expect(r.findings.map(idOf)).toEqual(['PBI-1', 'PBI-2', 'PBI-3'].slice(0, i + 1));
      expect(r.summary).toBeNull();
    }
    // Cut inside a string that holds a closing brace: the open object is not complete.
    const inString = whole.indexOf('brace }', whole.indexOf('"PBI-2"')) + 'brace }'.length;
    expect(parsePartialExtractionReply(whole.slice(0, inString)).findings.map(idOf)).toEqual(['PBI-1']);
  });

  it('reads a whole reply, its summary, a code fence and a summary written before the list', () => {
    expect(parsePartialExtractionReply(whole)).toEqual({
      findings: [finding(1), finding(2), finding(3)].map(asked),
      invalid: 0,
      summary: 'Three items.',
      recorded: [],
    });
    const first = `\`\`\`json\n{"summary": "Before.", "findings": [${JSON.stringify(finding(4))}, {"id": "PBI-5", "ti`;
    expect(parsePartialExtractionReply(first)).toMatchObject({ findings: [{ id: 'PBI-4' }], summary: 'Before.' });
  });

  it('counts a complete object that is not a finding, and does not pass it on', () => {
    const r = parsePartialExtractionReply(`{"findings": [${JSON.stringify(finding(1))}, {"title": "no other field"}, ${JSON.stringify(finding(2))}, {"id"`);
    expect(r.findings.map(idOf)).toEqual(['PBI-1', 'PBI-2']);
    expect(r.invalid).toBe(1);
  });

  it('keeps the lines for findings whose ID the text prints, written whole, in order with the findings in full; never a line the cut shortened', () => {
    const lines = ['PBI-7 | defect | High | Export drops "quoted" rows | twice', 'PBI-8 | defect | Low | Login \\ times out'];
    const reply = JSON.stringify({ recorded: [], findings: [lines[0], finding(1), lines[1]], summary: 'Mixed.' }, null, 2);
    expect(parsePartialExtractionReply(reply).findings).toEqual([lines[0], asked(finding(1)), lines[1]]);
    // Cut inside the second line (after an escaped quote of the first would fool a naive reader): only what is whole.
    const cut = reply.indexOf('Login');
    expect(parsePartialExtractionReply(reply.slice(0, cut)).findings.map(idOf)).toEqual(['PBI-7', 'PBI-1']);
    expect(parsePartialExtractionReply(reply.slice(0, reply.indexOf('rows'))).findings).toEqual([]);
  });

  it('finds nothing in a reply cut before its list', () => {
    expect(parsePartialExtractionReply('{"findings": [')).toEqual({ findings: [], invalid: 0, summary: null, recorded: [] });
    expect(parsePartialExtractionReply('{"find')).toEqual({ findings: [], invalid: 0, summary: null, recorded: [] });
  });

  it('reads the recorded line numbers written whole before the list, never a number the cut may have shortened', () => {
    const reply = JSON.stringify({ recorded: [3, 12, 7], findings: [finding(1)], summary: 'One item.' }, null, 2);
    expect(parsePartialExtractionReply(reply)).toMatchObject({ recorded: [3, 12, 7], findings: [{ id: 'PBI-1' }] });
    // Cut inside the list of numbers: "1" of "12" is not read as line 1.
    const inNumber = reply.indexOf('12') + 1;
    expect(parsePartialExtractionReply(reply.slice(0, inNumber)).recorded).toEqual([3]);
    // The last number counts once the list is closed: before that the cut may have shortened it too.
    expect(parsePartialExtractionReply(reply.slice(0, reply.indexOf('7') + 2)).recorded).toEqual([3, 12]);
    expect(parsePartialExtractionReply(reply.slice(0, reply.indexOf(']') + 1)).recorded).toEqual([3, 12, 7]);
    // A "recorded" key inside a finding (a model's stray field) is not the list.
    const inside = `{"findings": [${JSON.stringify(finding(2, { recorded: [9] }))}], "summary": "x"}`;
    expect(parsePartialExtractionReply(inside).recorded).toEqual([]);
  });
});
