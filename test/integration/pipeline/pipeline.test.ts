import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../../shared/findings';
import type { ProgressEvent } from '../../../shared/types';
import { listChunkResults, listFindings } from '../../../electron/engine/extract';
import { normalizeId } from '../../../electron/engine/rules';
import { getRunModels } from '../../../electron/engine/review';
import { loadChunks } from '../../../electron/engine/store';
import { getSummary } from '../../../electron/engine/summary';
import { StopRequest } from '../../../electron/engine';
import { plantedReport, plantedResponder } from '../../fixtures/plantedFindings';
import { findingFingerprint, mergedOf, MODEL, pipelineHarness, writePlantedReport, type PipelineHarness } from './helpers';

const report = plantedReport();
const settings = {
  strategy: 'pages' as const,
  judge: false,
  llm: { models: { default: MODEL }, cache: false, desiredChunkTokens: 1500, replyTokens: 1024, maxInFlight: 1 },
};
/** One page (leaf) per extraction call, for the tests about what happens to one unit. */
const perLeaf = { ...settings, llm: { ...settings.llm, unitTokens: 1 } };

let h: PipelineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('full pipeline against the simulator (planted findings)', () => {
  it('reports every planted finding once, flags invented ones, lists missed IDs, with live progress and zero reloads', async () => {
    h = await pipelineHarness({ responder: plantedResponder(report) });
    const file = writePlantedReport(h.dir, report);
    const events: ProgressEvent[] = [];
    const outcome = await h.engine.analyze([file], settings, { onProgress: (e) => events.push(e) });

    expect(outcome.run.status).toBe('done');
    expect(outcome.inputs[0]!.status).toBe('done');
    const merged = mergedOf(h.db, outcome.run.id);
    for (const planted of report.truth.filter((t) => t.behaviour !== 'miss' && t.behaviour !== 'paraphrase-heavy')) {
      const matches = merged.filter((m) => (planted.id ? m.findingKey === normalizeId(planted.id) : m.title === planted.title) && m.grounded);
      expect(matches, planted.key).toHaveLength(1);
      expect(matches[0]!.mainPage, planted.key).toBe(planted.page);
    }
    for (const invented of report.invented) {
      const found = merged.find((m) => m.title === invented.title);
      expect(found?.grounded, invented.title).toBe(false);
    }
    const json = JSON.parse(h.engine.jsonReport(outcome.run.id)) as {
      inputs: { document: { unreviewedMentions: { id: string }[]; ungroundedFindings: unknown[] } }[];
    };
    const unreviewed = json.inputs[0]!.document.unreviewedMentions.map((m) => m.id);
    for (const missed of report.truth.filter((t) => t.behaviour === 'miss' && t.id)) expect(unreviewed).toContain(normalizeId(missed.id!));
    for (const passing of report.passingIds) expect(unreviewed).toContain(normalizeId(passing.id));

    const extract = events.filter((e) => e.phase === 'extract');
    expect(extract.at(-1)).toMatchObject({ current: 6, total: 6 });
    expect(extract.at(-1)!.findings).toBeGreaterThan(0);
    expect(extract.some((e) => e.etaSeconds !== undefined)).toBe(true);
    expect(h.sim.counters.reloads).toBe(0);
    // The run records which weights ran, not only their names.
    const models = getRunModels(h.db, outcome.run.id);
    expect(models.models.length).toBeGreaterThan(0);
    for (const m of models.models) expect(m.digest, m.name).toMatch(/^[0-9a-f]{12,}/);
    // Every prompt was sent whole: none bigger than the planned num_ctx, none truncated.
    expect(h.sim.requests.every((r) => !r.truncated && r.promptTokens <= r.numCtx)).toBe(true);
  });

  it('marks a chunk whose replies stay broken as failed and finishes the run', async () => {
    const good = plantedResponder(report);
    const brokenPage = report.pageTexts[2]!.slice(0, 40);
    // Broken whenever page 3 is anywhere in the conversation, including the client's retry that quotes the bad reply.
    h = await pipelineHarness({
      responder: (req) => (req.messages.some((m) => m.content.includes(brokenPage)) ? '{"findings": [ {"title": ' : good(req)),
    });
    const file = writePlantedReport(h.dir, report);
    // Default units: the unit holding page 3 fails, is tried again page by page, and only page 3 stays failed.
    const outcome = await h.engine.analyze([file], settings);
    expect(outcome.run.status).toBe('done');
    expect(outcome.inputs[0]!.status).toBe('failed');
    expect(outcome.inputs[0]!.error!.message).toMatch(/1 of 6 chunks could not be analysed \(page 3\)/);
    const results = listChunkResults(h.db, outcome.run.id);
    expect(results.filter((r) => r.status === 'failed')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'done')).toHaveLength(5);
    expect(mergedOf(h.db, outcome.run.id).length).toBeGreaterThan(0);
    expect(h.engine.markdownReport(outcome.run.id)).toMatch(/### Chunks that failed analysis \(1\)/);
  });

  it('pauses between chunks and resumes to the same findings as an uninterrupted run, with nothing duplicated', async () => {
    h = await pipelineHarness({ responder: plantedResponder(report) });
    const file = writePlantedReport(h.dir, report);
    const straight = await h.engine.analyze([file], perLeaf);
    const expected = findingFingerprint(mergedOf(h.db, straight.run.id));
    const expectedRaw = listFindings(h.db, straight.run.id).length;

    const abort = new AbortController();
    const paused = await h.engine.analyze([file], perLeaf, {
      signal: abort.signal,
      onProgress: (e) => {
        if (e.phase === 'extract' && e.current === 3 && /analysed/.test(e.message)) abort.abort(new StopRequest('pause'));
      },
    });
    expect(paused.run.status).toBe('paused');
    expect(listChunkResults(h.db, paused.run.id).filter((r) => r.status === 'done')).toHaveLength(3);
    const requestsBefore = h.sim.requests.length;
    const resumed = await h.engine.resume(paused.run.id);
    expect(resumed.run.status).toBe('done');
    // Only the three remaining chunks were sent again; then, once, the follow-up naming the ID no finding covers.
    const extractionRequests = h.sim.requests.slice(requestsBefore).filter((r) => JSON.stringify(r.format ?? null).includes('"findings"'));
    const followUp = (r: { messages: readonly { content: string }[] }) => r.messages.some((m) => m.content.includes('These IDs are printed'));
    expect(extractionRequests.filter((r) => !followUp(r))).toHaveLength(3);
    expect(extractionRequests.filter(followUp)).toHaveLength(1);
    expect(findingFingerprint(mergedOf(h.db, resumed.run.id))).toEqual(expected);
    expect(listFindings(h.db, resumed.run.id)).toHaveLength(expectedRaw);
  });

  it('extracts in units of consecutive chunks: fewer calls, each finding filed under the chunk its evidence is in, the same merged findings', async () => {
    h = await pipelineHarness({ responder: plantedResponder(report) });
    const file = writePlantedReport(h.dir, report);
    const perChunk = await h.engine.analyze([file], perLeaf);
    // Extraction calls of the text itself; a follow-up naming IDs no finding covered (the planted miss) comes after.
    const unitCall = (r: { format?: unknown; messages: readonly { content: string }[] }) =>
      JSON.stringify(r.format ?? null).includes('"findings"') && !r.messages.some((m) => m.content.includes('These IDs are printed'));
    const callsPerChunk = h.sim.requests.filter(unitCall).length;
    const before = h.sim.requests.length;
    const united = await h.engine.analyze([file], { ...settings, llm: { ...settings.llm, unitTokens: 3000 } });
    const unitCalls = h.sim.requests.slice(before).filter(unitCall).length;
    expect(callsPerChunk).toBe(6);
    // Units are planned by the reply they need too: one line per printed ID fits eight findings in a 1024-token reply,
    // so one unit. This model writes every finding in full (about 100 tokens each): its reply is cut at the limit, kept,
    // and continued after its last complete finding, never asked again or failed.
    const extractCalls = h.db
      .prepare("SELECT chunk_ref AS ref, done_reason AS reason, outcome FROM llm_calls WHERE run_id = ? AND purpose = 'extract' AND chunk_ref NOT LIKE '%?%'")
      .all(united.run.id) as { ref: string; reason: string; outcome: string }[];
    expect(new Set(extractCalls.map((c) => c.ref.replace(/\+\d+$/, ''))).size).toBe(1);
    expect(extractCalls[0]).toMatchObject({ reason: 'length', outcome: 'ok' });
    expect(extractCalls.slice(1).map((c) => c.ref)).toEqual(extractCalls.slice(1).map((_, i) => `${extractCalls[0]!.ref}+${i + 1}`));
    expect(extractCalls.every((c) => c.outcome === 'ok')).toBe(true);
    expect(unitCalls).toBeLessThan(callsPerChunk);
    // The same merged findings from the same evidence; a chunk-boundary duplicate of one quote (the same quote
    // reported by a chunk and, from its context tail, by the next) no longer arises inside a unit.
    const distinctSources = (fingerprint: string[]) => fingerprint.map((f) => f.replace(/[^|]*$/, (sources) => [...new Set(sources.split(','))].join(',')));
    expect(distinctSources(findingFingerprint(mergedOf(h.db, united.run.id)))).toEqual(distinctSources(findingFingerprint(mergedOf(h.db, perChunk.run.id))));
    // The tree is unchanged: six leaves, all done; the unit's summary is kept once, on its first leaf.
    const results = listChunkResults(h.db, united.run.id);
    expect(results.map((r) => r.status)).toEqual(Array(6).fill('done'));
    expect(results.filter((r) => (r.summary ?? '') !== '')).toHaveLength(1);
    const leaves = loadChunks(h.db, results[0]!.treeId).filter((n) => n.isLeaf);
    expect(leaves).toHaveLength(6);
    const grounded = listFindings(h.db, united.run.id).filter((f) => f.grounding.start !== null && !f.grounding.inContextOnly);
    expect(grounded.length).toBeGreaterThan(5);
    for (const f of grounded) {
      const leaf = leaves.find((l) => l.index === f.nodeIndex)!;
      expect(f.grounding.start!, f.title).toBeGreaterThanOrEqual(leaf.start);
      expect(f.grounding.start!, f.title).toBeLessThan(leaf.end);
    }
    expect(new Set(grounded.map((f) => f.nodeIndex)).size).toBeGreaterThan(3);
  });

  it('extracts with a custom profile: its description and types are the instructions, its ID patterns the cross-check', async () => {
    h = await pipelineHarness({ responder: plantedResponder(report) });
    const file = writePlantedReport(h.dir, report);
    const profile = {
      ...DEFAULT_PROFILE,
      name: 'Release notes',
      description: 'A finding is a change request or a defect listed in release notes.',
      types: ['change request', 'defect'],
      idPatterns: [{ name: 'INC', source: String.raw`\bINC-\d+\b` }],
    };
    const outcome = await h.engine.analyze([file], { ...settings, profile, idPatterns: profile.idPatterns });
    expect(outcome.run.status).toBe('done');
    const extraction = h.sim.requests.filter((r) => JSON.stringify(r.format ?? null).includes('"findings"'));
    expect(extraction.length).toBeGreaterThan(0);
    for (const request of extraction) expect(request.messages[0]!.content).toContain(profile.description);
    const json = JSON.parse(h.engine.jsonReport(outcome.run.id)) as { inputs: { document: { idMentions: { id: string }[] } }[] };
    expect(json.inputs[0]!.document.idMentions.map((m) => m.id)).toEqual(['INC-0042']);
  });

  it('map-reduces a long summary, the map step on the faster model chosen for it', async () => {
    h = await pipelineHarness({ responder: plantedResponder(report) });
    // Sixty pages of plain prose after the planted ones: the summary stage may read 0.15 prompt tokens per source
    // token, so a map-reduce of several levels needs a document long enough to pay for it.
    const filler = Array.from(
      { length: 60 },
      (_, i) =>
        `Appendix page ${i + 1}\n${'The team traced every sampled record of this register to its approval and found it complete. The owners confirmed the results.\n'.repeat(6)}`,
    );
    const file = writePlantedReport(h.dir, { ...report, pageTexts: [...report.pageTexts, ...filler] });
    // Tiny chunks: many chunk summaries that together exceed what one summary call may carry.
    const outcome = await h.engine.analyze([file], {
      ...settings,
      strategy: 'sentences',
      llm: { ...settings.llm, desiredChunkTokens: 80, summaryMapModel: 'llama3.1:8b' },
    });
    expect(outcome.run.status).toBe('done');
    const summary = getSummary(h.db, outcome.run.id, outcome.inputs[0]!.documentId!)!;
    expect(summary.levels).toBeGreaterThanOrEqual(2);
    const summaryCalls = h.sim.requests.filter((r) => r.format === undefined && r.messages.length > 0);
    expect(summaryCalls.some((r) => r.model === 'llama3.1:8b')).toBe(true);
    expect(summaryCalls.at(-1)!.model).toBe(MODEL);
    expect(h.sim.counters.reloads).toBe(0);
  });

  it('uses a fixed context size when the user sets one, for every call, and cuts chunks to fit it', async () => {
    h = await pipelineHarness({ responder: plantedResponder(report) });
    const file = writePlantedReport(h.dir, report);
    const outcome = await h.engine.analyze([file], { ...settings, llm: { ...settings.llm, numCtx: 6144 } });
    expect(outcome.run.status).toBe('done');
    const sized = h.sim.requests.filter((r) => r.messages.length > 0);
    expect(sized.length).toBeGreaterThan(0);
    expect(new Set(h.sim.requests.map((r) => r.numCtx))).toEqual(new Set([6144]));
    expect(h.sim.counters.reloads).toBe(0);
  });

  it('stops the run with a clear error when Ollama is not there, and resumes once it is', async () => {
    h = await pipelineHarness({ responder: plantedResponder(report) });
    const file = writePlantedReport(h.dir, report);
    const url = h.sim.url;
    await h.sim.close();
    const failed = await h.engine.analyze([file], { ...settings, llm: { ...settings.llm, host: url } });
    expect(failed.run.status).toBe('failed');
    expect(failed.run.error?.code).toBe('OLLAMA_UNREACHABLE');
    expect(failed.run.error?.message).toMatch(/Start Ollama/);
  });
});
