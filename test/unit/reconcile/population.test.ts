/**
 * Reading a population (issue 41): the header found under a title block, CSV in the encodings and separators
 * trackers write, XLSX cells as a reader sees them, the columns proposed, and every bad input refused with its
 * code and a sentence saying what to do.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { MAX_POPULATION_ROWS } from '../../../shared/reconcile';
import { findHeaderRow, proposeColumns, readPopulation, resolveColumn, tieOutRows } from '../../../electron/engine/reconcile';
import { compoundFile, csvText, encryptedWorkbook, legacyWorkbook, xlsxBytes } from '../../fixtures/populations';

const csv = (text: string, name = 'population.csv') => ({ name, bytes: Buffer.from(text, 'utf8') });

async function refusal(promise: Promise<unknown> | (() => unknown)): Promise<AppError> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a refusal');
}

const JIRA = csvText(
  ['Issue key', 'Summary', 'Status', 'Priority', 'Fix Version/s'],
  [
    ['REL-0042', 'Login page drops the session', 'Resolved', 'Major', '7.4'],
    ['REL-7', 'Invoice export, large batches', 'Closed', 'Minor', '7.4'],
    ['REL-0042', 'Login page drops the session (again)', 'Open', 'Major', '7.5'],
    ['REL-9', '=HYPERLINK("http://x")', 'Open', 'Minor', ''],
  ],
);

describe('reading a population', () => {
  it('reads a Jira-like CSV: header, rows numbered from 1 under it, cells as written (no number parsing)', async () => {
    const p = await readPopulation(csv(JIRA));
    expect(p).toMatchObject({ kind: 'csv', sheet: null, headerRow: 1, columns: ['Issue key', 'Summary', 'Status', 'Priority', 'Fix Version/s'] });
    expect(p.rows.map((r) => r.row)).toEqual([1, 2, 3, 4]);
    expect(p.rows[0]!.cells).toEqual(['REL-0042', 'Login page drops the session', 'Resolved', 'Major', '7.4']);
    expect(p.rows[1]!.cells[1]).toBe('Invoice export, large batches');
    expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('finds the header under a title line and a blank line, and keeps counting blank rows in the numbering', async () => {
    const text = `Change population Q3 2024,,\r\n,,\r\nKey,Title,Owner\r\nCR-1,First change,Ann\r\n,,\r\nCR-2,Second change,Bob\r\n`;
    const p = await readPopulation(csv(text));
    expect(p.headerRow).toBe(3);
    expect(p.rows.map((r) => [r.row, r.cells[0]])).toEqual([
      [1, 'CR-1'],
      [3, 'CR-2'],
    ]);
    expect(p.blankRows).toBe(1);
  });

  it('reads semicolon- and tab-separated files, UTF-16 with its mark, and a legacy Windows-1252 export', async () => {
    expect((await readPopulation(csv('Key;Title\nA-1;Café au lait\n'))).rows[0]!.cells).toEqual(['A-1', 'Café au lait']);
    expect((await readPopulation(csv('Key\tTitle\nA-1\tTab separated\n', 'p.tsv'))).rows[0]!.cells).toEqual(['A-1', 'Tab separated']);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Key,Title\r\nA-1,Überprüfung\r\n', 'utf16le')]);
    expect((await readPopulation({ name: 'u.csv', bytes: utf16 })).rows[0]!.cells).toEqual(['A-1', 'Überprüfung']);
    const latin = Buffer.from([...Buffer.from('Key,Title\nA-1,Caf'), 0xe9, 0x0a]);
    expect((await readPopulation({ name: 'l.csv', bytes: latin })).rows[0]!.cells).toEqual(['A-1', 'Café']);
  });

  it('reads an XLSX with its header on row 3 and a total row under the data; the total row is no item', async () => {
    const bytes = await xlsxBytes([
      { name: 'Notes', header: ['x'], rows: [['not this sheet']] },
      {
        name: 'Population',
        above: [['Change tickets, release 7.4'], [null]],
        header: ['Ticket', 'Description', 'Hours', 'Closed on'],
        rows: [
          ['CR-0007', { richText: [{ text: 'Rich ' }, { text: 'text' }] } as never, 3, new Date(Date.UTC(2024, 1, 4))],
          ['CR-8', 'Plain', 2.5, null],
        ],
        below: [['Total', null, 5.5, null]],
      },
    ]);
    const first = await readPopulation({ name: 'p.xlsx', bytes });
    expect(first.sheet).toBe('Notes');
    const p = await readPopulation({ name: 'p.xlsx', bytes }, { sheet: 'population' });
    expect(p).toMatchObject({ kind: 'xlsx', sheet: 'Population', headerRow: 3, columns: ['Ticket', 'Description', 'Hours', 'Closed on'] });
    expect(p.rows.map((r) => r.cells)).toEqual([
      ['CR-0007', 'Rich text', '3', '2024-02-04'],
      ['CR-8', 'Plain', '2.5', ''],
      ['Total', '', '5.5', ''],
    ]);
    const { rows, skipped } = tieOutRows(p, 0, 1);
    expect(rows.map((r) => r.key)).toEqual(['CR-0007', 'CR-8']);
    expect(skipped).toEqual([{ row: 3, reason: 'total-row' }]);
    expect((await refusal(readPopulation({ name: 'p.xlsx', bytes }, { sheet: 'Tickets' }))).code).toBe('POPULATION_SHEET_NOT_FOUND');
  });

  it('proposes the key column (IDs, the document’s own family first) and the title column (the longest text)', async () => {
    const p = await readPopulation(csv(JIRA));
    expect(proposeColumns(p, ['REL-1'])).toMatchObject({ keyColumn: 'Issue key', titleColumn: 'Summary' });
    const twoIdColumns = await readPopulation(
      csv(
        csvText(
          ['Parent', 'Key', 'Title'],
          [
            ['EPIC-1', 'REL-1', 'One thing done'],
            ['EPIC-2', 'REL-2', 'Another thing done'],
            ['EPIC-3', 'REL-3', 'A third thing done'],
          ],
        ),
      ),
    );
    expect(proposeColumns(twoIdColumns, ['rel-0001']).keyColumn).toBe('Key');
    expect(proposeColumns(twoIdColumns, ['EPIC-9']).keyColumn).toBe('Parent');
    const titles = await readPopulation(
      csv(
        csvText(
          ['Title', 'State', 'Owner'],
          [
            ['Add a cache for the index', 'Open', 'Ann'],
            ['Remove the legacy importer', 'Closed', 'Bob'],
          ],
        ),
      ),
    );
    expect(proposeColumns(titles, ['REL-1'])).toMatchObject({ keyColumn: null, titleColumn: 'Title' });
  });

  it('resolves a chosen column by its name (case and spacing aside) or its letter', async () => {
    const p = await readPopulation(csv(JIRA));
    expect(resolveColumn(p, 'issue  KEY', 'key')).toBe(0);
    expect(resolveColumn(p, 'B', 'title')).toBe(1);
  });

  it('lists duplicate keys (case, dashes and zero padding ignored) and uses the first row of each', async () => {
    const p = await readPopulation(csv(JIRA));
    const { rows, duplicates, skipped } = tieOutRows(p, 0, 1);
    expect(rows.map((r) => r.row)).toEqual([1, 2, 4]);
    expect(duplicates).toEqual([{ key: 'REL-0042', rows: [1, 3] }]);
    expect(skipped).toEqual([{ row: 3, reason: 'duplicate-key', firstRow: 1, key: 'REL-0042' }]);
    expect(rows[0]!.keyId).toBe(rows[0]!.rowKey.replace('key:', ''));
  });
});

describe('bad populations are refused with a code and a sentence saying what to do', () => {
  it('an empty file, a blank one, and a header without rows: POPULATION_EMPTY', async () => {
    for (const text of ['', '\r\n \r\n', 'Key,Title\r\n']) {
      const e = await refusal(readPopulation(csv(text)));
      expect(e.code, JSON.stringify(text)).toBe('POPULATION_EMPTY');
      expect(e.message).toMatch(/Export the population again/);
    }
  });

  it('a file whose first row holds data: POPULATION_NO_HEADER, naming what it found', async () => {
    const e = await refusal(readPopulation(csv('REL-1,Login page drops the session,Major\nREL-2,Invoice export fails,Minor\n')));
    expect(e.code).toBe('POPULATION_NO_HEADER');
    expect(e.message).toContain('"REL-1"');
    expect(e.message).toMatch(/Add a first row with the column names/);
    const numbers = await refusal(readPopulation(csv('2023,2024\n5,7\n')));
    expect(numbers.code).toBe('POPULATION_NO_HEADER');
  });

  it('a chosen column that does not exist: POPULATION_COLUMN_NOT_FOUND with the columns there are', async () => {
    const p = await readPopulation(csv(JIRA));
    const e = await refusal(() => resolveColumn(p, 'Ticket', 'key'));
    expect(e.code).toBe('POPULATION_COLUMN_NOT_FOUND');
    expect(e.message).toContain('"Issue key", "Summary"');
    expect(e.message).toContain('--key-column');
  });

  it(`more than ${MAX_POPULATION_ROWS.toLocaleString('en-US')} rows: POPULATION_TOO_LARGE; exactly that many is read`, async () => {
    const rows = (n: number) => `Key,Title\n${Array.from({ length: n }, (_, i) => `K-${i},t${i}`).join('\n')}\n`;
    const e = await refusal(readPopulation(csv(rows(MAX_POPULATION_ROWS + 1))));
    expect(e.code).toBe('POPULATION_TOO_LARGE');
    expect(e.message).toMatch(/Filter the export/);
    expect((await readPopulation(csv(rows(MAX_POPULATION_ROWS)))).rows).toHaveLength(MAX_POPULATION_ROWS);
  });

  it('a workbook encrypted with a password: POPULATION_PASSWORD_PROTECTED, saying how to save a copy without it', async () => {
    const e = await refusal(readPopulation({ name: 'tickets.xlsx', bytes: encryptedWorkbook() }));
    expect(e.code).toBe('POPULATION_PASSWORD_PROTECTED');
    expect(e.message).toMatch(/save a copy without the password/);
  });

  it('files that are not CSV or XLSX: POPULATION_UNSUPPORTED (a PDF, an .xls, a zip that is no workbook, binary named .csv, .xlsx that is no zip)', async () => {
    const zip = Buffer.from('504b0304140000000000', 'hex');
    const cases: { name: string; bytes: Buffer }[] = [
      { name: 'tickets.pdf', bytes: Buffer.from('%PDF-1.7\n1 0 obj\n') },
      { name: 'tickets.xls', bytes: legacyWorkbook() },
      { name: 'tickets.xlsx', bytes: Buffer.concat([zip, Buffer.alloc(64)]) },
      { name: 'tickets.csv', bytes: Buffer.from([0x4b, 0x65, 0x79, 0x00, 0x01, 0x02]) },
      { name: 'tickets.xlsx', bytes: Buffer.from('Key,Title\nA-1,x\n') },
      { name: 'other.doc', bytes: compoundFile([{ name: 'WordDocument', size: 4096 }]) },
    ];
    for (const file of cases) {
      const e = await refusal(readPopulation(file));
      expect(e.code, file.name).toBe('POPULATION_UNSUPPORTED');
      expect(e.message, file.name).toMatch(/CSV|\.xlsx/);
    }
  });
});

describe('the header row', () => {
  it('is the first row as wide as the data that names columns; a row of IDs or numbers is no header', () => {
    expect(findHeaderRow([['Report'], [''], ['Key', 'Title'], ['A-1', 'x'], ['A-2', 'y']])).toBe(2);
    expect(
      findHeaderRow([
        ['A-1', 'x'],
        ['A-2', 'y'],
      ]),
    ).toBeNull();
    expect(
      findHeaderRow([
        ['Key', 'Key'],
        ['A-1', 'x'],
      ]),
    ).toBeNull();
  });
});
