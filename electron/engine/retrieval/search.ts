/**
 * Hybrid retrieval: BM25 over the FTS5 index and cosine nearest neighbours
 * over the unit vectors, fused by reciprocal rank (RRF: each list adds
 * 1 / (k + rank), so neither score scale dominates). The relevance threshold
 * applies to a score both lists can speak to: the larger of the vector
 * similarity and the share of the query's words the unit contains. A unit
 * under the threshold is dropped even if it ranks first: "not in the
 * documents" is a better answer than a guess from unrelated text.
 */
import type { Database } from 'better-sqlite3';
import { bm25Matches, unitIndexedText, type StoredUnit } from './store';
import { loadUnits } from './units';
import { nearestUnits, nearestUnitsIn, type VectorSpace } from './vectors';

export const RRF_K = 60;

export interface SearchOptions {
  query: string;
  /** Limit to these documents (default: the whole library). */
  documentIds?: readonly number[];
  /** The query's embedding and the space it belongs to; without them the search is lexical only. */
  queryVector?: readonly number[];
  space?: VectorSpace;
  /** Candidates per list before fusion. */
  depth?: number;
  /** Units returned after fusion and threshold. */
  limit?: number;
  /** 0..1; see the module comment. */
  threshold?: number;
}

export interface SearchHit {
  unit: StoredUnit;
  /** Fused score (RRF). */
  score: number;
  /** max(vector similarity, share of query words present), 0..1. */
  relevance: number;
  lexicalRank: number | null;
  vectorRank: number | null;
  similarity: number | null;
  termCoverage: number;
}

const STOPWORDS = new Set(
  'a an and are as at be by can do does did for from has have how in is it its of on or that the this to was were what when where which who why will with about into than then there these those their they we you your our not no any all find list show tell me please give describe say says said report document documents'.split(
    ' ',
  ),
);

/** The query's content words, lower-case, de-duplicated, in order. */
export function queryTerms(query: string): string[] {
  const seen = new Set<string>();
  for (const m of query
    .toLowerCase()
    .normalize('NFKC')
    .matchAll(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu)) {
    const w = m[0].replace(/^[-_]+|[-_]+$/g, '');
    if (w.length < 2 || STOPWORDS.has(w)) continue;
    seen.add(w);
  }
  return [...seen];
}

/** An FTS5 MATCH expression: any of the words (quoted, so user text can never be FTS syntax), hyphenated IDs as phrases. */
export function ftsExpression(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}

export function lexicalSearch(db: Database, terms: readonly string[], depth: number, documentIds?: readonly number[]): { unitId: number; bm25: number }[] {
  if (terms.length === 0) return [];
  return bm25Matches(db, ftsExpression(terms), depth, documentIds);
}

/** Share of the terms that occur in the text (as words or word starts, so "overflow" counts in "overflows"). */
export function termCoverage(terms: readonly string[], text: string): number {
  return coverageMatcher(terms)(text);
}

/** The coverage test with its patterns compiled once, for scoring many units against one query. */
function coverageMatcher(terms: readonly string[]): (text: string) => number {
  const patterns = terms.map((t) => {
    const stem = t.length > 5 ? t.slice(0, Math.max(5, t.length - 2)) : t;
    return new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(stem)}`, 'u');
  });
  return (text) => {
    if (patterns.length === 0) return 0;
    const lower = text.toLowerCase().normalize('NFKC');
    return patterns.filter((p) => p.test(lower)).length / patterns.length;
  };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function search(db: Database, options: SearchOptions): SearchHit[] {
  const depth = options.depth ?? 50;
  const limit = options.limit ?? 10;
  const threshold = options.threshold ?? 0;
  const terms = queryTerms(options.query);
  const lexical = lexicalSearch(db, terms, depth, options.documentIds);
  const vector =
    options.queryVector && options.space
      ? options.documentIds
        ? nearestUnitsIn(db, options.space, options.queryVector, depth, options.documentIds)
        : nearestUnits(db, options.space, options.queryVector, depth)
      : [];

  const fused = new Map<number, { score: number; lexicalRank: number | null; vectorRank: number | null; similarity: number | null }>();
  const entry = (id: number) => {
    let e = fused.get(id);
    if (!e) fused.set(id, (e = { score: 0, lexicalRank: null, vectorRank: null, similarity: null }));
    return e;
  };
  lexical.forEach((r, i) => {
    const e = entry(r.unitId);
    e.score += 1 / (RRF_K + i + 1);
    e.lexicalRank = i + 1;
  });
  vector.forEach((r, i) => {
    const e = entry(r.unitId);
    e.score += 1 / (RRF_K + i + 1);
    e.vectorRank = i + 1;
    e.similarity = r.similarity;
  });

  const units = loadUnits(db, [...fused.keys()]);
  const indexedText = unitIndexedText(db);
  const coverageOf = coverageMatcher(terms);
  const hits: SearchHit[] = [];
  for (const [id, e] of fused) {
    const unit = units.get(id);
    if (!unit) continue;
    const row = indexedText(id);
    const coverage = coverageOf(`${row?.title ?? ''}\n${row?.body ?? ''}`);
    const relevance = Math.max(e.similarity ?? 0, coverage);
    if (relevance < threshold) continue;
    hits.push({ unit, score: e.score, relevance, lexicalRank: e.lexicalRank, vectorRank: e.vectorRank, similarity: e.similarity, termCoverage: coverage });
  }
  hits.sort((a, b) => b.score - a.score || b.relevance - a.relevance || a.unit.id - b.unit.id);
  return hits.slice(0, limit);
}
