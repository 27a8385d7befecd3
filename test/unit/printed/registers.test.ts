/**
 * Registers (printed/registers.ts): lists whose rows are the findings themselves (a release note's issue table,
 * a list of change requests), found by their ID-led rows, never an audit report's summary of findings described
 * elsewhere, a table of references or a short list.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../../shared/findings';
import { DEFAULT_ID_PATTERNS } from '../../../shared/idPatterns';
import { entryName } from '../../../shared/completeness';
import { findListings, textLines } from '../../../electron/engine/printed';
import { findRegisters } from '../../../electron/engine/printed/registers';
import { documentFromPages } from '../../helpers/documents';

const registersOf = (pages: string[]) => {
  const doc = documentFromPages(pages);
  return findRegisters(textLines(doc), doc.text, DEFAULT_PROFILE, DEFAULT_ID_PATTERNS);
};

const changelog = [
  'Release 1.2.0 - 2024-02-04',
  'IMPROVEMENTS:',
  'JIRA | Summary | Priority | Component | Reporter',
  'HADOOP-18282 | Add .asf.yaml to hadoop-thirdparty | Major | hadoop-thirdparty | Ayush Saxena',
  'HADOOP-18721 | Upgrade guava in hadoop-thirdparty to 31.1-jre | Major | hadoop-thirdparty | D M Murali',
  'HADOOP-18921 | upgrade avro in hadoop-thirdparty to 1.11.3 | Major | hadoop-thirdparty | PJ Fanning',
  'BUG FIXES:',
  'JIRA | Summary | Priority | Component | Reporter',
  'HADOOP-17707 | Remove jaeger document from site index | Major | hadoop-thirdparty | Takanobu Asanuma',
  'Release 1.1.0 - 2021-05-13',
  'BUG FIXES:',
  'JIRA | Summary | Priority Component | Reporter',
  'HADOOP-17697 | Fix license error in GitHub Actions workflow files | Blocker build | Akira Ajisaka',
  'HADOOP-17707 | Remove jaeger document from site index | Major . | Takanobu Asanuma',
  'OTHER:',
  'HADOOP-16867 [thirdparty] Add shaded JaegerTracer Major . Siyao Meng Siyao Meng',
].join('\n');

describe('registers: rows that are the findings themselves', () => {
  it('an issue table over sub-headings and releases is one register: each row its ID, first cell as title, priority as severity', () => {
    const [register, ...more] = registersOf([changelog]);
    expect(more).toEqual([]);
    expect(register!.map((e) => e.id)).toEqual([
      'HADOOP-18282',
      'HADOOP-18721',
      'HADOOP-18921',
      'HADOOP-17707',
      'HADOOP-17697',
      'HADOOP-17707',
      'HADOOP-16867',
    ]);
    expect(register![1]).toMatchObject({
      kind: 'register',
      number: 'HADOOP-18721',
      title: 'Upgrade guava in hadoop-thirdparty to 31.1-jre',
      severity: 'Major',
    });
    // Cells set close together share one: the severity word is still read ("Blocker build").
    expect(register![4]).toMatchObject({ title: 'Fix license error in GitHub Actions workflow files', severity: 'Blocker', severityCanonical: 'Critical' });
    expect(entryName(register![0]!)).toBe('Register row HADOOP-18282');
    // A row whose cells were not told apart: the title ends at its severity word.
    expect(register![6]).toMatchObject({ title: '[thirdparty] Add shaded JaegerTracer', severity: 'Major' });
  });

  it("a bulleted list of change requests: the row's text is its title, without its closing note", () => {
    const list = Array.from({ length: 6 }, (_, i) => `- CR-${2001 + i}: Invoice export number ${i + 1} times out for large batches (core)`);
    const [register] = registersOf([['Change requests in this release', ...list].join('\n')]);
    expect(register).toHaveLength(6);
    expect(register![0]).toMatchObject({ id: 'CR-2001', title: 'Invoice export number 1 times out for large batches', severity: null });
  });

  it('bullets a symbol font drew as the letter "o" or a private-use glyph lead rows too: "o REL-1504: title"', () => {
    const rows = [
      ...Array.from({ length: 4 }, (_, i) => `o REL-${1504 + i}: Adding labels to the export number ${i + 1}`),
      '\uF0B7 REL-1508: Search index ignores the timezone',
      '\uF0A7 REL-1509: Mail relay rejects valid input',
    ];
    const [register, ...more] = registersOf([['Release 7.4', ...rows].join('\n')]);
    expect(more).toEqual([]);
    expect(register!.map((e) => [e.id, e.title])).toEqual([
      ['REL-1504', 'Adding labels to the export number 1'],
      ['REL-1505', 'Adding labels to the export number 2'],
      ['REL-1506', 'Adding labels to the export number 3'],
      ['REL-1507', 'Adding labels to the export number 4'],
      ['REL-1508', 'Search index ignores the timezone'],
      ['REL-1509', 'Mail relay rejects valid input'],
    ]);
    // A word that merely starts with "o" before an ID is prose, not a bullet.
    expect(registersOf([Array.from({ length: 6 }, (_, i) => `of REL-${1600 + i}: the export was slow`).join('\n')])).toEqual([]);
  });

  it('a row wrapped over two lines keeps its continuation; prose between rows ends the register', () => {
    const rows = (from: number) => Array.from({ length: 5 }, (_, i) => `PBI-${from + i} | Login page drops records number ${i} | High`);
    const text = [
      ...rows(100).slice(0, 2),
      'after a restart | |',
      ...rows(100).slice(2),
      'The upgrade from 7.3 needs a schema migration that runs for several minutes on large installations, so plan a maintenance window before you start it.',
      ...rows(200),
    ].join('\n');
    const registers = registersOf([text]);
    expect(registers.map((r) => r.length)).toEqual([5, 5]);
    expect(registers[0]![1]!.text).toContain('after a restart');
  });

  it("not a register: an audit report's summary rows whose IDs its detailed sections print again", () => {
    const summary = Array.from({ length: 6 }, (_, i) => `ACME-${i * 3 + 1} | Oracle price read without check number ${i} | High`);
    const details = Array.from(
      { length: 6 },
      (_, i) =>
        `ACME-${i * 3 + 1}: Oracle price read without check number ${i}\nThe price feed is used without checking its update time, so a stale price is accepted.`,
    );
    expect(registersOf([['Overview', ...summary].join('\n'), details.join('\n')])).toEqual([]);
  });

  it('not a register: a table of advisories and standards, or fewer rows than a register has', () => {
    const advisories = Array.from({ length: 6 }, (_, i) => `CVE-2021-${22560 + i} | Denial of service in protobuf parser | High`);
    expect(registersOf([advisories.join('\n')])).toEqual([]);
    const short = Array.from({ length: 4 }, (_, i) => `PBI-${10 + i} | Login page drops records number ${i} | High`);
    expect(registersOf([short.join('\n')])).toEqual([]);
  });

  it('findListings adds registers after the listings of findings, never over them', () => {
    const summary = [
      'Summary of Findings',
      ...Array.from({ length: 6 }, (_, i) => `LID-0${i + 1} | Node operator rewards leaked number ${i} | Medium | Open`),
    ].join('\n');
    const doc = documentFromPages([summary, changelog]);
    const listings = findListings(textLines(doc), doc.text, DEFAULT_PROFILE, DEFAULT_ID_PATTERNS);
    expect(listings.map((l) => [l.kind, l.entries.length])).toEqual([
      ['summary-table', 6],
      ['register', 7],
    ]);
  });

  it('a changelog whose bullets end with their ID is a register too: each title the text before its ID', () => {
    const bullets = [
      'Changes in 7.4',
      '- Fix login timeout when the session expires (PBI-1201)',
      '- Invoice export drops rows for large batches (PBI-1202)',
      '• Search index ignores the timezone [PBI-1203]',
      '- Report builder shows wrong totals at month end: PBI-1204',
      '- Mail relay rejects valid input — PBI-1205.',
      'Upgrade notes follow on the next page.',
    ].join('\n');
    const [register, ...more] = registersOf([bullets]);
    expect(more).toEqual([]);
    expect(register!.map((e) => [e.id, e.title])).toEqual([
      ['PBI-1201', 'Fix login timeout when the session expires'],
      ['PBI-1202', 'Invoice export drops rows for large batches'],
      ['PBI-1203', 'Search index ignores the timezone'],
      ['PBI-1204', 'Report builder shows wrong totals at month end'],
      ['PBI-1205', 'Mail relay rejects valid input'],
    ]);
  });

  it('never prose whose sentences end with an ID, nor bullets naming IDs the document prints elsewhere', () => {
    const prose = Array.from({ length: 6 }, (_, i) => `The team fixed the export problem reported as PBI-13${i}0.`).join('\n');
    expect(registersOf([prose])).toEqual([]);
    const recommendations = ['Recommendations', ...Array.from({ length: 6 }, (_, i) => `- Add the missing access check to the vault (TOB-ACME-${i + 1})`)].join(
      '\n',
    );
    const sections = Array.from({ length: 6 }, (_, i) => `TOB-ACME-${i + 1}: Missing access check ${i + 1}\nThe vault lets anyone call it.`).join('\n');
    expect(registersOf([recommendations, sections])).toEqual([]);
  });
});
