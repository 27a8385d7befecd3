/**
 * The per-document loader every per-document store uses: the answer shown is
 * the latest load's, a slow answer never paints one document's data or error
 * over another's, and an error belongs to the document whose load failed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { create } from 'zustand';
import type { ErrorInfo, Result } from '../../../shared/errors';
import { errorMessage, perDocumentLoader, type PerDocumentLoader } from '../../../renderer/src/store/perDocumentLoader';
import type { useStore as Store } from '../../../renderer/src/store';

/** A fetch whose answers the test gives, one per call, in any order. */
function controlledFetch<T>() {
  const calls: { documentId: number; answer: (result: Result<T>) => void }[] = [];
  const fetch = (documentId: number) => new Promise<Result<T>>((resolve) => calls.push({ documentId, answer: resolve }));
  return { calls, fetch };
}

const failure = (message: string): Result<never> => ({ ok: false, error: { code: 'INTERNAL', message } });

interface NotesState {
  documentId: number | null;
  notes: string[];
  loading: boolean;
  error: string | null;
  /** Set by `failed`: the store may mark more than the error. */
  failedOnce: boolean;
}

function notesStore() {
  const { calls, fetch } = controlledFetch<string[]>();
  let loader!: PerDocumentLoader<number>;
  const store = create<NotesState>()((set, get) => {
    loader = perDocumentLoader<NotesState, number, string[], string | null>(set, get, {
      fetch,
      empty: () => ({ notes: [] }),
      apply: (notes) => ({ notes }),
      failed: () => ({ failedOnce: true }),
      error: errorMessage,
    });
    return { documentId: null, notes: [], loading: false, error: null, failedOnce: false };
  });
  return { store, loader, calls };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('per-document loader', () => {
  it('shows the document being loaded at once, its data when it comes, and whether it is loading', async () => {
    const { store, loader, calls } = notesStore();
    const done = loader.load(1);
    expect(store.getState()).toMatchObject({ documentId: 1, loading: true, notes: [] });
    calls[0]!.answer({ ok: true, data: ['a'] });
    expect(await done).toBe(true);
    expect(store.getState()).toMatchObject({ documentId: 1, loading: false, notes: ['a'], error: null });
  });

  it('drops the answer for a document the store moved away from mid-load, whatever order the answers come in', async () => {
    const { store, loader, calls } = notesStore();
    const first = loader.load(1);
    const second = loader.load(2);
    // Switching cleared the first document's data at once.
    expect(store.getState()).toMatchObject({ documentId: 2, notes: [], loading: true });
    calls[1]!.answer({ ok: true, data: ['of 2'] });
    expect(await second).toBe(true);
    calls[0]!.answer({ ok: true, data: ['of 1'] });
    expect(await first).toBe(false);
    expect(store.getState()).toMatchObject({ documentId: 2, notes: ['of 2'], loading: false });
  });

  it('drops a late failure of another document: the shown document gets no error that is not its own', async () => {
    const { store, loader, calls } = notesStore();
    const first = loader.load(1);
    const second = loader.load(2);
    calls[0]!.answer(failure('document 1 is gone'));
    expect(await first).toBe(false);
    expect(store.getState()).toMatchObject({ documentId: 2, error: null, loading: true, failedOnce: false });
    calls[1]!.answer({ ok: true, data: ['of 2'] });
    await second;
    expect(store.getState()).toMatchObject({ documentId: 2, notes: ['of 2'], error: null });
  });

  it('drops an older load of the same document answered after a newer one', async () => {
    const { store, loader, calls } = notesStore();
    const older = loader.load(1);
    const newer = loader.load(1);
    calls[1]!.answer({ ok: true, data: ['new'] });
    await newer;
    calls[0]!.answer({ ok: true, data: ['old'] });
    expect(await older).toBe(false);
    expect(store.getState().notes).toEqual(['new']);
  });

  it('keeps an error with its document: a failed reload keeps what was shown, switching clears it, a good load clears it', async () => {
    const { store, loader, calls } = notesStore();
    const load = async (documentId: number, result: Result<string[]>) => {
      const done = loader.load(documentId);
      calls.at(-1)!.answer(result);
      return done;
    };
    await load(1, { ok: true, data: ['a'] });
    await load(1, failure('the engine stopped'));
    expect(store.getState()).toMatchObject({ documentId: 1, notes: ['a'], error: 'the engine stopped', loading: false, failedOnce: true });
    // Another document: the first one's error is not its own.
    const switching = loader.load(2);
    expect(store.getState()).toMatchObject({ documentId: 2, error: null, notes: [] });
    calls.at(-1)!.answer({ ok: true, data: ['b'] });
    await switching;
    await load(1, { ok: true, data: ['a2'] });
    expect(store.getState()).toMatchObject({ documentId: 1, notes: ['a2'], error: null });
  });
});

describe('a part of the store built on it (mentions), through the app transport', () => {
  const answers: { command: string; input: { documentId: number }; answer: (result: Result<unknown>) => void }[] = [];
  let useStore: typeof Store;

  beforeAll(async () => {
    // The renderer's api module picks its transport when it loads: give it a preload bridge whose answers the test holds.
    (globalThis as { window?: unknown }).window = {
      location: { hash: '', search: '' },
      auditApi: {
        invoke: (command: string, input: { documentId: number }) => new Promise<Result<unknown>>((answer) => answers.push({ command, input, answer })),
        onEvent: () => () => undefined,
      },
    };
    ({ useStore } = await import('../../../renderer/src/store'));
  });

  it('asks the host for the document shown and keeps the answer of the latest document only', async () => {
    const mention = (id: string) => ({ id, pages: [1], count: 1 });
    const first = useStore.getState().mentions.load(1);
    const second = useStore.getState().mentions.load(2);
    await tick();
    expect(answers.map((a) => [a.command, a.input.documentId])).toEqual([
      ['mentions.list', 1],
      ['mentions.list', 2],
    ]);
    answers[1]!.answer({ ok: true, data: [mention('PBI-2')] });
    await second;
    answers[0]!.answer({ ok: false, error: { code: 'INTERNAL', message: 'late' } satisfies ErrorInfo });
    await first;
    expect(useStore.getState().mentions).toMatchObject({ documentId: 2, mentions: [mention('PBI-2')], error: null, loading: false });
  });
});
