/**
 * The renderer's one store (issue 40 item 4) with an engine that answers when the test says: there is one open
 * document, and a link opens the document it names whatever another view held (trial 2026-11-28 row 2); a command
 * the engine has not answered within a second is shown as waiting, with what the engine is busy with (row 3).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Result } from '../../../shared/errors';
import type { RunProgressPayload, RunView } from '../../../shared/contract';
import type { useStore as Store } from '../../../renderer/src/store';
import type { busyWith as BusyWith } from '../../../renderer/src/components/StatusBar';

const pending: { command: string; input: Record<string, unknown>; answer: (result: Result<unknown>) => void }[] = [];
let useStore: typeof Store;
let busyWith: typeof BusyWith;

beforeAll(async () => {
  // The store talks to the engine through `window.auditApi`; this one answers when the test says.
  (globalThis as { window?: unknown }).window = {
    location: { hash: '', search: '' },
    matchMedia: () => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined }),
    auditApi: {
      invoke: (command: string, input: Record<string, unknown>) => new Promise<Result<unknown>>((answer) => pending.push({ command, input, answer })),
      onEvent: () => () => undefined,
    },
  };
  ({ useStore } = await import('../../../renderer/src/store'));
  ({ busyWith } = await import('../../../renderer/src/components/StatusBar'));
});

afterEach(() => {
  vi.useRealTimers();
  pending.length = 0;
});

/** Answers every call still waiting: each command's answer for the document it asked about. */
async function answerAll(answers: (command: string, input: Record<string, unknown>) => unknown): Promise<void> {
  for (let round = 0; round < 10 && pending.length > 0; round++) {
    for (const call of pending.splice(0)) call.answer({ ok: true, data: answers(call.command, call.input) });
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** What the engine holds for document n: a review with one finding named after it, and empty other parts. */
const engine = (command: string, input: Record<string, unknown>): unknown => {
  const documentId = input.documentId as number;
  if (command === 'review.get')
    return {
      documentId,
      runId: 1,
      findings: [
        { id: documentId * 10, documentId, mergedIds: [documentId * 100], grounded: true, state: 'new', effective: { title: `Finding of ${documentId}` } },
      ],
      counters: {},
      context: {},
      identity: {},
    };
  if (command === 'findings.arriving') return { runId: null, findings: [] };
  if (command === 'documents.analysis')
    return {
      documentId,
      runId: 1,
      treeId: 1,
      judge: null,
      summary: null,
      chunks: [],
      counts: { queued: 0, running: 0, done: 0, failed: 0 },
      unreviewedMentions: [],
    };
  if (command === 'tree.get') return { documentId, treeId: documentId, strategy: 'headings', nodes: [] };
  if (command === 'mentions.list' || command === 'splitAttempts.list') return [];
  return null;
};

describe('one open document', () => {
  it('opens the document a link names, though the review still held it and another view opened another one since', async () => {
    const s = () => useStore.getState();
    // Findings of document 1, then document 2 in the Document view (the trial's sequence).
    const first = s().doc.show(1, 'findings');
    await answerAll(engine);
    await first;
    const second = s().doc.show(2, 'document');
    await answerAll(engine);
    await second;
    expect(s().doc.openId).toBe(2);
    // A citation of document 1's finding (merged finding 100).
    const citation = s().doc.show(1, 'findings', { mergedFindingId: 100 });
    await answerAll(engine);
    await citation;
    expect(s().nav.view).toBe('findings');
    expect(s().doc.openId).toBe(1);
    expect(s().review.documentId).toBe(1);
    expect(s().review.activeId).toBe(10);
    expect(s().tree.documentId).toBe(1);
  });

  it('shows the later of two links followed at once, whatever order the engine answers in', async () => {
    const s = () => useStore.getState();
    const a = s().doc.show(3, 'document', { nodeIndex: 0 });
    const b = s().doc.show(4, 'document');
    // The engine answers document 4's calls first, then document 3's.
    for (const call of pending.splice(0).sort((x, y) => Number(y.input.documentId === 4) - Number(x.input.documentId === 4)))
      call.answer({ ok: true, data: engine(call.command, call.input) });
    await Promise.all([a, b]);
    await answerAll(engine);
    expect(s().doc.openId).toBe(4);
    expect(s().tree.documentId).toBe(4);
    expect(s().review.documentId).toBe(4);
  });
});

describe('a command the engine is slow to answer', () => {
  it('is shown as waiting after a second, with what the engine is busy with, and no longer once answered', async () => {
    vi.useFakeTimers();
    const s = () => useStore.getState();
    const saving = s().review.act('review.edit', { reviewedId: 10, values: { title: 'New title' } });
    await vi.advanceTimersByTimeAsync(999);
    expect(s().host.waiting).toEqual([]);
    await vi.advanceTimersByTimeAsync(2);
    expect(s().host.waiting.map((w) => w.command)).toEqual(['review.edit']);
    // The runs say what the engine does: a merge of 680 findings in report-a.pdf.
    const input = { ordinal: 0, fileName: 'report-a.pdf', status: 'running', progress: { phase: 'merge', current: 0, total: 1, message: '' } };
    const run = { id: 3, inputs: [input] } as unknown as RunView;
    const progress = {
      3: { runId: 3, event: { runId: 3, ordinal: 0, phase: 'merge', current: 0, total: 1, message: '', findings: 680 }, inputs: [input] },
    } as unknown as Record<number, RunProgressPayload>;
    expect(busyWith([run], progress)).toBe('merging 680 findings in report-a.pdf');
    pending.splice(0).forEach((call) => call.answer({ ok: false, error: { code: 'INTERNAL', message: 'no' } }));
    await saving;
    expect(s().host.waiting).toEqual([]);
    expect(s().review.saving).toBe(false);
  });
});

describe('two drops made one after the other', () => {
  it('imports both, each as its own run, the second once the first has been sent (none lost while reading)', async () => {
    const s = () => useStore.getState();
    const pdf = (name: string) => new File([new TextEncoder().encode('%PDF-1.4 ' + name)], name, { type: 'application/pdf' });
    const first = s().library.importFiles([pdf('gamma.pdf'), pdf('delta.pdf')]);
    const second = s().library.importFiles([pdf('epsilon.pdf')]);
    const imports = () => pending.filter((call) => call.command === 'documents.import');
    await vi.waitFor(() => expect(imports()).toHaveLength(1));
    expect(s().library.importing).toBe(true);
    let nextRun = 7;
    const answer = (command: string, input: Record<string, unknown>): unknown => {
      if (command === 'documents.import') {
        const files = input.files as { name: string }[];
        return { accepted: files.map((f, i) => ({ name: f.name, documentId: i + 1 })), rejected: [], runId: nextRun++ };
      }
      if (command === 'ollama.status') return { reachable: true, host: 'http://127.0.0.1:11434' };
      return null;
    };
    // Only the first drop's files are on their way; the second waits for them, then goes as its own import.
    expect((imports()[0]!.input.files as { name: string }[]).map((f) => f.name)).toEqual(['gamma.pdf', 'delta.pdf']);
    await answerAll(answer);
    const [a, b] = await Promise.all([first, second]);
    expect(a?.runId).toBe(7);
    expect(b?.runId).toBe(8);
    expect(b?.accepted.map((f) => f.name)).toEqual(['epsilon.pdf']);
    expect(s().library.lastImport).toEqual({ accepted: ['epsilon.pdf'], rejected: [], runId: 8 });
    expect(s().library.importing).toBe(false);
  });
});
