/**
 * The engine's one public entry. Everything it needs is passed in, so the same
 * engine runs in the desktop app (utility process), the CLI and the tests,
 * and never imports Electron.
 */
import { collectReportData, renderMarkdown, type MarkdownOptions } from './report';
import { executeRun, startRun, type RunControl, type RunOutcome } from './jobs/runner';
import { defaultRunSettings, type RunSettings } from './jobs/settings';
import { ingestFile } from './pdf';
import { listDocuments, listRunInputs, listRuns, type Database } from './store';

export interface EngineDeps {
  db: Database;
  appVersion: string;
  now?: () => Date;
  /** Replaceable for tests; defaults to the pdf.js ingestion. */
  ingestFile?: typeof ingestFile;
}

export interface Engine {
  /** Starts a run over files and resolves when it ends (done, cancelled, or with failed inputs listed). */
  analyze(files: readonly string[], settings?: Partial<RunSettings>, control?: RunControl): Promise<RunOutcome>;
  /** Continues a run that was cancelled or interrupted, skipping inputs already done. */
  resume(runId: number, control?: RunControl): Promise<RunOutcome>;
  markdownReport(runId: number, options?: MarkdownOptions): string;
  listRuns: () => ReturnType<typeof listRuns>;
  listDocuments: () => ReturnType<typeof listDocuments>;
  listRunInputs: (runId: number) => ReturnType<typeof listRunInputs>;
}

export function createEngine(deps: EngineDeps): Engine {
  const now = deps.now ?? (() => new Date());
  const runDeps = { db: deps.db, ingestFile: deps.ingestFile ?? ingestFile, now };
  return {
    analyze: (files, settings = {}, control = {}) => startRun(runDeps, files, defaultRunSettings(settings), control),
    resume: (runId, control = {}) => executeRun(runDeps, runId, control),
    markdownReport: (runId, options) => renderMarkdown(collectReportData(deps.db, runId, { appVersion: deps.appVersion, now: now() }), options),
    listRuns: () => listRuns(deps.db),
    listDocuments: () => listDocuments(deps.db),
    listRunInputs: (runId) => listRunInputs(deps.db, runId),
  };
}

export type { RunControl, RunOutcome } from './jobs/runner';
export type { RunSettings } from './jobs/settings';
