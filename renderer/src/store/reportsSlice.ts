/** Report exports (a run's or a document's) and showing a written report: the export control keeps its own form state. */
import type { CommandInput, ExportResult } from '../../../shared/contract';
import type { Result } from '../../../shared/errors';
import type { SliceCreator } from './slice';

export interface ReportsSlice {
  exportReport(input: CommandInput<'reports.export'>): Promise<Result<ExportResult>>;
  /** Opens a written report, or shows it in its folder (desktop app); the sentence to show. */
  reveal(path: string, action: 'open' | 'show'): Promise<string>;
}

export const createReportsSlice: SliceCreator<'reports'> = (_set, get) => ({
  reports: {
    exportReport: (input) => get().host.call('reports.export', input),
    async reveal(path, action) {
      const answer = await get().host.call('reports.reveal', { path, action });
      return answer.ok ? answer.data.message : answer.error.message;
    },
  },
});
