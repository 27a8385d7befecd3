import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, ErrorCode } from '../../../shared/errors';
import { openDatabase, type Database } from '../../../electron/engine/store/db';
import { createLlmClient, type LlmClient, type LlmSettings } from '../../../electron/engine/llm';
import { startOllamaSim, type OllamaSim, type SimOptions } from '../../ollama-sim/index';

export interface Harness {
  sim: OllamaSim;
  db: Database;
  client: LlmClient;
  sleeps: number[];
  newClient(settings?: Partial<LlmSettings>): LlmClient;
  rows(where?: string): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function harness(simOptions: SimOptions = {}, settings: Partial<LlmSettings> = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'llm-it-'));
  const db = openDatabase(join(dir, 'store.sqlite'));
  const sim = await startOllamaSim({ timeScale: 0, ...simOptions });
  const sleeps: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    sleeps.push(ms);
    if (signal?.aborted) throw new AppError(ErrorCode.CANCELLED, 'Cancelled.');
  };
  const newClient = (s: Partial<LlmSettings> = settings) => createLlmClient({ host: sim.url, db, sleep, settings: s });
  return {
    sim,
    db,
    client: newClient(),
    sleeps,
    newClient,
    rows: (where = '1=1') => db.prepare(`SELECT * FROM llm_calls WHERE ${where} ORDER BY id`).all() as Array<Record<string, unknown>>,
    async close() {
      await sim.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function expectCode(p: Promise<unknown>, code: string): Promise<AppError> {
  try {
    await p;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code !== code) throw new Error(`expected ${code}, got ${error.code}: ${error.message}`);
    return error;
  }
  throw new Error(`expected ${code}, but the call succeeded`);
}
