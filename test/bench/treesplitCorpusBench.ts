/**
 * The LLM tree split on the real audit reports of ../shared/corpus that have
 * no outline (the case `--strategy llm-tree` is for), against the simulator
 * under three model behaviours: the plausible model, one that restarts line
 * numbering in each window, and one that lists every heading. Prompt tokens
 * are the sum of prompt_eval_count of the split and review calls (cache hits
 * included, as Ollama reports them), per source token (simulator tokenizer).
 *
 * Run alone: npx tsx test/bench/treesplitCorpusBench.ts
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLlmClient } from '../../electron/engine/llm';
import { ingestFile } from '../../electron/engine/pdf';
import { openDatabase } from '../../electron/engine/store/db';
import { splitTreeWithLlm } from '../../electron/engine/treesplit';
import type { ExtractedDocument } from '../../shared/types';
import { defaultTokenize, startOllamaSim, type Responder } from '../ollama-sim/index';
import { isReview, PASS, plausibleSplit, storeDoc } from '../integration/treesplit/helpers';
import { everyHeadingSplit, restartNumberingSplit } from '../integration/treesplit/modelModes';
import { CORPUS_DIR, corpusFile, wholeCorpusDocuments } from '../helpers/corpus';

const MODEL = 'llama3.1:8b';
const NUM_CTX = 8192;
const LEAF_TOKENS = 1200;
export const CORPUS = CORPUS_DIR;

export const SPLIT_MODES: Record<string, (req: Parameters<Responder>[0]) => string> = {
  plausible: plausibleSplit,
  'restarts numbering': restartNumberingSplit,
  'every heading': everyHeadingSplit,
};

/** The corpus audit reports (truth with findings or a negative control) whose PDF has no outline. */
export function reportsWithoutOutline(): string[] {
  return wholeCorpusDocuments(CORPUS)
    .map((name) => ({
      name,
      truth: JSON.parse(readFileSync(corpusFile(name, 'truth', CORPUS), 'utf8')) as { outline: unknown[]; findings: unknown[]; notes?: string },
    }))
    .filter((t) => !t.name.startsWith('hard-') && t.truth.outline.length === 0)
    .map((t) => join(CORPUS, 'pdfs', `${t.name}.pdf`))
    .sort();
}

export interface SplitFigure {
  doc: string;
  mode: string;
  sourceTokens: number;
  promptTokens: number;
  calls: number;
  attempts: number;
  fallbacks: number;
  outputTokens: number;
}

export async function splitCost(doc: ExtractedDocument, mode: string): Promise<SplitFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'treesplit-corpus-'));
  const db = openDatabase(join(dir, 'bench.sqlite'));
  const split = SPLIT_MODES[mode]!;
  const sim = await startOllamaSim({ timeScale: 0, responder: (req) => (isReview(req) ? PASS : split(req)) });
  try {
    const llm = createLlmClient({ host: sim.url, db, settings: { cache: false } });
    const documentId = storeDoc(db, doc);
    const result = await splitTreeWithLlm({ llm, db }, { doc, documentId, model: MODEL, numCtx: NUM_CTX, options: { leafTokens: LEAF_TOKENS } });
    const rows = db
      .prepare(`SELECT prompt_eval_count AS pe, eval_count AS ev FROM llm_calls WHERE document_id = ? AND purpose IN ('split', 'review')`)
      .all(documentId) as { pe: number | null; ev: number | null }[];
    return {
      doc: doc.fileName,
      mode,
      sourceTokens: defaultTokenize(doc.text).length,
      promptTokens: rows.reduce((a, r) => a + (r.pe ?? 0), 0),
      outputTokens: rows.reduce((a, r) => a + (r.ev ?? 0), 0),
      calls: rows.length,
      attempts: result.attempts,
      fallbacks: result.fallbacks.length,
    };
  } finally {
    await sim.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runTreeSplitCorpusBench(): Promise<Record<string, number | string>> {
  if (!existsSync(CORPUS)) throw new Error('../shared/corpus not found');
  const docs = await Promise.all(reportsWithoutOutline().map(async (file) => (await ingestFile(file, { workers: 0 })).document));
  const out: Record<string, number | string> = {};
  for (const mode of Object.keys(SPLIT_MODES)) {
    let source = 0;
    let prompt = 0;
    for (const doc of docs) {
      const f = await splitCost(doc, mode);
      source += f.sourceTokens;
      prompt += f.promptTokens;
      out[`${mode}: ${f.doc}`] =
        `${(f.promptTokens / f.sourceTokens).toFixed(3)} tok/src (${f.calls} calls, ${f.attempts} attempts, ${f.fallbacks} fallbacks, ${f.outputTokens} output tok)`;
    }
    out[`${mode}: all reports (target <= 0.5)`] = Number((prompt / source).toFixed(3));
  }
  return out;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  console.table(await runTreeSplitCorpusBench());
}
