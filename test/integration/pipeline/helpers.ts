import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, ErrorCode } from '../../../shared/errors';
import type { MergedFinding } from '../../../shared/findings';
import { createEngine, type Engine } from '../../../electron/engine';
import { createLlmClient } from '../../../electron/engine/llm';
import { listMergedFindings } from '../../../electron/engine/merge';
import { openDatabase, type Database } from '../../../electron/engine/store';
import { plantedReport, type PlantedReport } from '../../fixtures/plantedFindings';
import { startOllamaSim, type OllamaSim, type SimOptions } from '../../ollama-sim/index';

export const MODEL = 'qwen3:8b';

/** The planted report as a file the CLI and the engine can read: pages separated by form feeds. */
export function writePlantedReport(dir: string, report: PlantedReport = plantedReport()): string {
  const file = join(dir, 'planted-report.txt');
  writeFileSync(file, report.pageTexts.join('\f'));
  return file;
}

export interface PipelineHarness {
  dir: string;
  db: Database;
  dbPath: string;
  sim: OllamaSim;
  engine: Engine;
  close(): Promise<void>;
}

/** A real engine on a real SQLite file, talking HTTP to the simulator; back-off sleeps are instant. */
export async function pipelineHarness(simOptions: SimOptions): Promise<PipelineHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'pipeline-'));
  const dbPath = join(dir, 'store.sqlite');
  const db = openDatabase(dbPath);
  const sim = await startOllamaSim({ timeScale: 0, ...simOptions });
  const sleep = async (_ms: number, signal?: AbortSignal) => {
    if (signal?.aborted) throw new AppError(ErrorCode.CANCELLED, 'Cancelled.');
  };
  const engine = createEngine({
    db,
    appVersion: 'test',
    createLlm: (settings) => createLlmClient({ host: sim.url, db, sleep, settings: { maxInFlight: settings.llm.maxInFlight, cache: settings.llm.cache } }),
  });
  return {
    dir,
    db,
    dbPath,
    sim,
    engine,
    async close() {
      await sim.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What must be identical between an uninterrupted run and a resumed one. */
export function findingFingerprint(findings: readonly MergedFinding[]): string[] {
  return findings
    .map(
      (f) =>
        `${f.findingKey ?? '-'}|${f.title}|${f.mainPage ?? '-'}|${f.grounded}|${f.sources
          .map((s) => `${s.page}:${s.evidenceStart}`)
          .sort()
          .join(',')}`,
    )
    .sort();
}

export function mergedOf(db: Database, runId: number): MergedFinding[] {
  return listMergedFindings(db, runId);
}
