/**
 * The engine's one public entry. Everything it needs is passed in, so the same
 * engine runs in the desktop app (utility process), the CLI and the tests,
 * and never imports Electron.
 */
import {
  collectReportData,
  defaultPdfRenderer,
  renderJson,
  renderMarkdown,
  renderReport,
  type ExportOptions,
  type MarkdownOptions,
  type PdfRenderer,
  type ReportFormat,
} from './report';
import { defaultRunSettings, executeRun, startRun, type RunControl, type RunOutcome, type RunSettings } from './pipeline';
import type { Logger } from './log';
import { createLlmClient, resolveEndpoint, type KeySource, type LlmClient } from './llm';
import type { EndpointSettings } from '../../shared/endpoints';
import { ingestFile } from './pdf';
import { createTesseractRecognizer, type PageRecognizer } from './ocr';
import { listDocuments, listRunInputs, listRuns, type Database } from './store';
import { getRunModels, type RunModels } from './review';

export interface EngineDeps {
  db: Database;
  appVersion: string;
  now?: () => Date;
  /** Replaceable for tests; defaults to the pdf.js ingestion. */
  ingestFile?: typeof ingestFile;
  /** Replaceable for tests; defaults to a client for the given endpoint (else the run's first, else Ollama at the run's host). */
  createLlm?: (settings: RunSettings, endpoint?: EndpointSettings) => LlmClient;
  /** API keys of endpoints, by their `keyRef` (the CLI: environment variables; the app: safeStorage). */
  keys?: KeySource;
  /** Prints report HTML to PDF; defaults to headless Chromium (the desktop app passes Electron's printToPDF). */
  renderPdf?: PdfRenderer;
  /** The app's log (runs, stages, errors with stacks); default: nothing is logged. */
  log?: Logger;
  /** The OCR engine of a run, for the run's languages; defaults to tesseract.js with their installed data. */
  createRecognizer?: (languages: readonly string[]) => PageRecognizer;
}

export interface Engine {
  /** Starts a run over files and resolves when it ends (done, cancelled, or with failed inputs listed). */
  analyze(files: readonly string[], settings?: Partial<RunSettings>, control?: RunControl): Promise<RunOutcome>;
  /** Continues a run that was cancelled or interrupted, skipping inputs already done. */
  resume(runId: number, control?: RunControl): Promise<RunOutcome>;
  markdownReport(runId: number, options?: MarkdownOptions): string;
  /** Merged findings with their sources, ungrounded ones and unreviewed mentions apart, as versioned JSON. */
  jsonReport(runId: number): string;
  /**
   * The audit report of a run (or one of its documents) in one format: a
   * string for md, html, csv and json, PDF bytes for pdf (printed from the
   * same HTML). Throws RUN_NOT_FOUND, INVALID_INPUT, or FILE_NOT_FOUND when
   * no browser can print the PDF.
   */
  exportReport(runId: number, format: ReportFormat, options?: ExportOptions): Promise<Buffer | string>;
  listRuns: () => ReturnType<typeof listRuns>;
  listDocuments: () => ReturnType<typeof listDocuments>;
  listRunInputs: (runId: number) => ReturnType<typeof listRunInputs>;
  /** The models a run used, with their digests, and whether the server was a simulator (its plan, as logged). */
  runModels: (runId: number) => RunModels;
}

export function createEngine(deps: EngineDeps): Engine {
  const now = deps.now ?? (() => new Date());
  const createLlm =
    deps.createLlm ??
    ((settings: RunSettings, endpoint: EndpointSettings | undefined = settings.llm.endpoints?.[0]) =>
      createLlmClient({
        db: deps.db,
        ...(endpoint ? { endpoint: resolveEndpoint(endpoint, deps.keys) } : settings.llm.host ? { host: settings.llm.host } : {}),
        // An endpoint takes as many requests at once as files are sent to it (one in flight per file).
        settings: { maxInFlight: endpoint ? endpoint.concurrency : settings.llm.maxInFlight, cache: settings.llm.cache },
      }));
  const runDeps = {
    db: deps.db,
    ingestFile: deps.ingestFile ?? ingestFile,
    now,
    createLlm,
    createRecognizer: deps.createRecognizer ?? ((languages: readonly string[]) => createTesseractRecognizer(languages)),
    ...(deps.log ? { log: deps.log } : {}),
  };
  return {
    analyze: (files, settings = {}, control = {}) => startRun(runDeps, files, defaultRunSettings(settings), control),
    resume: (runId, control = {}) => executeRun(runDeps, runId, control),
    markdownReport: (runId, options) => renderMarkdown(collectReportData(deps.db, runId, { appVersion: deps.appVersion, now: now() }), options),
    jsonReport: (runId) => renderJson(collectReportData(deps.db, runId, { appVersion: deps.appVersion, now: now() })),
    exportReport: async (runId, format, options = {}) => {
      const data = collectReportData(deps.db, runId, {
        appVersion: deps.appVersion,
        now: now(),
        ...(options.documentId === undefined ? {} : { documentId: options.documentId }),
      });
      return renderReport(data, format, options, deps.renderPdf ?? defaultPdfRenderer);
    },
    listRuns: () => listRuns(deps.db),
    listDocuments: () => listDocuments(deps.db),
    listRunInputs: (runId) => listRunInputs(deps.db, runId),
    runModels: (runId) => getRunModels(deps.db, runId),
  };
}

export { DEFAULT_RUN_LLM_SETTINGS, defaultRunSettings, type RunControl, type RunOutcome, type RunSettings } from './pipeline';
export { isPasswordFailure, oneTimePassword, requeueForPassword, type PasswordRequest, type PasswordSource } from './pipeline';
export { stopIdleRun } from './pipeline';
export type { RunModels } from './review';
export { createFileLogger, LOG_FILE, silentLogger, type FileLogger, type Logger } from './log';
export { StopRequest, writeOutputFile, type StopKind } from './util';
export type { ExportOptions, ReportFormat } from './report';
export { assertOcrLanguagesInstalled, installedOcrLanguages, listOcrPages, loadPageOcrWords } from './ocr';
