/**
 * Tree split cost benchmark against the Ollama simulator: a 100-page document
 * with no outline, a responder that proposes plausible chapters from the
 * numbered view and passes every review (strategy plus review, no retries).
 * Prompt tokens evaluated per source token are read from the stored LLM
 * calls (purpose split + review), in the simulator's own tokens. Target
 * <= 0.5 (issue 38; PolicySynth's design sends 6 to 10). A document with an outline
 * or clear headings must spend 0 structure tokens on the default path.
 *
 * Run alone: npx tsx test/bench/treesplitBench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLlmClient } from '../../electron/engine/llm';
import { openDatabase } from '../../electron/engine/store/db';
import { judgeStrategy } from '../../electron/engine/judge';
import { splitTreeWithLlm } from '../../electron/engine/treesplit';
import { validateLeaves, validateTree } from '../../electron/engine/chunking';
import { defaultTokenize, startOllamaSim } from '../ollama-sim/index';
import { isJudge, isReview, makeDoc, PASS, plausibleSplit, storeDoc } from '../integration/treesplit/helpers';

const MODEL = 'llama3.1:8b';
const NUM_CTX = 8192;

export async function runTreeSplitBench(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'treesplit-bench-'));
  const db = openDatabase(join(dir, 'bench.sqlite'));
  const sim = await startOllamaSim({
    timeScale: 0,
    responder: (req) =>
      isJudge(req)
        ? JSON.stringify({ strategy: 'headings', targetChunkTokens: 800, overlapChars: 0, justification: 'clear headings' })
        : isReview(req)
          ? PASS
          : plausibleSplit(req),
  });
  try {
    const llm = createLlmClient({ host: sim.url, db });
    // 100 pages of paragraphs, no outline and no title lines: nothing the deterministic splitters can structure by.
    const doc = makeDoc({ sections: 1, paragraphsPerSection: 1000, linesPerParagraph: 5, linesPerPage: 60, titles: false, name: 'bench-100p.txt' });
    const documentId = storeDoc(db, doc);
    const started = performance.now();
    const result = await splitTreeWithLlm({ llm, db }, { doc, documentId, model: MODEL, numCtx: NUM_CTX, options: { leafTokens: 1200 } });
    const seconds = (performance.now() - started) / 1000;
    const rows = db
      .prepare(`SELECT purpose, outcome, prompt_eval_count AS pe FROM llm_calls WHERE document_id = ? AND purpose IN ('split', 'review')`)
      .all(documentId) as { purpose: string; outcome: string; pe: number | null }[];
    const evaluated = rows.reduce((a, r) => a + (r.pe ?? 0), 0);
    const splitTokens = rows.filter((r) => r.purpose === 'split').reduce((a, r) => a + (r.pe ?? 0), 0);
    const sourceTokens = defaultTokenize(doc.text).length;
    const leaves = result.nodes.filter((n) => n.isLeaf);
    const maxPrompt = Math.max(...sim.requests.map((r) => r.promptTokens));

    // Default path on a structured document: the judge is off (or picks headings/outline) and the tree split never runs.
    const structured = makeDoc({ sections: 40, paragraphsPerSection: 6, linesPerParagraph: 5, linesPerPage: 60, titles: true, name: 'bench-structured.txt' });
    structured.outline = Array.from({ length: 10 }, (_, i) => ({ title: `Topic ${i * 4 + 1} x`, level: 1, page: Math.min(structured.pageCount, 1 + i * 2) }));
    const structuredId = storeDoc(db, structured);
    const disabled = await judgeStrategy({ llm, db }, { doc: structured, documentId: structuredId, model: MODEL, numCtx: NUM_CTX, disabled: true });
    const judged = await judgeStrategy({ llm, db }, { doc: structured, documentId: structuredId, model: MODEL, numCtx: NUM_CTX });
    const structureRows = db
      .prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(prompt_eval_count), 0) AS pe FROM llm_calls WHERE document_id = ? AND purpose IN ('split', 'review')`)
      .get(structuredId) as { n: number; pe: number };
    const judgeRows = db
      .prepare(`SELECT COALESCE(SUM(prompt_eval_count), 0) AS pe FROM llm_calls WHERE document_id = ? AND purpose = 'judge'`)
      .get(structuredId) as { pe: number };

    return {
      pages: doc.pageCount,
      'source tokens (sim)': sourceTokens,
      'split+review calls': rows.length,
      'split calls': rows.filter((r) => r.purpose === 'split').length,
      'review calls': rows.filter((r) => r.purpose === 'review').length,
      attempts: result.attempts,
      fallbacks: result.fallbacks.length,
      'prompt tokens evaluated': evaluated,
      'prompt tokens / source token': Number((evaluated / sourceTokens).toFixed(3)),
      'split-only tokens / source token': Number((splitTokens / sourceTokens).toFixed(3)),
      'target tokens / source token': 0.5,
      'max prompt tokens / num_ctx': `${maxPrompt} / ${NUM_CTX}`,
      'truncated requests': sim.requests.filter((r) => r.truncated).length,
      'nodes / leaves': `${result.nodes.length} / ${leaves.length}`,
      'tree valid': String(validateTree(result.nodes, doc.pages).ok && validateLeaves(doc.text, leaves).ok),
      'tree split wall s': Number(seconds.toFixed(2)),
      'structured doc: judge disabled strategy': disabled.strategy,
      'structured doc: judge strategy': judged.strategy,
      'structured doc: judge prompt tokens': judgeRows.pe,
      'structured doc: structure (split+review) tokens': structureRows.pe,
    };
  } finally {
    await sim.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  console.table(await runTreeSplitBench());
}
