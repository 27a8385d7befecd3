/** Document commands: import (which starts a run), the library, and what the pipeline stored for one document. */
import { join } from 'node:path';
import { AppError, ErrorCode } from '../../shared/errors';
import type { HostContext } from './context';
import { analysisView } from './findingViews';
import type { HandlerModule } from './handlerMap';
import { checkImports } from './importFiles';

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
    'findings.list': (query) => providers.findings?.(query) ?? [],
  };
}
