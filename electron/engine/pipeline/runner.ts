import { readFile } from 'node:fs/promises';
import { AppError, ErrorCode, isStorageErrorCode, toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import { silentLogger, type Logger } from '../log';
import type { ExtractedDocument, PageSpan, ProgressEvent, RunPhase, RunStatus } from '../../../shared/types';
import { requeueRunningChunks } from '../extract';
import { isRunWideLlmError, type LlmClient } from '../llm';
import { pageWarnings, type IngestResult, type IngestWarning } from '../pdf';
import { carryOverToLatest, type CarryOverResult } from '../review';
import {
  addRunEvent,
  createRun,
  findDocumentBySha,
  getRun,
  listRunInputs,
  loadExtractedDocument,
  runSettingsOf,
  saveDocument,
  updateRunInput,
  type Database,
  type RunInput,
  type StoredRun,
} from '../store';
import { stopKindOf, throwIfAborted, timeStage } from '../util';
import { analyzeDocument } from './documentPipeline';
import { fileSha256 } from './fileIdentity';
import { planRecord, prepareLlmRun, type LlmRunPlan } from './llmPlan';
import { runPool, usesPool, type PoolEmit } from './pool';
import { ocrWarnings, pagesNeedingOcr, readPagesWithOcr, savePageOcr, type PageOcrMark, type PageRecognizer } from '../ocr';
import type { OcrMode } from '../../../shared/contract';
import { DEFAULT_OCR_LANGUAGES } from '../../../shared/ocr';
import { withPassword, type PasswordSource } from './passwords';
import { endInput, markEnded, markRunning, startInput, stopInput } from './runStatus';
import { hasFailures, queueFailedForRetry } from './retryFailed';
import { startReadAhead, type ReadAhead } from './readAhead';
import type { RunSettings } from './settings';
import { plainHttpWarning, type EndpointSettings } from '../../../shared/endpoints';

export interface RunDeps {
  db: Database;
  ingestFile: (
    filePath: string,
    options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void; password?: string },
  ) => Promise<IngestResult>;
  now: () => Date;
  /** Creates the LLM client for a full-mode run (host and settings come from the run), or for one endpoint of its pool. */
  createLlm: (settings: RunSettings, endpoint?: EndpointSettings) => LlmClient;
  /** Where runs, inputs, stages and errors (with their stacks) are logged; default: nowhere. */
  log?: Logger;
  /**
   * The OCR engine for pages without a usable text layer, one per run, reading the run's languages (its worker
   * starts on the first page to read); absent: no OCR.
   */
  createRecognizer?: (languages: readonly string[]) => PageRecognizer;
}

export interface RunControl {
  /**
   * Stops the run between units of work. Abort with `new StopRequest('pause')` to pause: the run and its input in
   * flight are recorded as paused, their progress kept. Any other reason cancels (resumable too).
   */
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  /** Asked when a PDF needs a password (or the last one was wrong); without it such a file fails with PDF_ENCRYPTED. */
  password?: PasswordSource;
}

export interface RunOutcome {
  run: StoredRun;
  inputs: RunInput[];
  /** On a resume that tried again what had failed: what it retried, in a sentence (retryFailed.ts). */
  retried?: string;
}

/** Creates a run for the given files and executes it. */
export async function startRun(deps: RunDeps, files: readonly string[], settings: RunSettings, control: RunControl = {}): Promise<RunOutcome> {
  const runId = createRun(deps.db, settings.mode, settings, files, deps.now().toISOString());
  return executeRun(deps, runId, control);
}

/** The language model of a full-mode run on one endpoint: its client and the plan made from what the server reported. */
type RunLlm = { client: LlmClient; plan: LlmRunPlan };

/** One execution of a run, as its steps share it. */
interface Execution {
  deps: RunDeps;
  runId: number;
  settings: RunSettings;
  control: RunControl;
  log: Logger;
  at: () => string;
  /** Every input of the run, finished ones too (their count names "file 2 of 5"). */
  inputs: RunInput[];
  /** On a resume: what failed before and is tried again. */
  retry: ReturnType<typeof queueFailedForRetry>;
  emit: PoolEmit;
  /** The phase of the last progress event: where a failure of the run is logged as having happened. */
  stage: RunPhase;
}

/**
 * Executes (or resumes) a run: documents one at a time, in order; inside a
 * document, chunks one at a time (documentPipeline). Every unit of work is
 * committed as soon as it is complete, so a run stopped at any point (Ctrl-C,
 * pause, kill -9) resumes at the first unfinished document and chunk, and one
 * bad file never stops the others.
 *
 * The runner is the one owner of the run's and its inputs' status: hosts only
 * ask it to stop (RunControl.signal) and read what it recorded.
 */
export async function executeRun(deps: RunDeps, runId: number, control: RunControl = {}): Promise<RunOutcome> {
  const { db } = deps;
  const run = getRun(db, runId);
  if (!run) throw new AppError(ErrorCode.RUN_NOT_FOUND, `There is no run ${runId} in this database. List runs to find the right number.`);
  // A finished run has nothing to resume, unless something in it failed: that is tried again.
  if (run.status === 'done' && !hasFailures(db, runId)) return { run, inputs: listRunInputs(db, runId) };
  const execution = beginExecution(deps, run, control);
  let llm: RunLlm | undefined;
  const recognizer = deps.createRecognizer?.(execution.settings.ocrLanguages ?? DEFAULT_OCR_LANGUAGES);
  try {
    const pool = usesPool(execution.settings);
    if (execution.settings.mode === 'full' && !pool) {
      llm = await connectSingleEndpoint(execution);
      recordServer(execution, llm);
    }
    await analyzeInputs(execution, pool, llm, recognizer);
  } catch (error) {
    return endStopped(execution, error, llm, recognizer);
  }
  await closeServices(llm, recognizer);
  return endDone(execution);
}

/** Marks the run running (a crashed one's chunks back in the queue, what failed queued again) and says so. */
function beginExecution(deps: RunDeps, run: StoredRun, control: RunControl): Execution {
  const { db } = deps;
  const runId = run.id;
  const settings: RunSettings = runSettingsOf(run);
  const log = (deps.log ?? silentLogger).child({ runId });
  const at = () => deps.now().toISOString();
  // A crash leaves its chunk 'running': it goes back to the queue, its partial work was never committed.
  requeueRunningChunks(db, runId);
  const retry = queueFailedForRetry(db, runId, at());
  markRunning(db, runId, at());
  const inputs = listRunInputs(db, runId);
  log.info({ mode: settings.mode, inputs: inputs.length, resumed: run.startedAt !== null }, 'run started');
  const execution: Execution = {
    deps,
    runId,
    settings,
    control,
    log,
    at,
    inputs,
    retry,
    stage: 'ingest',
    emit: (phase, current, total, message, extra = {}) => {
      execution.stage = phase;
      control.onProgress?.({ runId, phase, current, total, message, ...extra });
    },
  };
  if (retry) {
    log.info({ files: retry.files, chunks: retry.chunks }, 'retrying what failed');
    execution.emit('ingest', 0, inputs.length, retry.message);
  }
  return execution;
}

/** A full-mode run on one endpoint: its client, checked (server, models) and planned before the first file. */
async function connectSingleEndpoint({ deps, runId, settings, control, emit, at, inputs }: Execution): Promise<RunLlm> {
  emit('ingest', 0, inputs.length, 'checking Ollama and the models');
  const client = deps.createLlm(settings, settings.llm.endpoints?.[0]);
  const unencrypted = plainHttpWarning(client.host);
  if (unencrypted) addRunEvent(deps.db, runId, { at: at(), level: 'warn', phase: 'ingest', message: unencrypted, data: { endpoint: client.host } });
  return { client, plan: await prepareLlmRun(client, settings, control.signal) };
}

/** The run log's line naming the server the run talks to (or the simulator) and the context size planned. */
function recordServer({ deps, runId, at }: Execution, llm: RunLlm): void {
  const server = llm.client.kind === 'ollama' ? `Ollama ${llm.plan.probe.version}` : 'OpenAI-compatible server';
  const { simulator } = llm.plan.probe;
  addRunEvent(deps.db, runId, {
    at: at(),
    level: 'info',
    phase: 'ingest',
    message: `${simulator ? `${simulator} (${server} API, not a language model)` : server} at ${llm.plan.probe.host}; num_ctx ${llm.plan.numCtx}`,
    data: planRecord(llm.plan),
  });
}

/** Every input not yet done or failed: spread over the pool's endpoints, or one after another with the next read ahead. */
async function analyzeInputs(execution: Execution, pool: boolean, llm: RunLlm | undefined, recognizer: PageRecognizer | undefined): Promise<void> {
  const { deps, runId, settings, control, emit, log, at, inputs } = execution;
  const pending = inputs.filter((input) => input.status !== 'done' && input.status !== 'failed');
  const job = { deps, runId, inputCount: inputs.length, settings, recognizer, log };
  // The next file is parsed while this one is analysed (readAhead.ts); whatever ends the run stops that parse.
  const endOfRun = new AbortController();
  const readAheadSignal = control.signal ? AbortSignal.any([control.signal, endOfRun.signal]) : endOfRun.signal;
  let ahead: ReadAhead | undefined;
  try {
    // Several endpoints, or one taking several files at once: the pool spreads the files (pool.ts).
    if (pool) {
      await runPool({
        deps,
        runId,
        settings,
        pending,
        control,
        emit,
        log,
        at,
        analyze: (input, poolLlm, emitFor, signal) =>
          runInput({ ...job, input, llm: poolLlm, control: { ...control, signal }, emit: emitFor, readAhead: undefined }),
      });
    }
    for (const [index, input] of (pool ? [] : pending).entries()) {
      throwIfAborted(control.signal);
      const readAhead = ahead;
      const next = pending[index + 1];
      ahead = next ? startReadAhead(deps, next.filePath, readAheadSignal) : undefined;
      await runInput({ ...job, input, llm, control, emit, readAhead });
    }
  } finally {
    endOfRun.abort();
  }
}

/**
 * The run stopped before its end (cancelled, paused, or a run-wide error): records that, with the input in flight,
 * and returns the outcome. A store that cannot record it (a full disk) throws, with the run's number.
 */
async function endStopped(execution: Execution, error: unknown, llm: RunLlm | undefined, recognizer: PageRecognizer | undefined): Promise<RunOutcome> {
  const { deps, runId, control, log, at, emit, retry } = execution;
  const { db } = deps;
  const { stage } = execution;
  const info = toErrorInfo(error, log.path);
  const status: RunStatus = info.code === ErrorCode.CANCELLED ? (stopKindOf(control.signal) === 'pause' ? 'paused' : 'cancelled') : 'failed';
  try {
    // The input in flight takes the run's state and keeps its phase: its committed work stays, a resume continues it.
    for (const input of listRunInputs(db, runId)) if (input.status === 'running') stopInput(db, runId, input.ordinal, status);
    markEnded(db, runId, status, at(), info);
    if (status === 'failed') addRunEvent(db, runId, { at: at(), level: 'error', phase: 'ingest', message: info.message, data: info });
  } catch (bookkeeping) {
    // A full disk (or a store gone read-only) may refuse even this: the run stays 'running' in the store, which a
    // resume takes up like an interrupted run. The error goes up with the run's number, so the host can say how.
    await closeServices(llm, recognizer);
    log.error({ stage, code: info.code, err: error }, 'run failed; its state could not be recorded');
    throw new AppError(info.code, info.message, { ...info.details, runId }, { cause: bookkeeping });
  }
  if (status === 'failed') log.error({ stage, code: info.code, err: error }, 'run failed');
  else log.info({ stage, status }, `run ${status}`);
  emit('done', 0, 0, status === 'failed' ? info.message : status, { runStatus: status });
  await closeServices(llm, recognizer);
  return { run: getRun(db, runId)!, inputs: listRunInputs(db, runId), ...(retry ? { retried: retry.message } : {}) };
}

/** Every input was taken to its end (done or failed): the run is done. */
function endDone({ deps, runId, log, at, emit, retry }: Execution): RunOutcome {
  const { db } = deps;
  markEnded(db, runId, 'done', at());
  const finalInputs = listRunInputs(db, runId);
  log.info({ status: 'done', failedInputs: finalInputs.filter((i) => i.status === 'failed').length }, 'run finished');
  emit('done', finalInputs.length, finalInputs.length, 'finished', { runStatus: 'done' });
  return { run: getRun(db, runId)!, inputs: finalInputs, ...(retry ? { retried: retry.message } : {}) };
}

async function closeServices(llm: RunLlm | undefined, recognizer: PageRecognizer | undefined): Promise<void> {
  await llm?.client.close();
  await recognizer?.close();
}

/** One input's analysis: its run, which model analyses it and where its events go (the pool gives each endpoint its own). */
interface InputJob {
  deps: RunDeps;
  runId: number;
  input: RunInput;
  /** How many inputs the run has ("file 2 of 5"). */
  inputCount: number;
  settings: RunSettings;
  llm: RunLlm | undefined;
  recognizer: PageRecognizer | undefined;
  control: RunControl;
  emit: PoolEmit;
  /** The run's log; the input's lines are its child. */
  log: Logger;
  /** The file's parse, when it was started while the previous file was analysed. */
  readAhead: ReadAhead | undefined;
}

/** One input file: ingest (or reuse), then the document pipeline. Errors of this file stay with it; cancel and run-wide errors go up. */
async function runInput({ deps, runId, input, inputCount, settings, llm, recognizer, control, emit, log: runLog, readAhead }: InputJob): Promise<void> {
  const { db } = deps;
  const at = () => deps.now().toISOString();
  const label = `file ${input.ordinal + 1} of ${inputCount}`;
  // Events name the input by its ordinal (and its document once stored); the file name is for display only.
  const about = { ordinal: input.ordinal, fileName: baseName(input.filePath) };
  const log = runLog.child({ ordinal: input.ordinal });
  startInput(db, runId, input.ordinal);
  let documentId: number | undefined;
  try {
    const ocr = { mode: recognizer ? (settings.ocr ?? 'auto') : 'off', recognizer } as const;
    const ingested = await ingestInput(deps, input, control, ocr, readAhead, (phase, done, total, message) => {
      // OCR is a phase of its own on the input too, so a pause or a cancel during it says where it stopped.
      if (phase === 'ocr' && done === 0) updateRunInput(db, runId, input.ordinal, { phase: 'ocr' });
      emit(phase, done, total, `${label}: ${message}`, about);
    });
    documentId = ingested.documentId;
    log.info({ stage: 'ingest', documentId, pages: ingested.doc.pageCount, warnings: ingested.warnings.map((w) => w.code) }, 'input stored');
    // The input's next phase, as analyzeDocument runs them (RUN_PHASES): the ID mentions first, then the tree.
    updateRunInput(db, runId, input.ordinal, { documentId, warnings: ingested.warnings, phase: 'rules' });
    for (const warning of ingested.warnings)
      addRunEvent(db, runId, { at: at(), level: 'warn', phase: 'ingest', documentId, message: warning.message, data: warning });
    const doc = ingested.doc;
    const unreadable = unreadableDocument(doc.pages, ingested.warnings);
    if (unreadable) {
      endInput(db, runId, input.ordinal, { error: unreadable, phase: 'done' });
      log.warn({ stage: 'ingest', documentId, code: unreadable.code }, 'input failed');
      return;
    }
    let currentPhase: RunPhase = 'rules';
    const outcome = await analyzeDocument({
      db,
      runId,
      documentId,
      doc,
      settings,
      now: deps.now,
      log,
      ...(control.signal ? { signal: control.signal } : {}),
      ...(llm ? { llm } : {}),
      report: (phase, current, total, message, extra) => {
        if (phase !== currentPhase) {
          updateRunInput(db, runId, input.ordinal, { phase });
          log.info({ stage: phase, documentId }, 'stage started');
        }
        currentPhase = phase;
        emit(phase, current, total, `${label}: ${message}`, { ...about, documentId: documentId!, ...extra });
      },
    });
    // The document's review follows it to this run in the same transaction as the input's end, so a kill cannot leave a
    // finished document with its review on an older run: reads (the findings view, report export) then never write.
    db.transaction(() => {
      endInput(db, runId, input.ordinal, { error: outcome.error, phase: 'done' });
      const carried = carryOverToLatest(db, ingested.documentId, at());
      if (carried)
        addRunEvent(db, runId, { at: at(), level: 'info', phase: 'done', documentId: ingested.documentId, message: carryOverMessage(carried), data: carried });
    })();
    if (outcome.error) {
      addRunEvent(db, runId, { at: at(), level: 'error', phase: 'extract', documentId, message: outcome.error.message, data: outcome.error });
      log.warn(
        { stage: 'extract', documentId, code: outcome.error.code, failedChunks: outcome.error.details?.failedChunks },
        'input finished with failed chunks',
      );
    } else log.info({ stage: 'done', documentId }, 'input done');
  } catch (error) {
    const info = toErrorInfo(error, log.path);
    // A full disk or a store that cannot be written is not this file's fault: the run stops, and resumes this file.
    if (info.code === ErrorCode.CANCELLED || isRunWideLlmError(info.code) || isStorageErrorCode(info.code)) throw error;
    endInput(db, runId, input.ordinal, { error: info });
    addRunEvent(db, runId, {
      at: at(),
      level: 'error',
      phase: 'ingest',
      ...(documentId ? { documentId } : {}),
      message: `${input.filePath}: ${info.message}`,
      data: info,
    });
    log.error({ stage: 'ingest', ...(documentId ? { documentId } : {}), code: info.code, err: error }, 'input failed');
    emit('ingest', 1, 1, `${label}: failed: ${info.message}`, { ...about, ...(documentId ? { documentId } : {}) });
  }
}

/**
 * Reuses a stored document with the same content; otherwise parses the file
 * (asking for its password if it has one), reads pages without a usable text
 * layer with OCR, and stores it with its OCR marks in one transaction.
 */
async function ingestInput(
  deps: RunDeps,
  input: RunInput,
  control: RunControl,
  ocr: { mode: OcrMode; recognizer: PageRecognizer | undefined },
  readAhead: ReadAhead | undefined,
  report: (phase: 'ingest' | 'ocr', done: number, total: number, message: string) => void,
): Promise<{ documentId: number; doc: ExtractedDocument; warnings: ErrorInfo[] }> {
  const fileName = baseName(input.filePath);
  const sha256 = await fileSha256(input.filePath);
  const known = findDocumentBySha(deps.db, sha256);
  if (known) {
    // Warnings were stored with the input that first imported it; the page ones are rebuilt from the stored pages.
    const doc = loadExtractedDocument(deps.db, known.id)!;
    return { documentId: known.id, doc, warnings: [...pageWarnings(doc.pages, fileName), ...ocrWarnings(doc.pages, fileName)].map(warningInfo) };
  }
  const signal = control.signal ? { signal: control.signal } : {};
  const onProgress = (done: number, total: number) => report('ingest', done, total, `reading page ${done} of ${total}`);
  const { value: result, password } = await withPassword({ filePath: input.filePath, fileName }, control.password, async (password) => {
    // The first attempt (no password) may have been started ahead, while the previous file was analysed.
    const early = password === undefined && readAhead?.filePath === input.filePath ? await readAhead.take(onProgress) : undefined;
    return early ?? deps.ingestFile(input.filePath, { ...signal, onProgress, ...(password === undefined ? {} : { password }) });
  });
  let doc = result.document;
  let warnings = result.warnings;
  let marks: PageOcrMark[] = [];
  if (ocr.recognizer && pagesNeedingOcr(doc, ocr.mode).length > 0) {
    const read = await readPagesWithOcr({
      db: deps.db,
      recognizer: ocr.recognizer,
      doc,
      bytes: new Uint8Array(await readFile(input.filePath)),
      ...(password === undefined ? {} : { password }),
      mode: ocr.mode,
      now: deps.now,
      ...signal,
      onPageStart: (done, total, pageNumber) => report('ocr', done, total, `OCR page ${done + 1} of ${total}: reading page ${pageNumber}`),
      onPage: (done, total, pageNumber, cached) =>
        report('ocr', done, total, `OCR page ${done} of ${total}: page ${pageNumber} ${cached ? 'from the cache' : 'read'}`),
    });
    doc = read.doc;
    marks = read.marks;
    // The page warnings describe the pages as they are now: OCR may have read some that had no text layer.
    warnings = [
      ...warnings.filter((warning) => warning.code !== ErrorCode.PDF_NO_TEXT_LAYER),
      ...pageWarnings(doc.pages, fileName).filter((warning) => warning.code === ErrorCode.PDF_NO_TEXT_LAYER),
      ...ocrWarnings(doc.pages, fileName),
      ...read.warnings,
    ];
  }
  const { document } = timeStage('store', () =>
    deps.db.transaction(() => {
      const saved = saveDocument(deps.db, doc, deps.now().toISOString());
      if (!saved.reused) savePageOcr(deps.db, saved.document.id, marks);
      return saved;
    })(),
  );
  // The parsed document goes on in memory: reading it back from the store would hold two copies of a large document at once.
  return { documentId: document.id, doc, warnings: warnings.map(warningInfo) };
}

function warningInfo({ code, message, pages, picturesOnly }: IngestWarning): ErrorInfo {
  if (!pages) return { code, message };
  return { code, message, details: picturesOnly ? { pages, picturesOnly } : { pages } };
}

/**
 * A document where no page has text cannot be analysed at all: that input fails, with what to do. When OCR had to
 * leave an image out (too large to decode), that is the likely reason, and its warning is the failure.
 */
function unreadableDocument(pages: readonly PageSpan[], warnings: readonly ErrorInfo[]): ErrorInfo | null {
  if (pages.length === 0 || pages.some((page) => page.hasTextLayer)) return null;
  const imageLeftOut = warnings.find((warning) => warning.code === ErrorCode.PDF_IMAGE_TOO_LARGE);
  if (imageLeftOut) return imageLeftOut;
  const numbers = pages.map((page) => page.pageNumber);
  if (pages.every((page) => page.readError !== undefined)) {
    return {
      code: ErrorCode.PDF_CORRUPT,
      message:
        'No page of this PDF could be read (the page contents are damaged). Get a fresh copy of the file (download or export it again) and add it again.',
      details: { pages: numbers },
    };
  }
  const message = pages.some((page) => page.textSource === 'ocr')
    ? 'No page of this PDF has text: it has no text layer and OCR found no words (blank pages, or pictures without text). Check that it is the right file.'
    : 'No page of this PDF has a text layer (it looks scanned) and OCR is off. Turn OCR on (Settings, or --ocr auto) and analyse it again.';
  return { code: ErrorCode.PDF_NO_TEXT_LAYER, message, details: { pages: numbers } };
}

function baseName(filePath: string): string {
  return filePath.split(/[\\/]/).pop() ?? filePath;
}

/** The run log's line for a review carried over to this run: what a reviewer finds changed when they open the document. */
function carryOverMessage(c: CarryOverResult): string {
  if (c.fromRunId === null) return `Review started: ${c.created.length} finding${c.created.length === 1 ? '' : 's'} to review.`;
  return `Review carried over from run ${c.fromRunId}: ${c.matched.length} kept, ${c.changed.length} changed by the model, ${c.vanished.length} no longer reported, ${c.reappeared.length} back, ${c.created.length} new.`;
}
