import { describe, expect, it } from 'vitest';
import { capSummaries, plannedPromptTokens } from '../../../electron/engine/summary';

/** One token per word: easy to reason about. */
const tokens = (text: string) => text.split(/\s+/).filter(Boolean).length;
const summary = (i: number) =>
  `Unit ${i} reviewed the change log and the approvals of the quarter in full detail. It noted two open exceptions and one late approval that management has not yet closed. The owners agreed to report on both exceptions before the end of the next quarter.`;
const options = { tokens, callOverhead: 50, groupBudget: 1000 };

describe('capSummaries (summary prompt budget)', () => {
  it('leaves the summaries as they are when the planned map-reduce fits the budget', () => {
    const items = Array.from({ length: 20 }, (_, i) => summary(i));
    const r = capSummaries(items, { ...options, promptBudget: 2000 });
    expect(r.items).toEqual(items);
    expect(r.cap).toBeUndefined();
  });

  it('cuts each summary to its first sentence when the whole summaries would exceed the budget', () => {
    const items = Array.from({ length: 40 }, (_, i) => summary(i));
    const sizes = items.map(tokens);
    expect(plannedPromptTokens(sizes, options)).toBeGreaterThan(1100);
    const r = capSummaries(items, { ...options, promptBudget: 1100 });
    expect(r.items).toEqual(items.map((s) => s.slice(0, s.indexOf('.') + 1)));
    expect(plannedPromptTokens(r.items.map(tokens), options)).toBeLessThanOrEqual(1100);
    expect(r.cap).toMatchObject({ promptBudget: 1100, keptSummaries: 40 });
    expect(r.cap!.note).toMatch(/first sentences/);
  });

  it('keeps every k-th summary when even first sentences are too much, in document order', () => {
    const items = Array.from({ length: 400 }, (_, i) => summary(i));
    const r = capSummaries(items, { ...options, promptBudget: 1000 });
    expect(r.items.length).toBeLessThan(400);
    expect(plannedPromptTokens(r.items.map(tokens), options)).toBeLessThanOrEqual(1000);
    const numbers = r.items.map((s) => Number(/Unit (\d+)/.exec(s)![1]));
    expect(numbers[0]).toBe(0);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(r.cap!.note).toMatch(/every \d+th summary/);
  });
});
