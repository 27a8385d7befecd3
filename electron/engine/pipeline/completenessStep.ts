/**
 * The pipeline's completeness step (after the merge): gathers what the check
 * needs from the store, runs it, stores the verdict and says it in the run's
 * progress, so the auditor sees "Check these 3 places" while the run goes on.
 */
import type { CompletenessVerdict } from '../../../shared/completeness';
import { checkCompleteness, saveCompleteness } from '../completeness';
import { listChunkResults } from '../extract';
import { listMergedFindings, unreviewedMentions } from '../merge';
import { loadChunks, loadMentions } from '../store';
import { stableHash } from '../util';
import type { DocumentContext } from './documentContext';

/** Places named in the progress message; the document view and the reports list all of them. */
const PLACES_IN_MESSAGE = 3;

export async function checkDocumentCompleteness(ctx: DocumentContext): Promise<CompletenessVerdict> {
  const { db, runId, documentId } = ctx;
  ctx.report('completeness', 0, 1, 'checking completeness against what the document states');
  const findings = listMergedFindings(db, runId, documentId);
  const mentions = loadMentions(db, documentId, stableHash(ctx.settings.idPatterns));
  const results = listChunkResults(db, runId, documentId);
  const nodes = results.length > 0 ? loadChunks(db, results[0]!.treeId) : [];
  const failedChunks = results
    .filter((r) => r.status === 'failed' && nodes[r.nodeIndex])
    .map((r) => ({ nodeIndex: r.nodeIndex, pageStart: nodes[r.nodeIndex]!.pageStart, pageEnd: nodes[r.nodeIndex]!.pageEnd }));
  const { client, plan } = ctx.llm!;
  const { verdict, notes } = await checkCompleteness({
    doc: ctx.doc,
    profile: ctx.settings.profile,
    idPatterns: ctx.settings.idPatterns,
    findings,
    unreviewedMentions: unreviewedMentions(mentions, findings),
    failedChunks,
    llm: {
      client,
      model: plan.models.summary,
      numCtx: plan.numCtx,
      runId,
      documentId,
      cache: ctx.settings.llm.cache,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    },
  });
  saveCompleteness(db, { runId, documentId, verdict, now: ctx.now().toISOString() });
  ctx.report('completeness', 1, 1, progressMessage(verdict, notes));
  return verdict;
}

export function progressMessage(verdict: CompletenessVerdict, notes: readonly string[] = []): string {
  const shown = verdict.places.slice(0, PLACES_IN_MESSAGE).map((p) => (p.page === null ? p.message : `p.${p.page}: ${p.message}`));
  const more = verdict.places.length > PLACES_IN_MESSAGE ? [`and ${verdict.places.length - PLACES_IN_MESSAGE} more`] : [];
  // The phase names the check ("completeness: …" in a terminal, "Checking completeness" in the window): the message is the verdict.
  return [verdict.headline, ...shown, ...more, ...notes].join(' | ');
}
