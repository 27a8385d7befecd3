/** Document commands: import (which starts a run), the library, and what the pipeline stored for one document. */
import { join } from 'node:path';
import type { FindingView } from '../../shared/contract';
import { AppError, ErrorCode } from '../../shared/errors';
import type { ReviewState } from '../../shared/review';
import { getReviewView } from '../engine/review';
import type { HostContext } from './context';
import { analysisView } from './findingViews';
import type { HandlerModule } from './handlerMap';
import { checkImports } from './importFiles';

/** Each merged finding with the review state of the reviewed finding that holds it (the table's State column). */
function withReviewStates(ctx: HostContext, findings: FindingView[]): FindingView[] {
  const states = new Map<number, ReviewState>();
  for (const documentId of new Set(findings.map((f) => f.documentId))) {
    for (const reviewed of getReviewView(ctx.db, documentId).findings) for (const merged of reviewed.mergedIds) states.set(merged, reviewed.state);
  }
  return findings.map((f) => ({ ...f, reviewState: states.get(f.id) ?? null }));
}

export function documentHandlers(ctx: HostContext): HandlerModule {
  const { views, providers } = ctx;
  return {
    'documents.import': ({ files, mode }) => {
      const checked = checkImports(files, join(ctx.dataDir, 'imports'));
      const runId = checked.accepted.length > 0 ? ctx.runs.start(checked.accepted.map((a) => a.path), mode) : null;
      return { runId, ...checked };
    },
    'documents.list': () => views.documentSummaries(),
    'documents.analysis': ({ documentId, runId }) => {
      if (!ctx.engine.listDocuments().some((d) => d.id === documentId)) throw new AppError(ErrorCode.INVALID_INPUT, `There is no document ${documentId}. Refresh the library.`);
      return analysisView(ctx.db, documentId, runId, (run) => providers.findings?.({ documentId, ...(run === null ? {} : { runId: run }) }) ?? []);
    },
    'tree.get': ({ documentId }) => views.tree(documentId),
    'chunk.text': ({ documentId, nodeIndex }) => views.chunkText(documentId, nodeIndex),
    'mentions.list': ({ documentId }) => views.mentionViews(documentId),
    'splitAttempts.list': ({ documentId }) => providers.splitAttempts?.(documentId) ?? [],
    'findings.list': (query) => withReviewStates(ctx, providers.findings?.(query) ?? []),
  };
}
