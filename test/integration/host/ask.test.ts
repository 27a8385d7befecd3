import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HostEvent } from '../../../shared/contract';
import type { AskAnswer, AskEvent } from '../../../shared/retrieval';
import { createEngineHost } from '../../../electron/host/engineHost';
import { createAskResponder } from '../../helpers/askResponder';
import { useSims } from '../../helpers/sim';
import { useTempDir } from '../../helpers/tempDir';
import { SIM_OPTIONS, writeHandbook } from '../retrieval/fixtures';
import { call } from '../../helpers/host';

const tempDir = useTempDir('audit-host-ask-');
const startSim = useSims();

async function hostWithHandbook() {
  const dir = tempDir();
  const { responder } = createAskResponder();
  const { sim } = await startSim({ ...SIM_OPTIONS, responder });
  const host = createEngineHost({ dataDir: dir, appVersion: 't' });
  await call(host, 'settings.update', { ollamaHost: sim.url, strategy: 'headings', useJudge: false });
  await call(host, 'runs.start', { files: [writeHandbook(dir)], mode: 'rules-only' });
  await host.idle();
  const events: AskEvent[] = [];
  host.onEvent((e: HostEvent) => {
    if (e.type === 'ask.event') events.push(e.data);
  });
  return { dir, host, sim, events };
}

describe('engine host: ask commands', () => {
  it('streams the steps and the answer as ask.event events, then lists and exports the conversation', async () => {
    const { host, events } = await hostWithHandbook();
    const { askId } = await call<{ askId: string }>(host, 'ask.start', { question: 'How long are database backups kept?', documentIds: [1] });
    await host.idle();
    const mine = events.filter((e) => e.askId === askId);
    expect(mine.map((e) => (e.type === 'step' ? e.phase : e.type))).toEqual(expect.arrayContaining(['index', 'retrieve', 'judge', 'answer']));
    const last = mine.at(-1)!;
    expect(last.type).toBe('answer');
    const { answer, conversationId } = last as { answer: AskAnswer; conversationId: number };
    expect(answer.citations[0]).toMatchObject({ page: 3, documentName: 'handbook.md' });
    // The answer streamed in before it was checked: at least its first words (partials are throttled).
    const partials = mine.filter((e): e is Extract<AskEvent, { type: 'partial' }> => e.type === 'partial');
    expect(partials.length).toBeGreaterThan(0);
    expect(answer.text.startsWith(partials[0]!.text)).toBe(true);

    const list = await call<{ id: number; scope: string; documentId: number | null }[]>(host, 'conversations.list', { documentId: 1 });
    expect(list).toEqual([expect.objectContaining({ id: conversationId, scope: 'document', documentId: 1 })]);
    const got = await call<{ messages: { role: string }[] }>(host, 'conversations.get', { conversationId });
    expect(got.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const exported = await call<{ path: string }>(host, 'conversations.export', { conversationId, format: 'html' });
    expect(readFileSync(exported.path, 'utf8')).toMatch(/page 3, section Backup policy/);
    await host.close();
  });

  it('reports a failure as an event with its code, refuses bad input, and cancels on request', async () => {
    const { host, events, sim } = await hostWithHandbook();
    expect(await host.invoke('ask.start', { question: '   ' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await host.invoke('ask.start', { question: 'x', conversationId: 99 })).toMatchObject({ ok: false, error: { code: 'CONVERSATION_NOT_FOUND' } });
    expect(await host.invoke('ask.start', { question: 'x', documentIds: [42] })).toMatchObject({ ok: false, error: { code: 'ASK_DOCUMENT_NOT_FOUND' } });
    // A model that is not installed: the question fails as an event with the code and the pull command.
    await call(host, 'settings.update', { models: { judge: null, split: null, extract: 'missing-model:1b', summary: null, embed: null } });
    await call(host, 'ask.start', { question: 'How long are database backups kept?' });
    await host.idle();
    expect(events.at(-1)).toMatchObject({ type: 'failed', error: { code: 'MODEL_NOT_FOUND' } });
    await call(host, 'settings.update', { models: { judge: null, split: null, extract: null, summary: null, embed: null } });

    // A slow model: the question is stopped while the judge is thinking.
    sim.addFault({ fault: { kind: 'slowFirstToken', ms: 5000 }, endpoint: 'chat', times: 5 });
    const { askId } = await call<{ askId: string }>(host, 'ask.start', { question: 'How long are database backups kept?' });
    await expect.poll(() => events.some((e) => e.askId === askId && e.type === 'step' && e.phase === 'judge'), { timeout: 10_000 }).toBe(true);
    expect(await call(host, 'ask.cancel', { askId })).toEqual({ askId, cancelled: true });
    await host.idle();
    expect(events.at(-1)).toMatchObject({ askId, type: 'failed', error: { code: 'CANCELLED' } });
    expect(await call<unknown[]>(host, 'conversations.list', {})).toEqual([]);
    await host.close();
  });

  it('answers with the saved retrieval settings, which survive a restart, unless the question overrides them', async () => {
    const { dir, host, sim } = await hostWithHandbook();
    const saved = await call<{ retrieval: unknown }>(host, 'settings.update', { retrieval: { threshold: 0.45, judge: false, maxRounds: 3 } });
    expect(saved.retrieval).toEqual({ threshold: 0.45, judge: false, maxRounds: 3 });
    expect(await host.invoke('settings.update', { retrieval: { threshold: 2, judge: true, maxRounds: 2 } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    await host.close();

    const again = createEngineHost({ dataDir: dir, appVersion: 't' });
    const answered: AskEvent[] = [];
    again.onEvent((e: HostEvent) => {
      if (e.type === 'ask.event') answered.push(e.data);
    });
    expect((await call<{ retrieval: unknown; ollamaHost: string }>(again, 'settings.get')).retrieval).toEqual({ threshold: 0.45, judge: false, maxRounds: 3 });
    const chatsBefore = sim.counters.chatRequests;
    await call(again, 'ask.start', { question: 'How long are database backups kept?' });
    await again.idle();
    const off = answered.at(-1) as { type: string; answer: AskAnswer };
    expect(off.type).toBe('answer');
    // The judge is off: the search ranking is used, and the only model call is the answer.
    expect(off.answer.steps.map((s) => s.source)).toEqual(['disabled']);
    expect(sim.counters.chatRequests - chatsBefore).toBe(1);

    await call(again, 'ask.start', { question: 'How long are database backups kept?', judge: true });
    await again.idle();
    expect((answered.at(-1) as { answer: AskAnswer }).answer.steps[0]!.source).toBe('llm');
    await again.close();
  });

  it('a "find all" answer offers a run of the extraction profile over every chunk, and ask.extractAll starts it', async () => {
    const { host, events } = await hostWithHandbook();
    await call(host, 'ask.start', { question: 'Find all backup rules', documentIds: [1] });
    await host.idle();
    const answered = events.at(-1) as { type: string; answer: AskAnswer };
    expect(answered.answer.exhaustiveNote).toMatch(/Analyse every chunk/);

    expect(await host.invoke('ask.extractAll', { documentIds: [42] })).toMatchObject({ ok: false, error: { code: 'ASK_DOCUMENT_NOT_FOUND' } });
    const started = await call<{ runId: number; files: number; profile: string }>(host, 'ask.extractAll', { documentIds: [1] });
    expect(started).toMatchObject({ files: 1, profile: expect.any(String) as string });
    await host.idle();
    const runs = await call<{ id: number; mode: string; inputs: { fileName: string }[] }[]>(host, 'runs.list');
    const run = runs.find((r) => r.id === started.runId)!;
    // A full run (extraction over every chunk) of the document asked about, not the rules-only run it was stored with.
    expect(run).toMatchObject({ mode: 'full', inputs: [{ fileName: 'handbook.md' }] });
    expect(runs.filter((r) => r.mode === 'full')).toHaveLength(1);
    await host.close();
  });
});
