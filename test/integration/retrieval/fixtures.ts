/**
 * Shared setup of the retrieval tests: a real SQLite file, documents
 * ingested and chunked by the real pipeline (rules-only run: no model), the
 * simulator with the ask responder, and a real LLM client on it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../../../electron/engine';
import { createLlmClient, type LlmClient } from '../../../electron/engine/llm';
import { openDatabase, type Database } from '../../../electron/engine/store';
import type { AskSettings } from '../../../electron/engine/retrieval';
import { askSettings } from '../../../electron/engine/retrieval';
import type { OllamaSim, SimOptions } from '../../ollama-sim/index';

export const CHAT_MODEL = 'qwen3:8b';
export const EMBED_MODEL = 'nomic-embed-text:latest';

/** A text document with known answers: one fact per page, section headings in Markdown. */
export const HANDBOOK_PAGES = [
  '# Treasury controls\n\nThe treasury keeps two signatures on every payment above 10,000 euros. Cash is counted every Friday by the deputy controller.',
  '# Access management\n\nPasswords must be at least 14 characters long and are rotated every 90 days. Administrator accounts use hardware tokens issued by the IT security office.',
  '# Backup policy\n\nDatabase backups run nightly at 02:00 and are kept for 35 days in the Frankfurt data centre. Restore tests happen each quarter.',
  '# Vendor management\n\nEvery supplier contract above 50,000 euros needs approval from the procurement board. Vendor risk reviews are repeated every two years.',
  '# Incident response\n\nSecurity incidents are reported to the data protection officer within 24 hours. The incident log is reviewed monthly by the CISO.',
];

export function writeHandbook(dir: string, name = 'handbook.md'): string {
  const file = join(dir, name);
  // Pages of a .md document are separated by form feeds (see pdf/textDocument).
  writeFileSync(file, HANDBOOK_PAGES.map((page, i) => `${page}\n\n${filler(i)}`).join('\f'));
  return file;
}

/** Neutral sentences that make each section long enough to stay its own chunk (the greedy merger joins short ones). */
function filler(section: number): string {
  return Array.from({ length: 40 }, (_, k) => `Routine administrative paragraph ${section * 100 + k} records ordinary detail.`).join(' ');
}

export async function ingest(db: Database, files: string[], strategy: 'headings' | 'pages' | 'outline' | 'auto' = 'headings'): Promise<number[]> {
  const engine = createEngine({ db, appVersion: 'test' });
  const outcome = await engine.analyze(files, { mode: 'rules-only', strategy, judge: false });
  return outcome.inputs.map((i) => {
    if (i.documentId === null || i.documentId === undefined) throw new Error(`not ingested: ${i.filePath} ${JSON.stringify(i.error)}`);
    return i.documentId;
  });
}

export function openStore(dir: string): Database {
  return openDatabase(join(dir, 'store.sqlite'));
}

export function simClient(sim: OllamaSim, db: Database): LlmClient {
  return createLlmClient({ host: sim.url, db, sleep: async () => {}, settings: { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1, jitter: 0 } } });
}

export function settingsFor(partial: Partial<AskSettings> = {}): AskSettings {
  return askSettings({ model: CHAT_MODEL, embedModel: EMBED_MODEL, numCtx: 8192, ...partial });
}

/** Embeddings with fewer hash collisions than the default 64 dimensions, so unrelated text is far apart. */
export const SIM_OPTIONS: SimOptions = { embeddingDimension: 256 };
