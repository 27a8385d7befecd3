/**
 * The generated documents `npm run eval` measures a model on: a report with
 * planted findings of known pages, a report with none (a model that
 * invents findings shows up there), a report of sibling findings whose
 * titles are one word apart (a merge that joins them loses a finding), and
 * reports that print each finding's severity only in its group heading, and one whose findings come in pairs of long
 * titles one word apart. The real PDFs of ../shared/corpus come
 * with their truth files (truthResponder.ts loadCorpusTruth).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupSeverityReport } from '../fixtures/groupSeverityReport';
import { oneWordSiblingsReport } from '../fixtures/oneWordSiblings';
import { plantedReport } from '../fixtures/plantedFindings';
import type { TruthDocument } from './truthResponder';

export interface TruthFinding {
  id: string | null;
  /** Titles the finding may carry (summary-table and detailed-section wording). */
  titles: string[];
  /** Page of the detailed section, 1-based. */
  page: number;
}

export interface LabelledDocument {
  name: string;
  file: string;
  truth: TruthFinding[];
  /** Generated documents can be answered by the simulator; real ones need a real model. */
  generated: boolean;
  /** Answered by the truth-driven responder (truthResponder.ts) in the eval's model modes, and gated like the corpus. */
  truthDocument?: TruthDocument;
}

/**
 * A review whose findings come in sibling pairs whose titles differ in one distinguishing word or phrase, and
 * whose descriptions read alike (the issue 24 pairs). It prints no ID and no number: only the distinct titles the
 * document prints keep the siblings apart. Each finding has a summary-table row (page 1) and a detailed section
 * on a page of its own.
 */
export function siblingReport(): { pageTexts: string[]; truth: TruthDocument } {
  const findings = [
    {
      title: 'Unused errors can be removed',
      severity: 'Informational',
      what: 'errors',
      body: 'Several custom errors are declared in the contracts but never used. Unused declarations can be removed to reduce the bytecode size and to make the code easier to read.',
    },
    {
      title: 'Unused constants can be removed',
      severity: 'Informational',
      what: 'constants',
      body: 'Several constants are declared in the contracts but never used. Unused declarations can be removed to reduce the bytecode size and to make the code easier to read.',
    },
    {
      title: 'Missing implementation of ValidateGenesis method for authz module',
      severity: 'Low',
      what: 'ValidateGenesis',
      body: 'The authz module does not implement the ValidateGenesis method, so an invalid genesis state is accepted at chain start without any validation of its grants.',
    },
    {
      title: 'Missing implementation of ValidateBasic method for GenericAuthorization',
      severity: 'Low',
      what: 'ValidateBasic',
      body: 'The GenericAuthorization type does not implement the ValidateBasic method, so an invalid authorization is accepted in a transaction without any validation of its fields.',
    },
    {
      title: 'Queued transfers can become stuck when new Transceivers are added',
      severity: 'Medium',
      what: 'Transceivers',
      body: 'A queued transfer records the Transceivers enabled when it was queued. When new Transceivers are added before it completes, the transfer can become stuck and the funds are locked.',
    },
    {
      title: 'Queued transfers can become stuck when instructions are encoded in the incorrect order',
      severity: 'Medium',
      what: 'instructions',
      body: 'A queued transfer stores its Transceiver instructions as given. When the instructions are encoded in the incorrect order, the transfer can become stuck and the funds are locked.',
    },
  ];
  const table = [
    'Sibling Protocol Security Review',
    'Summary of findings',
    'Title Severity Status',
    ...findings.map((f) => `${f.title} ${f.severity} Open`),
  ].join('\n');
  const pages = findings.map((f) =>
    [
      f.title,
      `Severity: ${f.severity}`,
      'Description',
      f.body,
      'Recommendation',
      `Remove or implement the ${f.what} as described, and add a test for it.`,
    ].join('\n'),
  );
  return {
    pageTexts: [table, ...pages],
    truth: { name: 'sibling-report', findings: findings.map((f, i) => ({ id: null, title: f.title, severity: f.severity, page: i + 2 })), statedCounts: null },
  };
}

const CLEAN_PAGES = [
  'Quarterly Operations Review\nThe review covered the deployment records and the change log for the quarter. All changes followed the approved process.',
  'Scope and method\nInterviews were held with the operations team. Samples were drawn as agreed in the engagement letter and every sample matched its record.',
  'Conclusion\nNo exceptions were identified. Management confirmed the description of the controls and the results were discussed with them.',
];

export async function generatedSet(dir: string): Promise<LabelledDocument[]> {
  const report = plantedReport();
  const planted = join(dir, 'planted-report.txt');
  writeFileSync(planted, report.pageTexts.join('\f'));
  const clean = join(dir, 'clean-report.txt');
  writeFileSync(clean, CLEAN_PAGES.join('\f'));
  const siblings = siblingReport();
  const siblingFile = join(dir, 'sibling-report.txt');
  writeFileSync(siblingFile, siblings.pageTexts.join('\f'));
  return [
    {
      name: 'planted-report',
      file: planted,
      generated: true,
      truth: report.truth.map((t) => ({ id: t.id, titles: [t.title, ...t.occurrences.map((o) => o.title)], page: t.page })),
    },
    { name: 'clean-report (no findings)', file: clean, generated: true, truth: [] },
    {
      name: siblings.truth.name,
      file: siblingFile,
      generated: true,
      truth: siblings.truth.findings.map((t) => ({ id: t.id, titles: [t.title], page: t.page })),
      truthDocument: siblings.truth,
    },
    // Severities printed only in group headings (Cyfrin-style), with its contents read as a list of findings, and with a
    // findings chapter the rules do not take for one (the model then sees the contents lines too); an Oak-style report
    // whose findings come in pairs of long titles one word apart.
    ...(await Promise.all(
      [groupSeverityReport(), groupSeverityReport({ chapter: 'Detailed Results' }), oneWordSiblingsReport()].map(async (report) => {
        const file = join(dir, `${report.name}.pdf`);
        writeFileSync(file, await report.pdf());
        return {
          name: report.name,
          file,
          generated: true,
          truth: report.truth.findings.map((t) => ({ id: t.id, titles: [t.title], page: t.page })),
          truthDocument: report.truth,
        };
      }),
    )),
  ];
}
