/**
 * What one document's analysis carries through its stages. Its own module so
 * that the pipeline (documentPipeline.ts) and its steps (completenessStep.ts)
 * both import it without importing each other.
 */
import type { ExtractedDocument, ProgressEvent, RunPhase } from '../../../shared/types';
import type { LlmClient } from '../llm';
import type { Logger } from '../log';
import type { Database } from '../store';
import type { LlmRunPlan } from './llmPlan';
import type { RunSettings } from './settings';

export interface DocumentContext {
  db: Database;
  runId: number;
  documentId: number;
  doc: ExtractedDocument;
  settings: RunSettings;
  now: () => Date;
  /** The run's log (bound to the run and the input). */
  log: Logger;
  signal?: AbortSignal;
  report: (phase: RunPhase, current: number, total: number, message: string, extra?: Partial<ProgressEvent>) => void;
  /** Present in full mode. */
  llm?: { client: LlmClient; plan: LlmRunPlan };
}
