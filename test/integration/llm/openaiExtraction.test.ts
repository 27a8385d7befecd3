/**
 * Extraction through the OpenAI-compatible API (issue 29): a reply the server cuts at max_tokens ends with
 * `finish_reason: "length"`, which the client treats as Ollama's `done_reason: "length"`, so the extraction's
 * continuation works on this path too: every finding written whole is kept and the text after the last one is asked
 * next. And a server without json_schema gets json_object, the reply still validated. Real HTTP to the simulator.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChunkNode } from '../../../shared/types';
import { extractUnit, MIN_EXTRACTION_REPLY_TOKENS } from '../../../electron/engine/extract';
import { createLlmClient, type LlmClient } from '../../../electron/engine/llm';
import { openDatabase, type Database } from '../../../electron/engine/store/db';
import { documentFromPages } from '../../helpers/documents';
import { FINDINGS_TABLE, faithfulTableModel } from '../../fixtures/findingsTable';
import { promptBlocks } from '../../fixtures/plantedFindings';
import { startOpenAiSim, type OpenAiSimOptions, type OpenAiSim } from '../../ollama-sim/openai';

const MODEL = 'qwen3:8b';
function wholeDocument(text: string) {
  const doc = documentFromPages([text], 'openai-extraction.txt');
  const chunk: ChunkNode = {
    index: 1,
    parentIndex: 0,
    title: 'all',
    section: { level: 1, path: [] },
    start: 0,
    end: doc.text.length,
    pageStart: 1,
    pageEnd: 1,
    tokenEstimate: 0,
    origin: 'page',
    isLeaf: true,
    overlapBefore: 0,
  };
  return { doc, chunk };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function harness(options: OpenAiSimOptions): Promise<{ sim: OpenAiSim; client: LlmClient; db: Database; rows(): Array<Record<string, unknown>> }> {
  const dir = mkdtempSync(join(tmpdir(), 'openai-extraction-'));
  const db = openDatabase(join(dir, 'store.sqlite'));
  const sim = await startOpenAiSim({ timeScale: 0, contextLength: 16384, ...options });
  const client = createLlmClient({ db, endpoint: { kind: 'openai', url: sim.baseUrl } });
  cleanups.push(async () => {
    await client.close();
    await sim.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { sim, client, db, rows: () => db.prepare("SELECT * FROM llm_calls WHERE purpose = 'extract' ORDER BY id").all() as Array<Record<string, unknown>> };
}

describe('extraction through an OpenAI-compatible server', () => {
  it('a reply cut at max_tokens (finish_reason "length") is continued: its whole findings kept, the text after them asked next', async () => {
    const h = await harness({ responder: faithfulTableModel });
    const { doc, chunk } = wholeDocument(FINDINGS_TABLE);
    const r = await extractUnit({ llm: h.client }, { doc, chunk, model: MODEL, numCtx: 8192, replyTokens: 2048, cache: false });
    // The plan for this short text is the floor, sent as max_tokens; the eight findings are longer, so the server cut the reply.
    expect(h.sim.bodies[0]!.max_tokens).toBe(MIN_EXTRACTION_REPLY_TOKENS);
    const rows = h.rows().map((row) => [row.outcome, row.done_reason]);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.slice(0, -1).every(([outcome, reason]) => outcome === 'ok' && reason === 'length')).toBe(true);
    expect(rows.at(-1)).toEqual(['ok', 'stop']);
    // The continuation starts after the last whole finding: F-1 is not shown again.
    expect(promptBlocks(h.sim.requests[1]!).chunk!.includes('F-1 ')).toBe(false);
    expect(r.findings.map((f) => f.id)).toEqual(Array.from({ length: 8 }, (_, i) => `F-${i + 1}`));
    expect(r.calls).toBe(rows.length);
  });

  it('a server that refuses json_schema gets json_object from then on, and the findings are the same', async () => {
    const h = await harness({ responder: faithfulTableModel, structuredOutput: 'json_object' });
    const { doc, chunk } = wholeDocument(FINDINGS_TABLE);
    const r = await extractUnit({ llm: h.client }, { doc, chunk, model: MODEL, numCtx: 8192, replyTokens: 2048, cache: false });
    expect(r.findings.map((f) => f.id)).toEqual(Array.from({ length: 8 }, (_, i) => `F-${i + 1}`));
    const formats = h.sim.bodies.map((b) => (b.response_format as { type: string }).type);
    expect(formats[0]).toBe('json_schema');
    expect(formats.slice(1).every((f) => f === 'json_object')).toBe(true);
    // The refused request is not an answer: only json_object requests reached the model.
    expect(h.sim.requests.every((req) => req.format === 'json')).toBe(true);
  });
});
