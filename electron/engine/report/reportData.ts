import type { ErrorInfo } from '../../../shared/errors';
import type { DocumentSummary, MergedFinding, UnreviewedMention } from '../../../shared/findings';
import type { ChunkNode, IdMention } from '../../../shared/types';
import { listChunkResults } from '../extract';
import { listMergedFindings, unreviewedMentions } from '../merge';
import { getSummary } from '../summary';
import { stableHash, type RunSettings } from '../jobs/settings';
import {
  getCurrentTree,
  getDocument,
  getRun,
  listRunInputs,
  loadChunks,
  loadMentions,
  pagesWithoutTextLayer,
  type Database,
  type StoredDocument,
  type StoredRun,
} from '../store';

/** One ID with every place it is mentioned. */
export interface MentionGroup {
  id: string;
  pages: number[];
  mentions: IdMention[];
}

export interface FailedChunk {
  nodeIndex: number;
  title: string;
  pageStart: number;
  pageEnd: number;
  error: ErrorInfo;
}

export interface ReportDocument {
  document: StoredDocument;
  pagesWithoutText: number[];
  strategy: string | null;
  nodes: ChunkNode[];
  mentionGroups: MentionGroup[];
  /** Full mode only: merged findings; grounded ones are verified, the others are listed apart. */
  findings: MergedFinding[];
  /** IDs the document mentions that no finding covers: what the model may have missed. */
  unreviewedMentions: UnreviewedMention[];
  failedChunks: FailedChunk[];
  summary: DocumentSummary | null;
}

export interface ReportInput {
  filePath: string;
  status: string;
  error: ErrorInfo | null;
  warnings: ErrorInfo[];
  document: ReportDocument | null;
}

export interface ReportData {
  run: StoredRun;
  generatedAt: string;
  appVersion: string;
  inputs: ReportInput[];
}

/** Everything a report shows, read from the store; exporters only format it. */
export function collectReportData(db: Database, runId: number, meta: { appVersion: string; now: Date }): ReportData {
  const run = getRun(db, runId);
  if (!run) throw new Error(`run ${runId} not found`);
  const settings = run.settings as unknown as RunSettings;
  const rulesHash = stableHash(settings.idPatterns);
  const inputs = listRunInputs(db, runId).map((input): ReportInput => {
    const document = input.documentId === null ? undefined : getDocument(db, input.documentId);
    return {
      filePath: input.filePath,
      status: input.status,
      error: input.error,
      warnings: input.warnings,
      document: document ? collectDocument(db, runId, document, rulesHash, settings.mode === 'full') : null,
    };
  });
  return { run, generatedAt: meta.now.toISOString(), appVersion: meta.appVersion, inputs };
}

function collectDocument(db: Database, runId: number, document: StoredDocument, rulesHash: string, fullMode: boolean): ReportDocument {
  // The tree this run analysed (its chunk results point at it), else the document's current one.
  const results = fullMode ? listChunkResults(db, runId, document.id) : [];
  const treeId = results[0]?.treeId ?? getCurrentTree(db, document.id)?.id;
  const nodes = treeId === undefined ? [] : loadChunks(db, treeId);
  const strategy = treeId === undefined ? null : (db.prepare('SELECT strategy FROM chunk_trees WHERE id = ?').get(treeId) as { strategy: string }).strategy;
  const mentions = loadMentions(db, document.id, rulesHash);
  const findings = fullMode ? listMergedFindings(db, runId, document.id) : [];
  const summary = fullMode ? getSummary(db, runId, document.id) : undefined;
  return {
    document,
    pagesWithoutText: pagesWithoutTextLayer(db, document.id),
    strategy,
    nodes,
    mentionGroups: groupMentions(mentions),
    findings,
    unreviewedMentions: fullMode ? unreviewedMentions(mentions, findings) : [],
    failedChunks: results
      .filter((r) => r.status === 'failed')
      .map((r) => {
        const node = nodes[r.nodeIndex]!;
        return { nodeIndex: r.nodeIndex, title: node.title, pageStart: node.pageStart, pageEnd: node.pageEnd, error: r.error! };
      }),
    summary: summary ? { text: summary.text, chunkCount: summary.chunkCount, levels: summary.levels } : null,
  };
}

export function groupMentions(mentions: readonly IdMention[]): MentionGroup[] {
  const groups = new Map<string, MentionGroup>();
  for (const mention of mentions) {
    const group = groups.get(mention.normalized) ?? { id: mention.normalized, pages: [], mentions: [] };
    group.mentions.push(mention);
    if (!group.pages.includes(mention.page)) group.pages.push(mention.page);
    groups.set(mention.normalized, group);
  }
  return [...groups.values()].sort((a, b) => a.mentions[0]!.start - b.mentions[0]!.start);
}
