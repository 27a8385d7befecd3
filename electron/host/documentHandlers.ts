/** Document commands: import (which starts a run), the library, and what the pipeline stored for one document. */
import { join } from 'node:path';
import type { FindingView } from '../../shared/contract';
import { AppError, ErrorCode } from '../../shared/errors';
import type { ReviewedFinding } from '../../shared/review';
import { getReviewView } from '../engine/review';
import type { HostContext } from './context';
import { analysisView } from './findingViews';
import type { HandlerModule } from './handlerMap';
import { checkImports } from './importFiles';

/**
 * Each merged finding as the auditor's review stands: the review state of the reviewed finding that holds it (the
 * table's State column) and, where the auditor edited that finding, its effective title, severity, type and
 * description, so the table shows and sorts what the queue, the detail and the reports show. A merged finding split
 * into several reviewed findings keeps the model's values: no single edit speaks for it.
 */
function withReview(ctx: HostContext, findings: FindingView[]): FindingView[] {
  const holders = new Map<number, ReviewedFinding[]>();
  for (const documentId of new Set(findings.map((f) => f.documentId))) {
    for (const reviewed of getReviewView(ctx.db, documentId).findings) {
      for (const merged of reviewed.mergedIds) holders.set(merged, [...(holders.get(merged) ?? []), reviewed]);
    }
  }
  return findings.map((f) => {
    const held = holders.get(f.id) ?? [];
    const reviewState = held[0]?.state ?? null;
    const reviewed = held.length === 1 ? held[0]! : null;
    if (!reviewed || reviewed.edited.length === 0) return { ...f, reviewState };
    const edited = reviewed.edited;
    return {
      ...f,
      reviewState,
      title: edited.includes('title') ? reviewed.effective.title : f.title,
      ...(edited.includes('severity') ? { severity: reviewed.effective.severity, severityRank: reviewed.severityRank } : {}),
      type: edited.includes('type') ? reviewed.effective.type : f.type,
      description: edited.includes('description') ? reviewed.effective.description : f.description,
      edited,
    };
  });
}

export function documentHandlers(ctx: HostContext): HandlerModule {
  const { views, providers } = ctx;
  return {
    'documents.import': ({ files, mode }) => {
      const checked = checkImports(files, join(ctx.dataDir, 'imports'));
      const runId =
        checked.accepted.length > 0
          ? ctx.runs.start(
              checked.accepted.map((a) => a.path),
              mode,
            )
          : null;
      return { runId, ...checked };
    },
    'documents.list': () => views.documentSummaries(),
    'documents.analysis': ({ documentId, runId }) => {
      if (!ctx.engine.listDocuments().some((d) => d.id === documentId))
        throw new AppError(ErrorCode.INVALID_INPUT, `There is no document ${documentId}. Refresh the library.`);
      return analysisView(ctx.db, documentId, runId, (run) => providers.findings?.({ documentId, ...(run === null ? {} : { runId: run }) }) ?? []);
    },
    'tree.get': ({ documentId }) => views.tree(documentId),
    'chunk.text': ({ documentId, nodeIndex }) => views.chunkText(documentId, nodeIndex),
    'mentions.list': ({ documentId }) => views.mentionViews(documentId),
    'splitAttempts.list': ({ documentId }) => providers.splitAttempts?.(documentId) ?? [],
    'findings.list': (query) => withReview(ctx, providers.findings?.(query) ?? []),
  };
}
