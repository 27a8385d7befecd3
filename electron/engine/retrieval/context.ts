/**
 * The selected context: the passages an answer may use, numbered [1], [2]...
 * Hierarchy-aware: each passage carries its section's title path, and where
 * the token budget allows, a kept hit brings the leaves just before and after
 * it in its tree (a finding's cause often sits in the previous paragraph).
 * Hits come first; neighbours only fill what budget is left.
 */
import type { Database } from 'better-sqlite3';
import type { PageSpan } from '../../../shared/types';
import { documentPageSpans } from '../store';
import { documentFileName, unitIndexedText, type StoredUnit } from './store';
import { canonicalText, neighbourUnits } from './units';

export interface ContextEntry {
  n: number;
  unit: StoredUnit;
  documentName: string;
  /** What the model reads for this passage. */
  text: string;
  /** Whether the passage was retrieved (true) or came along as a neighbour (false). */
  hit: boolean;
}

export interface DocumentSource {
  name: string;
  text: string;
  pages: PageSpan[];
}

/** Canonical text, pages and name per document, loaded once per question. */
export function createDocumentSources(db: Database): (documentId: number) => DocumentSource {
  const cache = new Map<number, DocumentSource>();
  return (documentId) => {
    let source = cache.get(documentId);
    if (!source) {
      const name = documentFileName(db, documentId) ?? `document ${documentId}`;
      source = { name, text: canonicalText(db, documentId), pages: documentPageSpans(db, documentId) };
      cache.set(documentId, source);
    }
    return source;
  };
}

/** The words a unit shows the model: a chunk's own text; a finding's title, description and evidence. */
export function unitText(db: Database, unit: StoredUnit, source: DocumentSource): string {
  if (unit.kind === 'chunk') return source.text.slice(unit.start, unit.end);
  return `${unit.title}\n${unitIndexedText(db)(unit.id)?.body ?? ''}`;
}

export function buildContext(
  db: Database,
  ranked: readonly StoredUnit[],
  options: { budgetTokens: number; estimate: (text: string) => number; neighbours: boolean; sources: (documentId: number) => DocumentSource },
): ContextEntry[] {
  const chosen = new Map<number, { unit: StoredUnit; text: string; hit: boolean }>();
  let used = 0;
  const tryAdd = (unit: StoredUnit, hit: boolean): boolean => {
    if (chosen.has(unit.id)) return true;
    const text = unitText(db, unit, options.sources(unit.documentId));
    const cost = options.estimate(text) + 30;
    // The first hit always goes in (cut by the caller's budget check on the whole prompt), so a long leaf never empties the context.
    if (used + cost > options.budgetTokens && chosen.size > 0) return false;
    chosen.set(unit.id, { unit, text, hit });
    used += cost;
    return true;
  };
  for (const unit of ranked) tryAdd(unit, true);
  const around = new Map<number, { before?: StoredUnit; after?: StoredUnit }>();
  if (options.neighbours) {
    for (const unit of ranked) {
      if (!chosen.has(unit.id)) continue;
      const { before, after } = neighbourUnits(db, unit);
      const placed: { before?: StoredUnit; after?: StoredUnit } = {};
      if (before && !chosen.has(before.id) && tryAdd(before, false)) placed.before = before;
      if (after && !chosen.has(after.id) && tryAdd(after, false)) placed.after = after;
      around.set(unit.id, placed);
    }
  }
  // Reading order: each hit between its neighbours, hits in rank order.
  const entries: ContextEntry[] = [];
  const push = (unit: StoredUnit | undefined) => {
    if (!unit || entries.some((e) => e.unit.id === unit.id)) return;
    const c = chosen.get(unit.id);
    if (!c) return;
    entries.push({ n: entries.length + 1, unit, documentName: options.sources(unit.documentId).name, text: c.text, hit: c.hit });
  };
  for (const unit of ranked) {
    const a = around.get(unit.id);
    push(a?.before);
    push(unit);
    push(a?.after);
  }
  return entries;
}

/** One passage as the model sees it: number, where it is, then its words. */
export function renderEntry(e: ContextEntry): string {
  const pages = e.unit.pageStart === e.unit.pageEnd ? `page ${e.unit.pageStart}` : `pages ${e.unit.pageStart}-${e.unit.pageEnd}`;
  const section = e.unit.path.length > 0 ? e.unit.path.join(' > ') : e.unit.title;
  return `[${e.n}] ${e.documentName}, ${pages}, section: ${section}\n${e.text.trim()}`;
}
