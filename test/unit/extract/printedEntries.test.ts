/**
 * A finding whose ID the text prints is written by the model as one line ("PBI-1 | defect | High | title") and
 * grounded by the rules (extract/printedEntries.ts): the ID looked up in the text shown, the title checked against
 * the text around it, the evidence quoted from the document. A title the text does not hold there is never verified.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../../shared/findings';
import { groundReply, groundPrintedLine, parsePrintedLine, wordShare } from '../../../electron/engine/extract';
import { documentFromPages } from '../../helpers/documents';

// Running text: each issue's title on a line, then a sentence with its ID inside it. Then a table row, a heading
// block with its ID on a metadata line, and a paragraph with an ID inside it.
const doc = documentFromPages([
  [
    'Release Notes 7.4',
    'Login page drops records after a restart in case 113',
    'Reported as PBI-10014 (priority Medium) and fixed in this release.',
    'Invoice export shows wrong totals at month end in case 114',
    'Reported as PBI-10015 (priority High) and fixed in this release.',
    'Batch scheduler leaks memory under load in case 115',
    'Reported as PBI-10016 (priority Low) and fixed in this release.',
  ].join('\n'),
  [
    'ID | Title | Component | Priority',
    'CR-2001 | Mail relay rejects valid input for archived users | api | Medium',
    '3.2 Gateway accepts unsigned tokens',
    'Severity: High',
    'Type: Authentication',
    'Finding ID: TOB-GW-7',
    'The gateway verifies a token only when it carries a signature header, so an unsigned token is accepted as valid.',
    'Users noticed that the search index timed out for large batches; the fix (PBI-10020) adds paging to the query.',
  ].join('\n'),
]);
const whole = { chunk: { start: 0, end: doc.text.length } };
const ground = (line: string, regions = whole) => groundReply(doc, DEFAULT_PROFILE, [line], regions.chunk)[0]!;
const at = (needle: string) => doc.text.indexOf(needle);

describe('reading a line', () => {
  it('reads the four parts, a title that holds a bar, and shorter lines as far as they go', () => {
    expect(parsePrintedLine('PBI-1234 | defect | High | Export drops rows', DEFAULT_PROFILE)).toEqual({
      id: 'PBI-1234',
      type: 'defect',
      severity: 'High',
      title: 'Export drops rows',
    });
    expect(parsePrintedLine('- PBI-1234 | defect | High | Export | import drop rows', DEFAULT_PROFILE).title).toBe('Export | import drop rows');
    expect(parsePrintedLine('PBI-1234 | High | Export drops rows', DEFAULT_PROFILE)).toEqual({
      id: 'PBI-1234',
      type: '',
      severity: 'High',
      title: 'Export drops rows',
    });
    expect(parsePrintedLine('PBI-1234 | defect | Export drops rows', DEFAULT_PROFILE)).toEqual({
      id: 'PBI-1234',
      type: 'defect',
      severity: '',
      title: 'Export drops rows',
    });
    expect(parsePrintedLine('PBI-1234: Export drops rows', DEFAULT_PROFILE)).toEqual({ id: 'PBI-1234', type: '', severity: '', title: 'Export drops rows' });
    expect(parsePrintedLine('Export drops rows for large batches', DEFAULT_PROFILE)).toEqual({
      id: null,
      type: '',
      severity: '',
      title: 'Export drops rows for large batches',
    });
  });
});

describe('grounding a line on the text that prints its ID', () => {
  it('quotes the title printed above the ID through the end of the ID line, and keys the finding by the printed ID', () => {
    const f = ground('PBI-10015 | defect | High | Invoice export shows wrong totals at month end in case 114');
    expect(f.grounding).toMatchObject({ status: 'grounded', match: 'exact', start: at('Invoice export'), page: 1 });
    expect(f.evidence).toBe('Invoice export shows wrong totals at month end in case 114\nReported as PBI-10015 (priority High) and fixed in this release.');
    expect(doc.text.slice(f.grounding.start!, f.grounding.end!)).toBe(f.evidence);
    expect(f).toMatchObject({
      findingKey: 'PBI-10015',
      title: 'Invoice export shows wrong totals at month end in case 114',
      severity: 'High',
      severityCanonical: 'High',
      type: 'defect',
    });
    expect(f.description).toContain('Reported as PBI-10015');
  });

  it('grounds a table row, a heading block whose ID is on a metadata line, and an ID inside a paragraph', () => {
    const row = ground('CR-2001 | change request | Medium | Mail relay rejects valid input for archived users');
    expect(row.evidence).toBe('CR-2001 | Mail relay rejects valid input for archived users | api | Medium');
    expect(row).toMatchObject({ findingKey: 'CR-2001', page: 2 });
    const heading = ground('TOB-GW-7 | vulnerability | High | Gateway accepts unsigned tokens');
    expect(heading.grounding.status).toBe('grounded');
    expect(heading.evidence.startsWith('Gateway accepts unsigned tokens\nSeverity: High')).toBe(true);
    expect(heading.evidence.endsWith('Finding ID: TOB-GW-7')).toBe(true);
    expect(heading).toMatchObject({ findingKey: 'TOB-GW-7', printedNumber: '3.2' });
    // The model's short title for a sentence: half its words on the ID's line is enough; the ID's line is the quote.
    const paraphrase = ground('PBI-10020 | defect | Medium | Search index times out on large batches');
    expect(paraphrase.grounding.status).toBe('grounded');
    expect(paraphrase.evidence).toBe('Users noticed that the search index timed out for large batches; the fix (PBI-10020) adds paging to the query.');
    expect(paraphrase.findingKey).toBe('PBI-10020');
  });

  it('finds an ID the model reformatted', () => {
    const f = ground('pbi 10016 | defect | Low | Batch scheduler leaks memory under load in case 115');
    expect(f).toMatchObject({ findingKey: 'PBI-10016', grounding: { status: 'grounded', start: at('Batch scheduler') } });
  });

  it("never verifies a title the text does not print at that ID: a neighbour's title, or an invented one, is kept ungrounded with the ID line", () => {
    // PBI-10014's line with the title printed for PBI-10015 (the next entry, right below it).
    const swapped = ground('PBI-10014 | defect | High | Invoice export shows wrong totals at month end in case 114');
    expect(swapped.grounding.status).toBe('ungrounded');
    expect(swapped.evidence).toBe('Reported as PBI-10014 (priority Medium) and fixed in this release.');
    expect(swapped).toMatchObject({ findingKey: 'PBI-10014', page: 1, description: '' });
    const invented = ground('PBI-10016 | vulnerability | Critical | Remote code execution in the upload handler');
    expect(invented.grounding.status).toBe('ungrounded');
    expect(invented.findingKey).toBe('PBI-10016');
  });

  it("grounds the title where the text prints it when the ID is the model's own label (with what its heading block prints), and leaves it ungrounded when the text has neither", () => {
    const label = ground('F-3 | vulnerability | Low | Gateway accepts unsigned tokens');
    // The heading that prints the title, from its number: the finding takes the ID, severity and opening sentence printed there.
    expect(label.grounding).toMatchObject({ status: 'grounded', match: 'exact', start: at('3.2 Gateway accepts unsigned tokens') });
    expect(label.evidence).toBe('3.2 Gateway accepts unsigned tokens');
    expect(label).toMatchObject({ id: 'F-3', findingKey: 'TOB-GW-7', printedNumber: '3.2', severity: 'High' });
    expect(label.description).toBe('The gateway verifies a token only when it carries a signature header, so an unsigned token is accepted as valid.');
    const nothing = ground('F-4 | vulnerability | High | Remote code execution in the upload handler');
    expect(nothing.grounding.status).toBe('ungrounded');
    expect(nothing.title).toBe('Remote code execution in the upload handler');
  });

  it("a bare title and an object without its ID or quote are read like a line without an ID: grounded on the heading that prints the title, with its block's ID, severity and opening sentence", () => {
    const bare = ground('Gateway accepts unsigned tokens');
    const half = groundReply(
      doc,
      DEFAULT_PROFILE,
      [{ id: null, type: 'vulnerability', title: 'Gateway accepts unsigned tokens', severity: '', evidence: '', page: 0 }],
      whole.chunk,
    )[0]!;
    for (const f of [bare, half]) {
      expect(f.grounding).toMatchObject({ status: 'grounded', match: 'exact', start: at('3.2 Gateway accepts unsigned tokens') });
      expect(f).toMatchObject({ id: null, findingKey: 'TOB-GW-7', printedNumber: '3.2', severity: 'High', severityCanonical: 'High' });
      expect(f.description).toBe('The gateway verifies a token only when it carries a signature header, so an unsigned token is accepted as valid.');
    }
    // A title the text prints nowhere stays ungrounded: never verified.
    expect(ground('Remote code execution in the upload handler').grounding.status).toBe('ungrounded');
  });

  it('looks in the text shown only: an ID printed outside the chunk and its context grounds nothing', () => {
    const secondPage = { chunk: { start: at('ID | Title'), end: doc.text.length } };
    const f = ground('PBI-10015 | defect | High | Invoice export shows wrong totals at month end in case 114', secondPage);
    expect(f.grounding.status).toBe('ungrounded');
    // The same line with the first page as context: grounded there, and marked as found in the context only.
    const withContext = { ...secondPage, context: { start: at('Invoice export'), end: secondPage.chunk.start } };
    const direct = groundPrintedLine(
      doc,
      DEFAULT_PROFILE,
      parsePrintedLine('PBI-10015 | defect | High | Invoice export shows wrong totals at month end in case 114', DEFAULT_PROFILE),
      withContext,
    );
    expect(direct.grounding).toMatchObject({ status: 'grounded', inContextOnly: true });
  });
});

describe('word share', () => {
  it('folds endings and leaves out stop words', () => {
    expect(wordShare('Export drops rows', 'the export dropped two rows')).toBe(1);
    expect(wordShare('Login page times out', 'the login page timed out')).toBe(1);
    expect(wordShare('Login page times out', 'the invoice export')).toBe(0);
  });
});
