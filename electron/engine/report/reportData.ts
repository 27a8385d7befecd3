import type { ErrorInfo } from '../../../shared/errors';
import type { ChunkNode, IdMention } from '../../../shared/types';
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

export interface ReportDocument {
  document: StoredDocument;
  pagesWithoutText: number[];
  strategy: string | null;
  nodes: ChunkNode[];
  mentionGroups: MentionGroup[];
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
      document: document ? collectDocument(db, document, rulesHash) : null,
    };
  });
  return { run, generatedAt: meta.now.toISOString(), appVersion: meta.appVersion, inputs };
}

function collectDocument(db: Database, document: StoredDocument, rulesHash: string): ReportDocument {
  const tree = getCurrentTree(db, document.id);
  return {
    document,
    pagesWithoutText: pagesWithoutTextLayer(db, document.id),
    strategy: tree?.strategy ?? null,
    nodes: tree ? loadChunks(db, tree.id) : [],
    mentionGroups: groupMentions(loadMentions(db, document.id, rulesHash)),
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
