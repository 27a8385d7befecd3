/**
 * The re-audit comparison commands of the host (issue 30): compare the stored
 * analyses of two documents, and record the auditor's answer to a candidate
 * pair (with the reviewer name from the settings) before comparing again.
 * Statuses the rules could not read are asked of the model in one grounded
 * call (as `npm run compare` does), where runs go: the first endpoint of
 * Settings › Inference, else the Ollama host. A failed call never fails the
 * comparison: it is kept as the rules read it, with the reason beside it.
 * A stored comparison is exported to the exports folder (PDF through the
 * host's `renderPdf`, as the audit report is).
 */
import { join } from 'node:path';
import type { CompareExportResult, Comparison } from '../../shared/compare';
import type { ParsedInput } from '../../shared/contract';
import { AppError, ErrorCode, toErrorInfo } from '../../shared/errors';
import {
  compareDocuments,
  getComparison,
  readStatusesWithModel,
  renderComparison,
  saveComparison,
  saveDecision,
  statusesLeftUnread,
  statusModelFor,
} from '../engine/compare';
import { createLlmClient, resolveEndpoint } from '../engine/llm';
import type { HostContext } from './context';
import { writeExport } from './exportFile';
import { reviewerFrom } from './review';
import { readSettings } from './settings';

export function compareHandlers(ctx: HostContext) {
  const { db, now } = ctx;

  const withModelStatuses = async (comparison: Comparison): Promise<Comparison> => {
    const settings = readSettings(db);
    // The model that analysed the later document, else the one chosen in Settings.
    const chosen = statusModelFor(db, comparison) ?? (settings.models.extract ? statusModelFor(db, comparison, { model: settings.models.extract }) : null);
    if (!chosen)
      return { ...comparison, modelStatus: { model: null, read: 0, dropped: 0, problem: 'no model is known for the later document: choose one in Settings.' } };
    const endpoint = settings.endpoints[0];
    const failed = (error: unknown): Comparison => {
      const info = toErrorInfo(error);
      return { ...comparison, modelStatus: { model: chosen.model, read: 0, dropped: 0, problem: `${info.code}: ${info.message}` } };
    };
    let llm: ReturnType<typeof createLlmClient>;
    try {
      llm = createLlmClient({
        db,
        ...(endpoint ? { endpoint: resolveEndpoint(endpoint, (ref) => ctx.keys.get(ref)) } : settings.ollamaHost ? { host: settings.ollamaHost } : {}),
        env: ctx.env,
      });
    } catch (error) {
      return failed(error);
    }
    try {
      return (await readStatusesWithModel(db, comparison, { llm, ...chosen })).comparison;
    } catch (error) {
      return failed(error);
    } finally {
      await llm.close();
    }
  };

  const compareAndStore = async (earlierDocumentId: number, laterDocumentId: number, mode: 'auto' | 'rules-only' | undefined): Promise<Comparison> => {
    let comparison = compareDocuments(db, { earlierDocumentId, laterDocumentId, ...(mode ? { mode } : {}), now: now().toISOString() });
    if (mode !== 'rules-only' && statusesLeftUnread(comparison)) comparison = await withModelStatuses(comparison);
    return { ...comparison, id: saveComparison(db, comparison) };
  };
  return {
    'compare.run': ({ earlierDocumentId, laterDocumentId, mode }: ParsedInput<'compare.run'>): Promise<Comparison> =>
      compareAndStore(earlierDocumentId, laterDocumentId, mode),
    'compare.decide': (input: ParsedInput<'compare.decide'>): Promise<Comparison> => {
      saveDecision(db, { ...input, reviewer: reviewerFrom(db), at: now().toISOString() });
      return compareAndStore(input.earlierDocumentId, input.laterDocumentId, input.mode);
    },
    'compare.export': async ({ comparisonId, format }: ParsedInput<'compare.export'>): Promise<CompareExportResult> => {
      const comparison = getComparison(db, comparisonId);
      if (!comparison)
        throw new AppError(ErrorCode.COMPARISON_NOT_FOUND, `Comparison ${comparisonId} is not stored: compare the two documents again, then export.`);
      // The desktop app prints with Electron (its renderPdf); elsewhere the engine's headless Chromium does.
      const print = ctx.renderPdf;
      const content = print
        ? await renderComparison(comparison, format, (html) => print(html, { footerLabel: 'Re-audit comparison' }))
        : await renderComparison(comparison, format);
      const fileName = `comparison-${comparisonId}-${now().toISOString().replace(/[:.]/g, '-')}.${format}`;
      const { path, bytes } = writeExport(join(ctx.dataDir, 'exports'), fileName, content);
      return { comparisonId, format, path, fileName, bytes };
    },
  };
}
