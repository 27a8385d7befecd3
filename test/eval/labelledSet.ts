/**
 * The generated documents `npm run eval` measures a model on: a report with
 * planted findings of known pages and a report with none (a model that
 * invents findings shows up there). The real PDFs of ../shared/corpus come
 * with their truth files (truthResponder.ts loadCorpusTruth).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plantedReport } from '../fixtures/plantedFindings';

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
}

const CLEAN_PAGES = [
  'Quarterly Operations Review\nThe review covered the deployment records and the change log for the quarter. All changes followed the approved process.',
  'Scope and method\nInterviews were held with the operations team. Samples were drawn as agreed in the engagement letter and every sample matched its record.',
  'Conclusion\nNo exceptions were identified. Management confirmed the description of the controls and the results were discussed with them.',
];

export function generatedSet(dir: string): LabelledDocument[] {
  const report = plantedReport();
  const planted = join(dir, 'planted-report.txt');
  writeFileSync(planted, report.pageTexts.join('\f'));
  const clean = join(dir, 'clean-report.txt');
  writeFileSync(clean, CLEAN_PAGES.join('\f'));
  return [
    {
      name: 'planted-report',
      file: planted,
      generated: true,
      truth: report.truth.map((t) => ({ id: t.id, titles: [t.title, ...t.occurrences.map((o) => o.title)], page: t.page })),
    },
    { name: 'clean-report (no findings)', file: clean, generated: true, truth: [] },
  ];
}
