/**
 * Itemised lists whose items are findings (printed/itemLists.ts): found across wrapped items and page breaks,
 * told apart from enumerations and headings, and their items that no finding covers named only when most of the
 * list was reported as findings.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, type MergedFinding } from '../../../shared/findings';
import { checkCompleteness } from '../../../electron/engine/completeness';
import { findItemLists, itemsWithoutFinding, textLines } from '../../../electron/engine/printed';
import { documentFromPages } from '../../helpers/documents';

const FOOTER = 'Changelog | Acme Ledger';
const fixes = (from: number, count: number) => Array.from({ length: count }, (_, k) => `- Fix ledger sync case ${from + k} when the batch is retried`);

function changelog() {
  return documentFromPages([
    ['Version 3.2.0', ...fixes(1, 6), '- Fix the export of very long invoices that wraps', 'onto a second line in the changelog', FOOTER + ' 1'].join('\n'),
    [...fixes(7, 3), 'Upgrade notes', 'Run the migration before starting the service.', FOOTER + ' 2'].join('\n'),
    ['Version 3.1.0', 'Nothing changed in this version.', FOOTER + ' 3'].join('\n'),
  ]);
}

/** A finding grounded on [start, end). */
function grounded(id: number, start: number, end: number): MergedFinding {
  return {
    id,
    runId: 1,
    documentId: 1,
    findingKey: null,
    printedNumber: null,
    modelLabels: [],
    title: `Finding ${id}`,
    type: 'defect',
    severity: 'Low',
    severityCanonical: 'Low',
    severityRank: 3,
    description: '',
    mainPage: 1,
    mainFindingId: id,
    grounded: true,
    absorbedFindingIds: [],
    sources: [
      {
        findingId: id,
        nodeIndex: 1,
        page: 1,
        title: `Finding ${id}`,
        evidence: '',
        evidenceStart: start,
        evidenceEnd: end,
        grounded: true,
        match: 'exact',
        inContextOnly: false,
        isMain: true,
        modelId: null,
      },
    ],
  };
}

describe('itemised lists', () => {
  it('are one list across a wrapped item and a page break, and end at the prose after them', () => {
    const doc = changelog();
    const lists = findItemLists(textLines(doc));
    expect(lists).toHaveLength(1);
    const items = lists[0]!.items;
    expect(items).toHaveLength(10);
    expect(items[6]!.text).toBe('- Fix the export of very long invoices that wraps onto a second line in the changelog');
    expect(items.map((i) => i.page)).toEqual([1, 1, 1, 1, 1, 1, 1, 2, 2, 2]);
    expect(items.some((i) => i.text.includes('Upgrade notes') || i.text.includes(FOOTER))).toBe(false);
  });

  it('are not a sentence\u2019s three bullets, nor numbered headings that do not start at 1', () => {
    const doc = documentFromPages([
      'Scope\n- the portal\n- the API\n- the admin console\n3. Results\n4. Findings\n5. Appendix\n6. Glossary\n7. Index\n8. Notes',
    ]);
    expect(findItemLists(textLines(doc))).toEqual([]);
    const numbered = documentFromPages([
      'Observations\n1. Backups are not tested\n2. Logs are kept for a week\n3. Keys are not rotated\n4. Admins share one account\n5. Alerts go to a shared inbox',
    ]);
    const [list] = findItemLists(textLines(numbered));
    expect(list!.items.map((i) => i.text.slice(0, 2))).toEqual(['1.', '2.', '3.', '4.', '5.']);
    // The same lines read as the document's contents or summary table of findings are checked entry by entry: no item list.
    expect(findItemLists(textLines(numbered), [{ entries: [{ start: list!.items[1]!.start, end: list!.items[2]!.end }] }])).toEqual([]);
  });

  it('name the items no finding covers only in a list most of whose items were reported as findings', () => {
    const doc = changelog();
    const lists = findItemLists(textLines(doc));
    const items = lists[0]!.items;
    const spans = (indexes: number[]) => indexes.map((i) => ({ start: items[i]!.start + 2, end: items[i]!.end - 3 }));
    // 8 of 10 reported: the other two are what the model skipped.
    expect(itemsWithoutFinding(lists, spans([0, 1, 2, 3, 5, 6, 7, 9])).map((u) => [u.item.text, u.covered, u.total])).toEqual([
      ['- Fix ledger sync case 5 when the batch is retried', 8, 10],
      ['- Fix ledger sync case 8 when the batch is retried', 8, 10],
    ]);
    // 3 of 10 reported: the list is not read as one of findings, nothing is named.
    expect(itemsWithoutFinding(lists, spans([0, 4, 8]))).toEqual([]);
  });

  it('reach the verdict as places to check, with their page', async () => {
    const doc = changelog();
    const items = findItemLists(textLines(doc))[0]!.items;
    const findings = items.filter((_, i) => i !== 8).map((item, i) => grounded(i + 1, item.start, item.end));
    const { verdict } = await checkCompleteness({
      doc,
      profile: DEFAULT_PROFILE,
      idPatterns: DEFAULT_PROFILE.idPatterns,
      findings,
      unreviewedMentions: [],
      failedChunks: [],
    });
    expect(verdict.status).toBe('check');
    expect(verdict.places).toEqual([
      {
        kind: 'item-without-finding',
        page: 2,
        message:
          'List item on page 2, "- Fix ledger sync case 8 when the batch is retried", matches no finding, while 9 of the 10 items of its list were reported as findings.',
      },
    ]);
    const all = await checkCompleteness({
      doc,
      profile: DEFAULT_PROFILE,
      idPatterns: DEFAULT_PROFILE.idPatterns,
      findings: items.map((item, i) => grounded(i + 1, item.start, item.end)),
      unreviewedMentions: [],
      failedChunks: [],
    });
    expect(all.verdict.places).toEqual([]);
  });
});
