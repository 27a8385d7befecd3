import { afterEach, describe, expect, it } from 'vitest';
import { RUN_PHASES, type RunMode, type RunPhase } from '../../../shared/pipeline';
import type { ProgressEvent } from '../../../shared/types';
import { PHASE_SPANS, phaseFraction } from '../../../electron/host/progress';
import { plantedReport, plantedResponder } from '../../fixtures/plantedFindings';
import { MODEL, pipelineHarness, writePlantedReport, type PipelineHarness } from './helpers';

const report = plantedReport();
const full = {
  strategy: 'pages' as const,
  judge: false,
  llm: { models: { default: MODEL }, cache: false, desiredChunkTokens: 1500, replyTokens: 1024, maxInFlight: 1 },
};

let h: PipelineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The phases of one input's events, each once, in the order they first appeared. */
const phasesInOrder = (events: readonly ProgressEvent[]): RunPhase[] => [...new Set(events.filter((e) => e.ordinal === 0).map((e) => e.phase))];

describe('the stage list is what runs (RUN_PHASES, the progress spans)', () => {
  it.each([
    ['full', full],
    ['rules-only', { mode: 'rules-only' as const }],
  ] as const)('%s mode: every phase reported is listed, in the listed order, and the bar never moves back', async (mode, settings) => {
    h = await pipelineHarness({ responder: plantedResponder(report) });
    const events: ProgressEvent[] = [];
    const outcome = await h.engine.analyze([writePlantedReport(h.dir, report)], settings, { onProgress: (e) => events.push(e) });
    expect(outcome.run.status).toBe('done');

    const seen = phasesInOrder(events);
    const listed = seen.map((p) => RUN_PHASES.indexOf(p));
    expect(listed.every((i) => i >= 0)).toBe(true);
    expect(listed).toEqual([...listed].sort((a, b) => a - b));
    const spans = PHASE_SPANS[mode as RunMode];
    for (const phase of seen) expect(spans[phase], `${mode} has a span for ${phase}`).toBeDefined();
    // The completeness check reports as itself, not as the merge.
    if (mode === 'full') expect(seen).toEqual(['ingest', 'rules', 'tree', 'extract', 'merge', 'completeness', 'summary']);
    else expect(seen).toEqual(['ingest', 'rules', 'tree']);

    const fractions = events.filter((e) => e.ordinal === 0).map((e) => phaseFraction(mode, e.phase, e.current, e.total));
    const backwards = fractions.findIndex((f, i) => i > 0 && f < fractions[i - 1]! - 1e-9);
    expect(backwards, backwards >= 0 ? `${events.filter((e) => e.ordinal === 0)[backwards]!.phase} moved the bar back` : '').toBe(-1);
  });
});
