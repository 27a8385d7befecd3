/**
 * The summary stage's prompt budget (issue 13): at most 0.15 prompt tokens per source token, enforced when the
 * run is planned, on a long document analysed one leaf per call (the case where the unit summaries alone are more
 * than 0.15 of the source). Measured as the simulator counts the prompts it evaluated (real HTTP), not as the
 * engine estimates them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../../shared/types';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../../electron/engine/pipeline/settings';
import { SUMMARY_PROMPT_TOKENS_PER_SOURCE_TOKEN } from '../../../electron/engine/summary';
import { promptBlocks } from '../../fixtures/plantedFindings';
import { isExtractionRequest } from '../../eval/truthResponder';
import { defaultTokenize, schemaResponder } from '../../ollama-sim/index';
import { MODEL, pipelineHarness, type PipelineHarness } from '../pipeline/helpers';

let h: PipelineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const TOPICS = [
  'access reviews',
  'backup restores',
  'change approvals',
  'incident tickets',
  'vendor contracts',
  'patch levels',
  'firewall rules',
  'key rotation',
];
/** A long report of plain prose: 120 pages, each a short section. */
function longReport(): string {
  return Array.from({ length: 120 }, (_, p) => {
    const topic = TOPICS[p % TOPICS.length]!;
    return [
      `Section ${p + 1}: ${topic}`,
      `The team examined the ${topic} recorded during the period and compared each record with the approved procedure.`,
      `Samples were drawn from the register for ${topic} and every sample was traced to its supporting evidence.`,
      `The owners of the ${topic} process explained the exceptions and the follow-up actions agreed with management.`,
    ].join('\n');
  }).join('\f');
}

/** What a model writes: a two-sentence summary for every leaf (no findings), a short paragraph for every summary call. */
const responder = (req: Parameters<typeof schemaResponder>[0]) => {
  if (isExtractionRequest(req)) {
    const text = (promptBlocks(req).chunk ?? '')
      .replace(/\[page \d+\]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    const sentences = text.match(/[A-Z][^.]{20,200}\./g) ?? ['This part continues the review.'];
    return JSON.stringify({ findings: [], summary: sentences.slice(0, 2).join(' ') });
  }
  if (req.messages.some((m) => m.role === 'system' && /partial summaries/.test(m.content)))
    return 'The review covered the registers in order and noted the exceptions management agreed to follow up.';
  return schemaResponder(req);
};

describe('summary prompt budget on a long document', () => {
  it('reads at most 0.15 prompt tokens per source token, shortening the unit summaries and saying so', async () => {
    h = await pipelineHarness({ responder });
    const file = join(h.dir, 'long-report.txt');
    writeFileSync(file, longReport());
    const events: ProgressEvent[] = [];
    const outcome = await h.engine.analyze(
      [file],
      { strategy: 'pages', judge: false, llm: { ...DEFAULT_RUN_LLM_SETTINGS, models: { default: MODEL }, cache: false, unitTokens: 1 } },
      { onProgress: (e) => events.push(e) },
    );
    expect(outcome.run.status).toBe('done');
    const documentId = outcome.inputs[0]!.documentId!;
    const { text } = h.db.prepare('SELECT canonical_text AS text FROM documents WHERE id = ?').get(documentId) as { text: string };
    const sourceTokens = defaultTokenize(text).length;
    const budget = SUMMARY_PROMPT_TOKENS_PER_SOURCE_TOKEN * sourceTokens;

    // The unit summaries as the model wrote them are more than the budget: without the cap the map level alone would exceed it.
    const unitSummaries = (
      h.db.prepare("SELECT summary FROM chunk_results WHERE run_id = ? AND summary <> ''").all(outcome.run.id) as { summary: string }[]
    ).map((r) => r.summary);
    expect(unitSummaries.length).toBeGreaterThan(100);
    expect(unitSummaries.reduce((n, s) => n + defaultTokenize(s).length, 0)).toBeGreaterThan(budget);

    // The summary calls (map and reduce; not the completeness check's call) as the simulator evaluated them.
    const calls = h.db
      .prepare("SELECT prompt_eval_count AS n FROM llm_calls WHERE run_id = ? AND purpose = 'summary' AND chunk_ref LIKE 'summary-%' AND outcome = 'ok'")
      .all(outcome.run.id) as { n: number }[];
    expect(calls.length).toBeGreaterThan(0);
    const spent = calls.reduce((a, c) => a + c.n, 0);
    expect(spent).toBeLessThanOrEqual(budget);

    const summary = h.db.prepare('SELECT text, levels FROM summaries WHERE run_id = ? AND level = 0').get(outcome.run.id) as { text: string; levels: number };
    expect(summary.levels).toBeGreaterThanOrEqual(1);
    expect(summary.text.length).toBeGreaterThan(0);
    // The run says what it did.
    expect(
      events.some((e) => e.phase === 'summary' && /shortened to their first sentences .* at most 0\.15 prompt tokens per source token/.test(e.message ?? '')),
    ).toBe(true);
  }, 120_000);
});
