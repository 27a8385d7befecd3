/**
 * Tables read as tables, on generated PDFs: a summary table whose titles wrap above and below the ID cell (Sigma
 * Prime's LaTeX layout), and a changelog whose IDs wrap inside a narrow cell ("PROJ-" over "18282", HTML layout).
 * Each row must come out as one line with its cells in order, the IDs as ID mentions, and every offset must still
 * map to the page and the words the PDF prints.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageAt } from '../../../shared/canonical';
import type { ExtractedDocument } from '../../../shared/types';
import { ingestFile } from '../../../electron/engine/pdf';
import { DEFAULT_ID_PATTERNS, findIdMentions } from '../../../electron/engine/rules';
import { makeTablePdf, proseLines, writeFixture, type TablePageSpec } from '../../fixtures/pdfFactory';
import { expectConsistentOffsets } from './offsets';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pdf-tables-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function ingestPages(name: string, pages: readonly TablePageSpec[]): Promise<ExtractedDocument> {
  const file = writeFixture(path.join(dir, name), await makeTablePdf(pages));
  return (await ingestFile(file, { workers: 0 })).document;
}

/** The canonical lines of a page, as text. */
function pageLines(doc: ExtractedDocument, page: number): string[] {
  return doc.lines.filter((line) => line.page === page).map((line) => doc.text.slice(line.start, line.end));
}

const SUMMARY: TablePageSpec = {
  before: ['Summary of Findings', 'The table below lists every issue found during the review.'],
  table: {
    columnX: [72, 130, 420, 490],
    header: ['ID', 'Description', 'Severity', 'Status'],
    verticalAlign: 'middle',
    rows: [
      [['ABC-01'], ['Rewards Unevenly Leaked'], ['Medium'], ['Resolved']],
      [['ABC-02'], ['Stopped Validators Do Not Contribute Towards the', 'Operator Staking Limit'], ['Low'], ['Open']],
      [['ABC-03'], ['Insufficient Protection for Uninitialized', 'Contracts in the Upgrade Path'], ['Low'], ['Resolved']],
      [['ABC-04'], ['Submit Always Returns Zero'], ['Informational'], ['Closed']],
    ],
  },
  after: proseLines(4, 7),
};

const CHANGELOG: TablePageSpec = {
  before: ['Release 1.2.0', 'IMPROVEMENTS:'],
  table: {
    columnX: [50, 110, 270, 320, 400],
    header: ['JIRA', 'Summary', 'Priority', 'Component', 'Reporter'],
    verticalAlign: 'top',
    size: 8.5,
    rows: [
      [['PROJ-', '18282'], ['Add .asf.yaml to project-thirdparty'], ['Major'], ['project-', 'thirdparty'], ['Ayush Saxena']],
      [['PROJ-', '18721'], ['Upgrade guava in project-', 'thirdparty to 31.1-jre'], ['Major'], ['project-', 'thirdparty'], ['D M Murali', 'Krishna Reddy']],
      [['PROJ-', '18197'], ['Update protobuf 3.7.1 to a version', 'without CVE-2021-22569'], ['Minor'], ['build'], ['Ivan Viaznikov']],
    ],
  },
  after: ['BUG FIXES:', ...proseLines(3, 11)],
};

describe('tables read as tables', () => {
  it('a summary table whose titles wrap above and below the ID cell: one row per finding, cells in order', async () => {
    const doc = await ingestPages('summary.pdf', [SUMMARY]);
    const lines = pageLines(doc, 1);
    expect(lines).toContain('ID | Description | Severity | Status');
    expect(lines).toContain('ABC-01 | Rewards Unevenly Leaked | Medium | Resolved');
    expect(lines).toContain('ABC-02 | Stopped Validators Do Not Contribute Towards the Operator Staking Limit | Low | Open');
    expect(lines).toContain('ABC-03 | Insufficient Protection for Uninitialized Contracts in the Upgrade Path | Low | Resolved');
    expect(lines).toContain('ABC-04 | Submit Always Returns Zero | Informational | Closed');
    // The prose around the table is untouched.
    expect(lines.slice(0, 2)).toEqual(['Summary of Findings', 'The table below lists every issue found during the review.']);
    for (const line of SUMMARY.after!) expect(lines).toContain(line);
    expect(lines.filter((line) => line.includes(' | '))).toHaveLength(5);
    expectConsistentOffsets(doc);
  });

  it('IDs wrapped in a narrow cell are one ID mention each, on the page and at the words the PDF prints', async () => {
    // The changelog on page 2, so a wrong page mapping would show.
    const doc = await ingestPages('changelog.pdf', [SUMMARY, CHANGELOG]);
    const lines = pageLines(doc, 2);
    expect(lines).toContain('JIRA | Summary | Priority | Component | Reporter');
    expect(lines).toContain('PROJ-18282 | Add .asf.yaml to project-thirdparty | Major | project-thirdparty | Ayush Saxena');
    expect(lines).toContain('PROJ-18721 | Upgrade guava in project-thirdparty to 31.1-jre | Major | project-thirdparty | D M Murali Krishna Reddy');
    expect(lines).toContain('PROJ-18197 | Update protobuf 3.7.1 to a version without CVE-2021-22569 | Minor | build | Ivan Viaznikov');
    expect(lines).toContain('BUG FIXES:');
    expectConsistentOffsets(doc);

    const mentions = findIdMentions(doc.text, doc.pages, DEFAULT_ID_PATTERNS);
    const onPage2 = mentions.filter((m) => m.page === 2).map((m) => m.normalized);
    expect(onPage2).toEqual(['PROJ-18282', 'PROJ-18721', 'PROJ-18197', 'CVE-2021-22569']);
    expect(mentions.filter((m) => m.page === 1).map((m) => m.normalized)).toEqual(['ABC-01', 'ABC-02', 'ABC-03', 'ABC-04']);
    for (const mention of mentions) {
      // Each mention's offsets slice exactly its printed ID, on the page the offsets fall in.
      expect(doc.text.slice(mention.start, mention.end)).toBe(mention.normalized);
      expect(pageAt(doc.pages, mention.start)).toBe(mention.page);
      // And its row (one canonical line) holds the rest of that row's cells.
      const line = doc.lines.find((l) => l.start <= mention.start && mention.end <= l.end)!;
      expect(line.page).toBe(mention.page);
    }
    const row = doc.lines.find((l) => doc.text.slice(l.start, l.end).startsWith('PROJ-18721'))!;
    expect(doc.text.slice(row.start, row.end)).toContain('Krishna Reddy');
  });

  it('prose, and a table without wrapped cells but ending in page numbers (a contents list), stay line by line', async () => {
    const contents: TablePageSpec = {
      before: ['Contents'],
      table: {
        columnX: [72, 100, 500],
        verticalAlign: 'top',
        rows: [
          [['1'], ['Introduction'], ['3']],
          [['2'], ['Findings'], ['5']],
          [['3'], ['Appendix'], ['9']],
        ],
      },
      after: proseLines(6, 3),
    };
    const doc = await ingestPages('contents.pdf', [contents]);
    const lines = pageLines(doc, 1);
    expect(lines.slice(0, 4)).toEqual(['Contents', '1 Introduction 3', '2 Findings 5', '3 Appendix 9']);
    expect(lines.some((line) => line.includes(' | '))).toBe(false);
    expectConsistentOffsets(doc);
  });
});
