/**
 * The labelled documents `npm run eval` measures a model on: generated
 * reports with planted findings of known pages, a report with none (a model
 * that invents findings shows up there), and, when ../shared/corpus is
 * present, real audit reports with their published finding lists.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

interface CorpusTruth {
  kind: string;
  findings: { id: string; title: string; detail_title?: string; page: number }[];
}

export function corpusSet(corpusDir = resolve(import.meta.dirname, '../../../shared/corpus')): LabelledDocument[] {
  const truthDir = join(corpusDir, 'truth');
  if (!existsSync(truthDir)) return [];
  return readdirSync(truthDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ name: f.replace(/\.json$/, ''), truth: JSON.parse(readFileSync(join(truthDir, f), 'utf8')) as CorpusTruth }))
    .filter(({ truth }) => truth.kind === 'audit')
    .map(({ name, truth }) => ({
      name,
      file: join(corpusDir, 'pdfs', `${name}.pdf`),
      generated: false,
      // Oak's IDs are bare sequence numbers ("7"): not IDs a model can be matched on, so match those by title.
      truth: truth.findings.map((t) => ({ id: /[A-Za-z]/.test(t.id) ? t.id : null, titles: [t.title, ...(t.detail_title ? [t.detail_title] : [])], page: t.page })),
    }));
}
