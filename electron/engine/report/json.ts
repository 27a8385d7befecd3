import type { MergedFinding } from '../../../shared/findings';
import type { ReportData } from './reportData';

/** Bumped whenever the JSON shape changes in a way a reader must know about. */
export const REPORT_JSON_VERSION = 1;

/**
 * The merged findings with their sources, per document, plus everything an
 * auditor must not confuse with findings (ungrounded, unreviewed mentions,
 * failed chunks, pages without text). Offsets point into the document's
 * canonical text as stored in the database.
 */
export function renderJson(data: ReportData): string {
  return `${JSON.stringify(
    {
      version: REPORT_JSON_VERSION,
      generatedAt: data.generatedAt,
      appVersion: data.appVersion,
      run: { id: data.run.id, mode: data.run.mode, status: data.run.status, startedAt: data.run.startedAt, finishedAt: data.run.finishedAt, settings: data.run.settings },
      inputs: data.inputs.map((input) => ({
        file: input.filePath,
        status: input.status,
        error: input.error,
        warnings: input.warnings,
        document: input.document && {
          id: input.document.document.id,
          fileName: input.document.document.fileName,
          sha256: input.document.document.sha256,
          pages: input.document.document.pageCount,
          pagesWithoutText: input.document.pagesWithoutText,
          strategy: input.document.strategy,
          summary: input.document.summary,
          findings: input.document.findings.filter((f) => f.grounded).map(findingJson),
          ungroundedFindings: input.document.findings.filter((f) => !f.grounded).map(findingJson),
          unreviewedMentions: input.document.unreviewedMentions,
          failedChunks: input.document.failedChunks,
          idMentions: input.document.mentionGroups.map((g) => ({ id: g.id, pages: g.pages, count: g.mentions.length })),
        },
      })),
    },
    null,
    2,
  )}\n`;
}

function findingJson(f: MergedFinding) {
  return {
    id: f.findingKey,
    title: f.title,
    type: f.type,
    severity: f.severity,
    severityCanonical: f.severityCanonical,
    description: f.description,
    mainPage: f.mainPage,
    grounded: f.grounded,
    sources: f.sources.map((s) => ({
      page: s.page,
      evidence: s.evidence,
      evidenceStart: s.evidenceStart,
      evidenceEnd: s.evidenceEnd,
      grounded: s.grounded,
      match: s.match,
      isMain: s.isMain,
      chunk: s.nodeIndex,
    })),
  };
}
