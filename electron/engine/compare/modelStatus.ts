/**
 * Stated statuses by one model call, for the layouts the rules do not read
 * (a status worded in a sentence under an unusual label, a status column
 * far from the title). The model sees only the sections of the later
 * findings whose status the rules did not find, delimited as data, and
 * answers by JSON schema with a verbatim quote for each. Like a finding's
 * evidence, a status is kept only when its quote is found in THAT finding's
 * section and the quote itself holds a status word; the status shown is the
 * document's word from the quote, never the model's: the model may point,
 * never judge.
 */
import { z } from 'zod';
import { pageAt } from '../../../shared/canonical';
import { summarizePairs, type Comparison, type StatedStatus } from '../../../shared/compare';
import { AppError, ErrorCode } from '../../../shared/errors';
import { groundEvidence } from '../printed';
import { chatJsonPrompt, isRunWideLlmError, promptText, type LlmClient } from '../llm';
import { getRunModels } from '../review';
import { loadExtractedDocument } from '../store';
import type { Database } from 'better-sqlite3';
import { statusWordIn, statusCategory } from './statedStatus';

export const STATUS_CHUNK_REF = 'compare:stated-status';
/** How far above a finding's quote its heading may stand (a status line often sits between them). */
const LEAD_CHARS = 600;

/** Where the finding's section starts: its heading (the title's first words) shortly above its quote, else the quote's line. */
function sectionStart(text: string, at: number, title: string, floor: number): number {
  const from = Math.max(floor, at - LEAD_CHARS);
  const firstWords = title
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 4)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const heading = firstWords.length >= 2 ? [...text.slice(from, at).matchAll(new RegExp(firstWords.join(String.raw`\s+`), 'gi'))].at(-1) : undefined;
  if (heading) return text.lastIndexOf('\n', from + heading.index) + 1;
  return text.lastIndexOf('\n', at - 1) + 1;
}
/** Text per finding shown to the model: the rules read further (statedStatus.ts), but each section costs context. */
const MODEL_SECTION_CHARS = 3000;
/** Sections per call: enough for a report's worth of findings, small enough for an 8B model's context. */
const MAX_SECTIONS = 30;

export const StatusReplySchema = z.object({
  statuses: z.array(
    z.object({
      finding: z.number().int().describe('the finding number as given in the DOCUMENT block'),
      quote: z.string().nullable().describe("verbatim text from that finding's section that states its status, or null when it states none"),
    }),
  ),
});

export const STATUS_INSTRUCTIONS = promptText`
  You read sections of the later version of an audit report (a fix review or a re-audit), one per finding, each headed "=== Finding n ===".
  For each finding, quote verbatim the words of its own section that state its status (for example "Status: Resolved", "The client acknowledged the issue", "Fixed in commit 3a4b1c", "Risk accepted").
  Quote only from that finding's section; never judge the status yourself.
  If the section states no status, give null.
`;

export interface ModelStatusOptions {
  llm: LlmClient;
  model: string;
  numCtx: number;
  cache?: boolean;
  signal?: AbortSignal;
}

export interface ModelStatusResult {
  comparison: Comparison;
  /** Statuses read this way. */
  read: number;
  /** Quotes the model gave that were not found in their section or held no status word: dropped. */
  dropped: number;
  /** Why the call gave nothing (a failed call); null when it answered or was not needed. */
  problem: string | null;
}

/**
 * The later findings of the comparison whose status the rules did not read, with their sections: from the
 * finding's heading (or its quote's line) to the next finding's, at most MODEL_SECTION_CHARS past its quote.
 */
function sectionsToAsk(text: string, c: Comparison): { pairIndex: number; start: number; end: number }[] {
  const quoted = c.pairs
    .filter((p) => p.later && p.later.start !== null)
    .map((p) => ({ pair: p, at: p.later!.start! }))
    .sort((a, b) => a.at - b.at);
  const starts = quoted.map((q, i) => sectionStart(text, q.at, q.pair.later!.title, i === 0 ? 0 : quoted[i - 1]!.at));
  const out: { pairIndex: number; start: number; end: number }[] = [];
  for (const [i, { pair, at }] of quoted.entries()) {
    if (pair.statedStatus || pair.later!.mergedId === null) continue;
    out.push({ pairIndex: pair.index, start: starts[i]!, end: Math.min(starts[i + 1] ?? text.length, at + MODEL_SECTION_CHARS) });
  }
  return out.slice(0, MAX_SECTIONS);
}

export async function readStatusesWithModel(db: Database, comparison: Comparison, options: ModelStatusOptions): Promise<ModelStatusResult> {
  const doc = loadExtractedDocument(db, comparison.later.documentId);
  if (!doc || comparison.later.mode !== 'full') return { comparison, read: 0, dropped: 0, problem: null };
  const sections = sectionsToAsk(doc.text, comparison);
  if (sections.length === 0) return { comparison, read: 0, dropped: 0, problem: null };
  const text = sections.map((s, i) => `=== Finding ${i + 1} ===\n${doc.text.slice(s.start, s.end)}`).join('\n\n');
  let reply: z.infer<typeof StatusReplySchema>;
  try {
    const result = await chatJsonPrompt(
      options.llm,
      {
        instructions: STATUS_INSTRUCTIONS,
        schema: StatusReplySchema,
        task: "Quote the status each finding's section states.",
        document: { id: comparison.later.documentId, label: 'finding-sections', text },
      },
      {
        // Logged as an extraction call: it reads findings' sections (llm_calls.purpose is a closed set).
        purpose: 'extract',
        model: options.model,
        numCtx: options.numCtx,
        numPredict: 64 * sections.length + 256,
        runId: comparison.later.runId,
        documentId: comparison.later.documentId,
        chunkRef: STATUS_CHUNK_REF,
        ...(options.cache === undefined ? {} : { cache: options.cache }),
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
    reply = result.value;
  } catch (error) {
    if (error instanceof AppError && (error.code === ErrorCode.CANCELLED || isRunWideLlmError(error.code))) throw error;
    const problem = `the stated-status call failed (${(error as Error).message})`;
    return { comparison: { ...comparison, modelStatus: { model: options.model, read: 0, dropped: 0, problem } }, read: 0, dropped: 0, problem };
  }
  const found = new Map<number, StatedStatus>();
  let dropped = 0;
  for (const item of reply.statuses) {
    const section = sections[item.finding - 1];
    if (!section || item.quote === null || item.quote.trim() === '' || found.has(section.pairIndex)) continue;
    const grounding = groundEvidence(doc.text, doc.pages, item.quote, { chunk: section });
    const shown = grounding.status === 'grounded' && grounding.start !== null && grounding.end !== null ? doc.text.slice(grounding.start, grounding.end) : null;
    const word = shown === null ? null : statusWordIn(shown);
    if (shown === null || word === null || grounding.start === null || grounding.end === null) {
      dropped++;
      continue;
    }
    found.set(section.pairIndex, {
      text: word.text,
      category: statusCategory(word.text),
      quote: shown.replace(/\s+/g, ' ').trim(),
      page: pageAt(doc.pages, grounding.start + word.index),
      start: grounding.start,
      end: grounding.end,
      source: 'model',
    });
  }
  const pairs = comparison.pairs.map((p) => (found.has(p.index) ? { ...p, statedStatus: found.get(p.index)! } : p));
  return {
    comparison: {
      ...comparison,
      pairs,
      summary: summarizePairs(pairs, comparison.candidates),
      modelStatus: { model: options.model, read: found.size, dropped, problem: null },
    },
    read: found.size,
    dropped,
    problem: null,
  };
}

/** Context for the status call when neither the caller nor the later run's plan gives one. */
export const MODEL_STATUS_NUM_CTX = 8192;

/** Whether the model is worth asking: the later side has model findings, some without a status the rules read. */
export function statusesLeftUnread(c: Comparison): boolean {
  return c.later.mode === 'full' && c.pairs.some((p) => p.later !== null && p.later.mergedId !== null && p.statedStatus === null);
}

/**
 * The model and context for the status call: the one asked for, else the one that extracted the later document's
 * findings (it ran on this machine already), else the later run's first; null when none is known.
 */
export function statusModelFor(
  db: Database,
  c: Comparison,
  wanted: { model?: string | undefined; numCtx?: number | undefined } = {},
): { model: string; numCtx: number } | null {
  const runModels = getRunModels(db, c.later.runId);
  const model = wanted.model ?? runModels.models.find((m) => m.stage === 'extract')?.name ?? runModels.models[0]?.name;
  return model ? { model, numCtx: wanted.numCtx ?? runModels.numCtx ?? MODEL_STATUS_NUM_CTX } : null;
}
