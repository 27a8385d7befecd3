/**
 * The simulator's parts on their own (the HTTP behaviour is tested end to end in test/integration/ollamaSim):
 * truncation to num_ctx, reply shaping, the request's messages, and simulated time.
 */
import { describe, expect, it } from 'vitest';
import { fitToContext, requestMessages, shapeReply } from '../../ollama-sim/completion';
import { ollamaErrors } from '../../ollama-sim/errors';
import { renderPrompt } from '../../ollama-sim/protocol';
import { Cancelled, simulatedTime, sleepUnlessCancelled } from '../../ollama-sim/timing';
import { defaultTokenize } from '../../ollama-sim/tokenizer';

const words = (n: number, w: string) => Array.from({ length: n }, () => w).join(' ');

describe('fitToContext', () => {
  const system = { role: 'system', content: 'You extract findings.' };
  const old = { role: 'user', content: words(60, 'old') };
  const last = { role: 'user', content: words(20, 'new') };

  it('leaves a prompt that fits untouched', () => {
    const fitted = fitToContext(defaultTokenize, [system, last], 4096, true, {});
    expect(fitted).toEqual({
      fullTokens: defaultTokenize(renderPrompt([system, last])),
      tokens: defaultTokenize(renderPrompt([system, last])),
      truncated: false,
    });
  });

  it('drops the oldest non-system messages first, keeping the system message and the last one', () => {
    const full = defaultTokenize(renderPrompt([system, old, last])).length;
    const withoutOld = defaultTokenize(renderPrompt([system, last])).length;
    const fitted = fitToContext(defaultTokenize, [system, old, last], withoutOld + 1, true, {});
    expect(fitted).toMatchObject({ truncated: true });
    if ('error' in fitted) throw new Error(fitted.error);
    expect(fitted.fullTokens).toHaveLength(full);
    expect(fitted.tokens).toEqual(defaultTokenize(renderPrompt([system, last])));
  });

  it('then keeps num_keep tokens and the tail, exactly num_ctx in all; without truncation it is the 400', () => {
    const tokens = defaultTokenize(renderPrompt([last]));
    const fitted = fitToContext(defaultTokenize, [last], 10, true, { num_keep: 3 });
    if ('error' in fitted) throw new Error(fitted.error);
    expect(fitted.tokens).toEqual([...tokens.slice(0, 3), ...tokens.slice(tokens.length - 7)]);
    expect(fitted.truncated).toBe(true);
    expect(fitToContext(defaultTokenize, [last], 10, false, {})).toEqual({ error: ollamaErrors.inputTooLong });
  });
});

describe('shapeReply', () => {
  it('cuts at a stop word and at num_predict, saying why it ended', () => {
    expect(shapeReply(defaultTokenize, 'alpha beta STOP gamma', [], { stop: ['STOP'] }, true)).toMatchObject({ doneReason: 'stop' });
    const stopped = shapeReply(defaultTokenize, 'alpha beta STOP gamma', [], { stop: ['STOP'] }, true);
    expect(stopped.pieces.map((p) => p.text).join('')).toBe('alpha beta ');
    const capped = shapeReply(defaultTokenize, 'one two three four five', [], { num_predict: 2 }, true);
    expect(capped.pieces).toHaveLength(2);
    expect(capped.doneReason).toBe('length');
  });

  it('keeps thinking only when asked for and supported, thinking pieces first', () => {
    const reply = { content: 'answer', thinking: 'hmm' };
    const textOf = (pieces: { kind: string; text: string }[], kind: string) =>
      pieces
        .filter((p) => p.kind === kind)
        .map((p) => p.text)
        .join('');
    const kept = shapeReply(defaultTokenize, reply, [], {}, true).pieces;
    expect(kept[0]?.kind).toBe('thinking');
    expect([textOf(kept, 'thinking'), textOf(kept, 'content')]).toEqual(['hmm', 'answer']);
    const dropped = shapeReply(defaultTokenize, reply, [], {}, false).pieces;
    expect([textOf(dropped, 'thinking'), textOf(dropped, 'content')]).toEqual(['', 'answer']);
  });

  it('applies the code-fence and cut-JSON faults', () => {
    const fenced = shapeReply(defaultTokenize, '{"a":1}', [{ kind: 'codeFences' }], {}, true);
    expect(fenced.pieces.map((p) => p.text).join('')).toBe('```json\n{"a":1}\n```');
    const cut = shapeReply(defaultTokenize, '{"a":1}', [{ kind: 'cutJson', keepChars: 3 }], {}, true);
    expect(cut.pieces.map((p) => p.text).join('')).toBe('{"a');
    expect(cut.doneReason).toBe('length');
  });
});

describe('requestMessages', () => {
  it("reads chat messages, and generate's system and prompt; a non-list is Go's unmarshal error", () => {
    expect(requestMessages('chat', { messages: [{ role: 'user', content: 'hi' }, { role: 7 }] })).toEqual([
      { role: 'user', content: 'hi' },
      { role: '', content: '' },
    ]);
    expect(requestMessages('generate', { system: 'be brief', prompt: 'hi' })).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
    ]);
    expect(requestMessages('generate', { system: 'be brief' })).toEqual([]);
    expect(requestMessages('chat', { messages: 'hi' })).toHaveProperty('error');
  });
});

describe('simulated time', () => {
  it('counts every simulated second and sleeps only with a time scale', async () => {
    const counters = { simulatedSeconds: 0 };
    const started = performance.now();
    await simulatedTime(0, counters)(120, undefined);
    expect(performance.now() - started).toBeLessThan(1000);
    await simulatedTime(0.001, counters)(30, undefined);
    expect(counters.simulatedSeconds).toBe(150);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('a request that goes away ends its sleep with Cancelled', async () => {
    const ac = new AbortController();
    const sleeping = sleepUnlessCancelled(60_000, ac.signal);
    ac.abort();
    await expect(sleeping).rejects.toBeInstanceOf(Cancelled);
    await expect(sleepUnlessCancelled(0, ac.signal)).rejects.toBeInstanceOf(Cancelled);
  });
});
