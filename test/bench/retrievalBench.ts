/**
 * Retrieval benchmark (BENCH_ONLY=retrieval):
 *  - query latency over 50,000 chunks, FTS5 BM25 + sqlite-vec (768 dimensions,
 *    nomic-embed-text's size), fused; model time excluded (query vectors are
 *    computed beforehand). Baseline in the same run: a full scan of the same
 *    texts with LIKE, what a search without an index costs.
 *  - index build time per 1,000 chunks: the lexical index (baseline: plain
 *    INSERTs of the same texts into an ordinary table), the vector inserts,
 *    and the whole incremental update through the Ollama simulator over HTTP
 *    (simulated model time 0: what the engine adds around the model).
 *  - recall@5 / recall@10 on the corpus question sets (truth files): BM25
 *    only, vectors only, fused, and fused + the retrieval judge, side by side.
 *    Three sets: each finding's title as a question, its three longest words,
 *    and questions paraphrased by hand (test/fixtures/askQuestions.ts
 *    PARAPHRASED_QUESTIONS) that share few words with the report. The judge is
 *    the simulator's reading judge (test/helpers/askResponder.ts `reader`): it
 *    knows a general glossary (test/helpers/auditVocabulary.ts), reads the
 *    passages the search returned and refines the query from the line that
 *    fits best; it never sees the truth files. The simulator's embeddings are
 *    hashed words, not a semantic model, so "vectors only" is lexical too:
 *    a real embedding model would do better on paraphrases.
 *
 * Run alone: BENCH_ONLY=retrieval npm run bench
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHash } from 'node:crypto';
import { createLlmClient } from '../../electron/engine/llm';
import { openDatabase, type Database } from '../../electron/engine/store/db';
import { saveChunkTree } from '../../electron/engine/store/chunks';
import { saveDocument } from '../../electron/engine/store/documents';
import { askSettings, findVectorSpace, retrieveContext, search, updateIndex } from '../../electron/engine/retrieval';
import { syncLexical } from '../../electron/engine/retrieval/indexer';
import { desiredUnits } from '../../electron/engine/retrieval/units';
import { ensureVectorSpace, putVector } from '../../electron/engine/retrieval/vectors';
import type { ChunkNode } from '../../shared/types';
import { defaultTokenize, embedTokens, startOllamaSim } from '../ollama-sim/index';
import { documentFromPages } from '../helpers/documents';
import { createAskResponder } from '../helpers/askResponder';
import { BENCH_DISTRACTORS, BENCH_REPORTS, corpusPdf, corpusQuestions, paraphrasedQuestions, type CorpusQuestion } from '../fixtures/askQuestions';
import { AUDIT_VOCABULARY } from '../helpers/auditVocabulary';
import { createEngine } from '../../electron/engine';

const CHUNKS = Number(process.env.BENCH_RETRIEVAL_CHUNKS ?? 50_000);
const DOCUMENTS = 10;
const DIM = 768;
const QUERIES = 50;
const HTTP_CHUNKS = 2_000;
/** Share of a question's concepts a passage must meet for the reading judge to keep it. */
const READER_MIN_OVERLAP = 0.3;
/** Set BENCH_RETRIEVAL_ONLY=recall to measure only recall (minutes less). */
const ONLY = process.env.BENCH_RETRIEVAL_ONLY;

/** Seeded PRNG (mulberry32): the same corpus every run. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'te', 'su', 'vo', 'ne', 'di', 'pa', 'gu', 'fe', 'zo', 'bi', 'ha', 'ju', 'ce', 'wy', 'qu', 'xe'];
function vocabulary(random: () => number, size: number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''));
  }
  return [...words];
}

function sentence(random: () => number, words: readonly string[], length: number): string {
  // Zipf-like: frequent words dominate, as in real text.
  return Array.from({ length }, () => words[Math.floor(words.length * random() ** 3)]).join(' ');
}

/** DOCUMENTS documents, one page per chunk, CHUNKS chunks in all, stored with a one-level tree. */
function storeSyntheticLibrary(db: Database, random: () => number, words: readonly string[]): void {
  const perDoc = Math.ceil(CHUNKS / DOCUMENTS);
  for (let d = 0; d < DOCUMENTS; d++) {
    const pages = Array.from({ length: Math.min(perDoc, CHUNKS - d * perDoc) }, () => `${sentence(random, words, 60)}.\n${sentence(random, words, 60)}.`);
    const doc = documentFromPages(pages, `synthetic-${d}.txt`);
    const { document } = saveDocument(db, doc, 'now');
    const nodes: ChunkNode[] = [
      {
        index: 0,
        parentIndex: null,
        title: doc.fileName,
        section: { level: 0, path: [] },
        start: 0,
        end: doc.text.length,
        pageStart: 1,
        pageEnd: doc.pageCount,
        tokenEstimate: 0,
        origin: 'root',
        isLeaf: false,
        overlapBefore: 0,
      },
      ...doc.pages.map((p, i) => ({
        index: i + 1,
        parentIndex: 0,
        title: `Page ${p.pageNumber}`,
        section: { level: 1, path: [`Part ${Math.floor(i / 100) + 1}`] },
        start: p.start,
        end: p.end,
        pageStart: p.pageNumber,
        pageEnd: p.pageNumber,
        tokenEstimate: 200,
        origin: 'page' as const,
        isLeaf: true,
        overlapBefore: 0,
      })),
    ];
    saveChunkTree(
      db,
      { documentId: document.id, strategy: 'pages', params: {}, paramsHash: createHash('sha256').update(doc.sha256).digest('hex'), nodes },
      'now',
    );
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? 0;
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function latencyAndBuild(dir: string): Promise<Record<string, string>> {
  const random = rng(17);
  const words = vocabulary(random, 20_000);
  const db = openDatabase(join(dir, 'large.sqlite'));
  storeSyntheticLibrary(db, random, words);
  const documentIds = (db.prepare('SELECT id FROM documents ORDER BY id').all() as { id: number }[]).map((r) => r.id);

  // Baseline for the build: the same texts into an ordinary table, no index.
  let t = performance.now();
  db.exec('CREATE TABLE plain_texts (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const plain = db.prepare('INSERT INTO plain_texts (body) VALUES (?)');
  db.transaction(() => {
    for (const id of documentIds) for (const u of desiredUnits(db, id)) plain.run(u.body);
  })();
  const plainSec = (performance.now() - t) / 1000;

  t = performance.now();
  for (const id of documentIds) syncLexical(db, id, desiredUnits(db, id), 'now');
  const lexicalSec = (performance.now() - t) / 1000;
  const units = db.prepare('SELECT u.id, u.document_id, f.body FROM retrieval_units u JOIN retrieval_fts f ON f.rowid = u.id').all() as {
    id: number;
    document_id: number;
    body: string;
  }[];

  // Vectors as the model would return them (computed here, outside the timing).
  const vectors = units.map((u) => embedTokens(defaultTokenize(u.body), DIM));
  t = performance.now();
  const space = ensureVectorSpace(db, 'bench-embed', DIM, 'now');
  db.transaction(() => units.forEach((u, i) => putVector(db, space, u.id, u.document_id, vectors[i]!)))();
  const vectorSec = (performance.now() - t) / 1000;

  const queries = Array.from({ length: QUERIES }, () => Array.from({ length: 4 }, () => words[Math.floor(random() * 2000)]!).join(' '));
  const queryVectors = queries.map((q) => embedTokens(defaultTokenize(q), DIM));
  const hybrid: number[] = [];
  const lexicalOnly: number[] = [];
  const scan: number[] = [];
  const scopedHybrid: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    t = performance.now();
    search(db, { query: queries[i]!, queryVector: queryVectors[i]!, space, limit: 10 });
    hybrid.push(performance.now() - t);
    t = performance.now();
    search(db, { query: queries[i]!, limit: 10 });
    lexicalOnly.push(performance.now() - t);
    t = performance.now();
    search(db, { query: queries[i]!, queryVector: queryVectors[i]!, space, limit: 10, documentIds: [documentIds[0]!] });
    scopedHybrid.push(performance.now() - t);
    t = performance.now();
    db.prepare('SELECT id FROM plain_texts WHERE body LIKE ? LIMIT 10000').all(`%${queries[i]!.split(' ')[0]}%`);
    scan.push(performance.now() - t);
  }
  db.close();
  const per1000 = (sec: number) => `${((sec * 1000) / (units.length / 1000)).toFixed(0)} ms`;
  return {
    chunks: String(units.length),
    'query, hybrid (FTS5 + sqlite-vec, RRF), median / p95': `${ms(median(hybrid))} / ${ms(p95(hybrid))}`,
    'query, lexical only, median': ms(median(lexicalOnly)),
    [`query, hybrid scoped to one document (${Math.ceil(CHUNKS / DOCUMENTS)} chunks), median`]: ms(median(scopedHybrid)),
    'baseline: LIKE full scan of the texts, median': ms(median(scan)),
    'ratio hybrid / LIKE scan': `${(median(hybrid) / median(scan)).toFixed(2)}x`,
    'build, lexical (units + FTS5) per 1,000 chunks': per1000(lexicalSec),
    'build, vector inserts per 1,000 chunks (768 dims)': per1000(vectorSec),
    'baseline: plain INSERT of the texts per 1,000 chunks': per1000(plainSec),
    'ratio lexical build / plain insert': `${(lexicalSec / plainSec).toFixed(1)}x`,
  };
}

async function buildThroughSimulator(dir: string): Promise<Record<string, string>> {
  const random = rng(5);
  const words = vocabulary(random, 5_000);
  const db = openDatabase(join(dir, 'http.sqlite'));
  const pages = Array.from({ length: HTTP_CHUNKS }, () => `${sentence(random, words, 60)}.\n${sentence(random, words, 60)}.`);
  const doc = documentFromPages(pages, 'http.txt');
  const { document } = saveDocument(db, doc, 'now');
  const nodes: ChunkNode[] = doc.pages.map((p, i) => ({
    index: i,
    parentIndex: null,
    title: `Page ${p.pageNumber}`,
    section: { level: 0, path: [] },
    start: p.start,
    end: p.end,
    pageStart: p.pageNumber,
    pageEnd: p.pageNumber,
    tokenEstimate: 200,
    origin: 'page',
    isLeaf: true,
    overlapBefore: 0,
  }));
  saveChunkTree(db, { documentId: document.id, strategy: 'pages', params: {}, paramsHash: 'http', nodes }, 'now');
  const sim = await startOllamaSim({ embeddingDimension: DIM, timeScale: 0 });
  const llm = createLlmClient({ host: sim.url, db });
  try {
    const t = performance.now();
    const stats = await updateIndex(db, { embedModel: 'nomic-embed-text:latest', llm });
    const sec = (performance.now() - t) / 1000;
    const t2 = performance.now();
    const again = await updateIndex(db, { embedModel: 'nomic-embed-text:latest', llm });
    const noop = (performance.now() - t2) / 1000;
    return {
      [`whole update through the simulator (${stats.embedded} chunks, ${stats.embedCalls} embedding calls) per 1,000 chunks`]: `${((sec * 1000) / (HTTP_CHUNKS / 1000)).toFixed(0)} ms`,
      'second update, nothing changed (whole library)': `${(noop * 1000).toFixed(0)} ms, ${again.embedded} embedded`,
      'simulator reloads': String(sim.counters.reloads),
    };
  } finally {
    await llm.close();
    await sim.close();
    db.close();
  }
}

async function recall(dir: string): Promise<Record<string, string>> {
  const db = openDatabase(join(dir, 'corpus.sqlite'));
  const engine = createEngine({ db, appVersion: 'bench' });
  await engine.analyze([...BENCH_REPORTS, ...BENCH_DISTRACTORS].map(corpusPdf), { mode: 'rules-only', strategy: 'auto', judge: false });
  const { responder } = createAskResponder({ reader: { vocabulary: AUDIT_VOCABULARY }, minOverlap: READER_MIN_OVERLAP });
  const sim = await startOllamaSim({ embeddingDimension: 256, responder });
  const llm = createLlmClient({ host: sim.url, db });
  const embedModel = 'nomic-embed-text:latest';
  try {
    await updateIndex(db, { embedModel, llm });
    const space = findVectorSpace(db, embedModel)!;
    const hitAt = (units: readonly { pageStart: number; pageEnd: number }[], page: number, k: number) =>
      units.slice(0, k).some((u) => u.pageStart <= page && page <= u.pageEnd);
    const out: Record<string, string> = {};
    const sets: [string, CorpusQuestion[]][] = [
      ['title', corpusQuestions(BENCH_REPORTS, 'title')],
      ['keywords', corpusQuestions(BENCH_REPORTS, 'keywords')],
      ['paraphrased', paraphrasedQuestions()],
    ];
    for (const [form, questions] of sets) {
      const rows: Record<string, { at5: number; at10: number }> = {};
      const add = (row: string, units: readonly { pageStart: number; pageEnd: number }[], page: number) => {
        const r = (rows[row] ??= { at5: 0, at10: 0 });
        r.at5 += hitAt(units, page, 5) ? 1 : 0;
        r.at10 += hitAt(units, page, 10) ? 1 : 0;
      };
      for (const q of questions) {
        const vector = (await llm.embed({ model: embedModel, input: q.question, numCtx: 2048 })).embeddings[0]!;
        add(
          'BM25 only',
          search(db, { query: q.question, limit: 10 }).map((h) => h.unit),
          q.page,
        );
        add(
          'vectors only',
          search(db, { query: '', queryVector: vector, space, limit: 10 }).map((h) => h.unit),
          q.page,
        );
        add(
          'fused (RRF), no judge',
          search(db, { query: q.question, queryVector: vector, space, limit: 10 }).map((h) => h.unit),
          q.page,
        );
        const judged = await retrieveContext(
          { db, llm },
          { question: q.question, settings: askSettings({ model: 'qwen3:8b', embedModel, topK: 10, threshold: 0 }) },
        );
        add('fused + judge (max 2 rounds)', judged.kept, q.page);
      }
      out[`${form} questions`] = `${questions.length} (${BENCH_REPORTS.length} reports, ${BENCH_DISTRACTORS.length} more documents in the index)`;
      for (const [row, r] of Object.entries(rows))
        out[`${form}: ${row}: recall@5 / recall@10`] = `${(r.at5 / questions.length).toFixed(2)} / ${(r.at10 / questions.length).toFixed(2)}`;
    }
    return out;
  } finally {
    await llm.close();
    await sim.close();
    db.close();
  }
}

export async function runRetrievalBench(): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'retrieval-bench-'));
  try {
    if (ONLY === 'recall') return recall(dir);
    return { ...(await latencyAndBuild(dir)), ...(await buildThroughSimulator(dir)), ...(await recall(dir)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('retrievalBench.ts')) {
  const figures = await runRetrievalBench();
  for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${v}`);
}
