import { idOriginOf } from '../../../shared/findings';
import type { StoredConversation } from '../../../shared/retrieval';
import type { ReviewExportFinding } from '../../../shared/review';
import { mainPagePrinted } from './format';
import type { ReportData, ReportFinding, ReportReview } from './reportData';

/**
 * Bumped whenever the JSON shape changes in a way a reader must know about.
 * docs/report.schema.json describes this version (a test validates real
 * exports against it).
 *   1: findings, ungrounded findings, unreviewed mentions, failed chunks, ID mentions.
 *   2: run header (models, num_ctx, profile, duration, LLM usage), judge decision and
 *      LLM usage per document, context around evidence, the whole chunk tree.
 *   3: the auditor's review: `review` per finding (state, reason, edits beside the
 *      model's values, notes, last reviewer and time) and per document (counts and
 *      every reviewed finding, manual ones included), `confirmedOnly`, and each
 *      model's digest (`run.models`).
 *   4: unreadable pages per document.
 *   5: where each finding's ID comes from (`idOrigin`: the document or only the model,
 *      `printedNumber`, `modelLabels`) and the merge conflicts per document.
 *   6: `completeness` per document: stated totals vs found per severity, the document's
 *      own lists of findings matched to findings, and the verdict with its places to check.
 *   7: `conversations`: the questions asked about the run's documents (Ask), each answer with
 *      its grounded citations (document, page, section, quote, offsets) and whether it was marked.
 *   8: the page numbers the document prints where they differ from the PDF page: `mainPagePrinted`
 *      per finding, `printedPage` per source ("7" on PDF page 8).
 *   9: `summary.ungroundedIds`: IDs the model-written summary names that no grounded finding has.
 */
export const REPORT_JSON_VERSION = 9;

/**
 * The merged findings with their sources, per document, plus everything an
 * auditor must not confuse with findings (ungrounded, unreviewed mentions,
 * failed chunks, pages without text). Offsets point into the document's
 * canonical text as stored in the database.
 */
export function renderJson(data: ReportData): string {
  const info = data.runInfo;
  return `${JSON.stringify(
    {
      version: REPORT_JSON_VERSION,
      generatedAt: data.generatedAt,
      appVersion: data.appVersion,
      confirmedOnly: data.confirmedOnly,
      run: {
        id: data.run.id,
        mode: data.run.mode,
        status: data.run.status,
        createdAt: data.run.createdAt,
        startedAt: data.run.startedAt,
        finishedAt: data.run.finishedAt,
        durationMs: info.durationMs,
        error: data.run.error,
        profile: info.profileName,
        strategy: info.strategyChoice,
        judge: info.judgeEnabled,
        llm: info.llm,
        models: info.models,
        usage: info.usage,
        settings: data.run.settings,
      },
      inputs: data.inputs.map((input) => ({
        file: input.filePath,
        status: input.status,
        error: input.error,
        warnings: input.warnings,
        document: input.document && {
          id: input.document.document.id,
          fileName: input.document.document.fileName,
          kind: input.document.document.kind,
          sha256: input.document.document.sha256,
          byteSize: input.document.document.byteSize,
          pages: input.document.document.pageCount,
          pagesWithoutText: input.document.pagesWithoutText,
          unreadablePages: input.document.unreadablePages,
          ocrPages: input.document.ocrPages,
          strategy: input.document.strategy,
          judge: input.document.judge,
          usage: input.document.usage,
          summary: input.document.summary,
          review: input.document.review && reviewJson(input.document.review),
          findings: input.document.findings.filter((f) => f.grounded).map(findingJson),
          ungroundedFindings: input.document.findings.filter((f) => !f.grounded).map(findingJson),
          unreviewedMentions: input.document.unreviewedMentions,
          mergeConflicts: input.document.mergeConflicts,
          failedChunks: input.document.failedChunks,
          completeness: input.document.completeness,
          idMentions: input.document.mentionGroups.map((g) => ({ id: g.id, pages: g.pages, count: g.mentions.length })),
          chunkTree: input.document.nodes.map((n) => ({
            index: n.index,
            parentIndex: n.parentIndex,
            title: n.title,
            level: n.section.level,
            path: n.section.path,
            origin: n.origin,
            isLeaf: n.isLeaf,
            pageStart: n.pageStart,
            pageEnd: n.pageEnd,
            start: n.start,
            end: n.end,
            tokenEstimate: n.tokenEstimate,
          })),
        },
      })),
      conversations: data.conversations.map(conversationJson),
    },
    null,
    2,
  )}\n`;
}

/** A conversation as stored, without the judge's working notes (the answer and its sources are what a reader audits). */
function conversationJson(c: StoredConversation) {
  return {
    id: c.summary.id,
    scope: c.summary.scope,
    documentId: c.summary.documentId,
    title: c.summary.title,
    updatedAt: c.summary.updatedAt,
    messages: c.messages.map((m) => ({
      role: m.role,
      text: m.text,
      createdAt: m.createdAt,
      answer: m.answer && {
        notFound: m.answer.notFound,
        marked: m.answer.marked,
        exhaustiveNote: m.answer.exhaustiveNote,
        model: m.answer.model,
        citations: m.answer.citations.map((cite) => ({
          n: cite.n,
          documentId: cite.documentId,
          documentName: cite.documentName,
          page: cite.page,
          section: cite.section,
          quote: cite.quote,
          start: cite.start,
          end: cite.end,
          kind: cite.kind,
        })),
        dropped: m.answer.dropped,
      },
    })),
  };
}

function reviewEntryJson(r: ReviewExportFinding) {
  return {
    reviewId: r.reviewId,
    label: r.label,
    origin: r.origin,
    state: r.state,
    rejectReason: r.rejectReason,
    findingKey: r.findingKey,
    effective: r.effective,
    original: r.original,
    edits: r.edits,
    notes: r.notes,
    lastReviewer: r.lastReviewer,
    lastChangedAt: r.lastChangedAt,
    mainPage: r.mainPage,
    grounded: r.grounded,
    changedFields: r.changedFields,
    vanished: r.vanished,
    mergedIds: r.mergedIds,
  };
}

function reviewJson(review: ReportReview) {
  return {
    runId: review.runId,
    confirmedOnly: review.confirmedOnly,
    counts: review.counts,
    findings: review.findings.map((r) => ({ ...reviewEntryJson(r), manualEvidence: r.manualEvidence })),
  };
}

function findingJson(f: ReportFinding) {
  return {
    id: f.findingKey,
    idOrigin: idOriginOf(f),
    printedNumber: f.printedNumber,
    modelLabels: f.modelLabels,
    findingId: f.id,
    title: f.title,
    type: f.type,
    severity: f.severity,
    severityCanonical: f.severityCanonical,
    severityRank: f.severityRank,
    description: f.description,
    mainPage: f.mainPage,
    mainPagePrinted: mainPagePrinted(f),
    pages: [...new Set(f.sources.map((s) => s.page).filter((p): p is number => p !== null))].sort((a, b) => a - b),
    grounded: f.grounded,
    sources: f.sources.map((s) => ({
      page: s.page,
      printedPage: s.printed ?? null,
      evidence: s.evidence,
      evidenceStart: s.evidenceStart,
      evidenceEnd: s.evidenceEnd,
      grounded: s.grounded,
      match: s.match,
      isMain: s.isMain,
      chunk: s.nodeIndex,
      contextBefore: s.contextBefore,
      contextAfter: s.contextAfter,
      documentText: s.documentText,
      ocr: s.ocr,
    })),
    review: f.review.map(reviewEntryJson),
  };
}
