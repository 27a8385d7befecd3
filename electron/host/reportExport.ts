/**
 * `reports.export`: the engine renders the report (PDF through the host's
 * `renderPdf`: headless Chromium by default, Electron's printToPDF in the
 * desktop app), the host writes it to `<data>/exports/` (never through a
 * link: exportFile.ts) and says where.
 */
import { join } from 'node:path';
import type { ExportResult, ParsedInput } from '../../shared/contract';
import { AppError, ErrorCode } from '../../shared/errors';
import type { Engine } from '../engine';
import type { HostContext } from './context';
import { writeExport } from './exportFile';
import type { HandlerModule } from './handlerMap';

export function exportFileName(
  input: { runId: number; documentId?: number | undefined; format: string; confirmedOnly?: boolean | undefined },
  at: Date,
): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  return `audit-run-${input.runId}${input.documentId !== undefined ? `-document-${input.documentId}` : ''}${input.confirmedOnly ? '-confirmed' : ''}-${stamp}.${input.format}`;
}

export async function exportReport(engine: Engine, exportsDir: string, input: ParsedInput<'reports.export'>, now: Date): Promise<ExportResult> {
  const content = await engine.exportReport(input.runId, input.format, {
    ...(input.documentId !== undefined ? { documentId: input.documentId } : {}),
    ...(input.confirmedOnly ? { confirmedOnly: true } : {}),
    ...(input.outlineDepth !== undefined ? { outlineDepth: input.outlineDepth } : {}),
  });
  const fileName = exportFileName(input, now);
  const { path, bytes } = writeExport(exportsDir, fileName, content);
  return { runId: input.runId, documentId: input.documentId ?? null, format: input.format, confirmedOnly: input.confirmedOnly === true, path, fileName, bytes };
}

export function reportHandlers(ctx: HostContext): HandlerModule {
  return {
    'reports.export': (input) => {
      if (ctx.runs.isActive(input.runId))
        throw new AppError(ErrorCode.INVALID_INPUT, `Run ${input.runId} is still running: export it when it has finished (or pause it).`);
      return exportReport(ctx.engine, join(ctx.dataDir, 'exports'), input, ctx.now());
    },
  };
}
