import { formatPageRanges } from '../../../shared/canonical';
import { AppError, ErrorCode, toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import type { ProgressEvent, RunPhase } from '../../../shared/types';
import { buildChunkTree } from '../chunking';
import type { IngestResult } from '../pdf';
import { findIdMentions } from '../rules';
import {
  addRunEvent,
  createRun,
  findDocumentBySha,
  getRun,
  listRunInputs,
  loadExtractedDocument,
  saveChunkTree,
  saveDocument,
  saveMentions,
  setRunStatus,
  updateRunInput,
  type Database,
  type RunInput,
  type StoredRun,
} from '../store';
import { fileSha256 } from './fileIdentity';
import { stableHash, type RunSettings } from './settings';

export interface RunDeps {
  db: Database;
  ingestFile: (filePath: string, options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void }) => Promise<IngestResult>;
  now: () => Date;
}

export interface RunControl {
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
}

export interface RunOutcome {
  run: StoredRun;
  inputs: RunInput[];
}

/** Creates a run for the given files and executes it. */
export async function startRun(deps: RunDeps, files: readonly string[], settings: RunSettings, control: RunControl = {}): Promise<RunOutcome> {
  const runId = createRun(deps.db, settings.mode, settings as unknown as Record<string, unknown>, files, deps.now().toISOString());
  return executeRun(deps, runId, control);
}

/**
 * Executes (or resumes) a run: every input not yet done is processed in order,
 * one at a time. Each input's result is committed as soon as it is complete,
 * so a run stopped at any point resumes at the first unfinished input, and
 * one bad file never stops the others.
 */
export async function executeRun(deps: RunDeps, runId: number, control: RunControl = {}): Promise<RunOutcome> {
  const { db } = deps;
  const run = getRun(db, runId);
  if (!run) throw new AppError(ErrorCode.RUN_NOT_FOUND, `There is no run ${runId} in this database. List runs to find the right number.`);
  const settings = run.settings as unknown as RunSettings;
  const at = () => deps.now().toISOString();
  setRunStatus(db, runId, 'running', at());
  const inputs = listRunInputs(db, runId);
  const report = (phase: RunPhase, current: number, total: number, message: string, input?: RunInput, documentId?: number) =>
    control.onProgress?.({
      runId,
      phase,
      current,
      total,
      message,
      ...(documentId === undefined ? {} : { documentId }),
      ...(input ? { fileName: baseName(input.filePath) } : {}),
    });

  for (const input of inputs) {
    if (input.status === 'done' || input.status === 'failed') continue;
    if (control.signal?.aborted) break;
    const label = `file ${input.ordinal + 1} of ${inputs.length}`;
    updateRunInput(db, runId, input.ordinal, { status: 'running', phase: 'ingest', error: null });
    try {
      const { documentId, warnings } = await ingestInput(deps, input, control, (done, total) =>
        report('ingest', done, total, `${label}: reading page ${done} of ${total}`, input),
      );
      updateRunInput(db, runId, input.ordinal, { documentId, warnings, phase: 'tree' });
      for (const warning of warnings) addRunEvent(db, runId, { at: at(), level: 'warn', phase: 'ingest', documentId, message: warning.message, data: warning });

      const doc = loadExtractedDocument(db, documentId)!;
      report('tree', 0, 1, `${label}: building the chunk tree`, input, documentId);
      const tree = buildChunkTree(doc, settings.chunking);
      saveChunkTree(
        db,
        { documentId, strategy: tree.strategy, params: { chunking: settings.chunking, notes: tree.notes }, paramsHash: stableHash(settings.chunking), nodes: tree.nodes },
        at(),
      );
      report('tree', 1, 1, `${label}: ${tree.nodes.filter((n) => n.isLeaf).length} chunks (${tree.strategy})`, input, documentId);

      updateRunInput(db, runId, input.ordinal, { phase: 'rules' });
      const mentions = findIdMentions(doc.text, doc.pages, settings.idPatterns);
      saveMentions(db, documentId, stableHash(settings.idPatterns), mentions);
      report('rules', 1, 1, `${label}: ${mentions.length} ID mentions`, input, documentId);

      const unreadable = unreadableDocument(doc.pages.length, warnings);
      updateRunInput(db, runId, input.ordinal, { status: unreadable ? 'failed' : 'done', phase: 'done', error: unreadable });
    } catch (error) {
      const info = toErrorInfo(error);
      if (info.code === ErrorCode.CANCELLED) {
        updateRunInput(db, runId, input.ordinal, { status: 'cancelled', error: null });
        break;
      }
      updateRunInput(db, runId, input.ordinal, { status: 'failed', error: info });
      addRunEvent(db, runId, { at: at(), level: 'error', phase: 'ingest', message: `${input.filePath}: ${info.message}`, data: info });
      report('ingest', 1, 1, `${label}: failed: ${info.message}`, input);
    }
  }

  const finalInputs = listRunInputs(db, runId);
  const cancelled = control.signal?.aborted === true || finalInputs.some((i) => i.status === 'cancelled');
  setRunStatus(db, runId, cancelled ? 'cancelled' : 'done', at());
  report('done', finalInputs.length, finalInputs.length, cancelled ? 'cancelled' : 'finished');
  return { run: getRun(db, runId)!, inputs: finalInputs };
}

/** Reuses a stored document with the same content; otherwise parses the file and stores it. */
async function ingestInput(
  deps: RunDeps,
  input: RunInput,
  control: RunControl,
  onPages: (done: number, total: number) => void,
): Promise<{ documentId: number; warnings: ErrorInfo[] }> {
  const sha256 = await fileSha256(input.filePath);
  const known = findDocumentBySha(deps.db, sha256);
  if (known) {
    // Warnings were stored with the input that first imported it; recompute the text-layer one from the pages.
    const doc = loadExtractedDocument(deps.db, known.id)!;
    const missing = doc.pages.filter((p) => !p.hasTextLayer).map((p) => p.pageNumber);
    return { documentId: known.id, warnings: missing.length > 0 ? [noTextLayerWarning(missing)] : [] };
  }
  const result = await deps.ingestFile(input.filePath, { ...(control.signal ? { signal: control.signal } : {}), onProgress: onPages });
  const { document } = saveDocument(deps.db, result.document, deps.now().toISOString());
  return { documentId: document.id, warnings: result.warnings.map(({ code, message, pages }) => (pages ? { code, message, details: { pages } } : { code, message })) };
}

function noTextLayerWarning(pages: number[]): ErrorInfo {
  return { code: ErrorCode.PDF_NO_TEXT_LAYER, message: describeMissingTextLayer(pages), details: { pages } };
}

export function describeMissingTextLayer(pages: readonly number[]): string {
  return `Scanned? No text layer on pages ${formatPageRanges(pages)}: these pages cannot be analysed without OCR.`;
}

/** A document where no page has text cannot be analysed at all: that input fails, with what to do. */
function unreadableDocument(pageCount: number, warnings: readonly ErrorInfo[]): ErrorInfo | null {
  const noText = warnings.find((w) => w.code === ErrorCode.PDF_NO_TEXT_LAYER);
  const pages = (noText?.details?.pages as number[] | undefined) ?? [];
  if (pageCount === 0 || pages.length < pageCount) return null;
  return {
    code: ErrorCode.PDF_NO_TEXT_LAYER,
    message: 'No page of this PDF has a text layer (it looks scanned). Run OCR on it first (for example `ocrmypdf in.pdf out.pdf`) and add the result.',
    details: { pages },
  };
}

function baseName(filePath: string): string {
  return filePath.split(/[\\/]/).pop() ?? filePath;
}
