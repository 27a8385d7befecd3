/**
 * The settings pane's store: an edit typed while the saved settings are still
 * loading is kept, so what the user saves is what they typed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../../../shared/errors';
import type { useStore as Store } from '../../../renderer/src/store';
import type { AppSettings } from '../../../shared/contract';

const pending: { command: string; input: unknown; answer: (result: Result<unknown>) => void }[] = [];
let useStore: typeof Store;
const settingsOf = () => useStore.getState().settings;

beforeAll(async () => {
  // The store talks to the engine through `window.auditApi`; this one answers when the test says.
  (globalThis as { window?: unknown }).window = {
    location: { hash: '', search: '' },
    auditApi: {
      invoke: (command: string, input: unknown) => new Promise<Result<unknown>>((answer) => pending.push({ command, input, answer })),
      onEvent: () => () => undefined,
    },
  };
  ({ useStore } = await import('../../../renderer/src/store'));
});

const saved = (host: string) => ({ ollamaHost: host, reviewerName: 'A. Auditor', endpoints: [] }) as unknown as AppSettings;

describe('settings store', () => {
  it('keeps a host typed while the pane was still loading, and saves it', async () => {
    const first = settingsOf().load();
    pending.shift()!.answer({ ok: true, data: saved('http://127.0.0.1:11434') });
    await first;

    const reopened = settingsOf().open();
    settingsOf().edit({ ollamaHost: 'http://127.0.0.1:9' } as Partial<AppSettings>);
    pending.shift()!.answer({ ok: true, data: saved('http://127.0.0.1:11434') });
    await reopened;
    expect(settingsOf().draft).toMatchObject({ ollamaHost: 'http://127.0.0.1:9' });
    expect(settingsOf().settings).toMatchObject({ ollamaHost: 'http://127.0.0.1:11434' });

    const saving = settingsOf().save();
    const call = pending.shift()!;
    expect(call.command).toBe('settings.update');
    expect(call.input).toMatchObject({ ollamaHost: 'http://127.0.0.1:9' });
    call.answer({ ok: true, data: saved('http://127.0.0.1:9') });
    expect(await saving).toBe(true);
    expect(settingsOf().message).toBe('Settings saved.');
  });

  it('shows the saved settings when nothing was edited while they loaded', async () => {
    settingsOf().discard();
    const loading = settingsOf().load();
    pending.shift()!.answer({ ok: true, data: saved('http://10.0.0.5:11434') });
    await loading;
    expect(settingsOf().draft).toMatchObject({ ollamaHost: 'http://10.0.0.5:11434' });
  });
});
