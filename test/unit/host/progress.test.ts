import { describe, expect, it } from 'vitest';
import { inputFraction, overallFraction, phaseFraction, wholeRunEta } from '../../../electron/host/progress';

describe('progress arithmetic', () => {
  it('places a phase inside the input share by mode', () => {
    expect(phaseFraction('full', 'extract', 0, 10)).toBeCloseTo(0.3);
    expect(phaseFraction('full', 'extract', 5, 10)).toBeCloseTo(0.6);
    expect(phaseFraction('rules-only', 'ingest', 1, 2)).toBeCloseTo(0.2);
    // OCR follows reading the text layer: the bar goes on from where reading ended.
    expect(phaseFraction('rules-only', 'ocr', 0, 6)).toBeCloseTo(phaseFraction('rules-only', 'ingest', 2, 2));
    expect(phaseFraction('full', 'ocr', 3, 6)).toBeCloseTo(0.07);
  });

  it('keeps a paused input at what it committed, and a queued one at zero', () => {
    const paused = inputFraction('full', { status: 'paused', phase: 'extract' }, undefined, { done: 3, total: 6 });
    expect(paused).toBeCloseTo(0.6);
    expect(inputFraction('full', { status: 'cancelled', phase: 'tree' }, undefined, null)).toBeCloseTo(0.15);
    expect(inputFraction('full', { status: 'queued', phase: null }, undefined, null)).toBe(0);
    expect(inputFraction('full', { status: 'failed', phase: 'ingest' }, undefined, null)).toBe(1);
    expect(inputFraction('full', { status: 'running', phase: 'extract' }, { phase: 'extract', current: 1, total: 2, message: '' }, null)).toBeCloseTo(0.6);
    expect(overallFraction([1, paused])).toBeCloseTo(0.8);
  });

  it('estimates the time left for the whole run, not only the current file', () => {
    // Two files; the first is half done after 50 s (a quarter of the run): 150 s left at that pace.
    expect(wholeRunEta({ overall: 0.25, startOverall: 0, elapsedSeconds: 50, currentInputLeft: 0.25 })).toBe(150);
    // The engine says 20 s for the current file's chunks; the second file still takes its share at the run's pace.
    expect(wholeRunEta({ overall: 0.25, startOverall: 0, elapsedSeconds: 50, currentInputLeft: 0.25, currentInputSeconds: 20 })).toBe(20 + 100);
    // The last file: the engine's estimate is the whole answer.
    expect(wholeRunEta({ overall: 0.75, startOverall: 0.5, elapsedSeconds: 0.1, currentInputLeft: 0.25, currentInputSeconds: 30 })).toBe(30);
    // Too little progress to know the pace, and more files after this one: unknown.
    expect(wholeRunEta({ overall: 0.01, startOverall: 0, elapsedSeconds: 3, currentInputLeft: 0.49, currentInputSeconds: 30 })).toBeNull();
  });
});

describe('one ETA, honest about what it does not know', () => {
  it('says nothing (estimating) while the current file is in a phase with no measured rate, OCR included', () => {
    // 8 s of OCR on one page: the run's pace would say minutes; there is no rate for OCR, so no estimate.
    expect(wholeRunEta({ overall: 0.04, startOverall: 0, elapsedSeconds: 8, currentInputLeft: 0.96, currentPhase: 'ocr' })).toBeNull();
    expect(wholeRunEta({ overall: 0.3, startOverall: 0, elapsedSeconds: 8, currentInputLeft: 0.7, currentPhase: 'extract' })).toBeNull();
    // Once extraction has measured its seconds per chunk, the estimate is that.
    expect(wholeRunEta({ overall: 0.5, startOverall: 0, elapsedSeconds: 8, currentInputLeft: 0.5, currentPhase: 'extract', currentInputSeconds: 12 })).toBe(12);
    // Merging and summarising are short and follow the run's pace.
    expect(wholeRunEta({ overall: 0.9, startOverall: 0, elapsedSeconds: 9, currentInputLeft: 0.1, currentPhase: 'merge' })).toBe(1);
  });

  it("across a pool (several files at once) uses the whole run's pace, not one file's estimate added to the rest", () => {
    // Four files, three analysed at once; after 30 s the run is 30% done: 70 s left at that pace. One file's engine
    // estimate (20 s) plus the others at the run's pace would count the files in flight as if they ran one after another.
    expect(
      wholeRunEta({
        overall: 0.3,
        startOverall: 0,
        elapsedSeconds: 30,
        currentInputLeft: 0.2,
        currentInputSeconds: 20,
        currentPhase: 'extract',
        inputsInFlight: 3,
      }),
    ).toBe(70);
    // The first file's phase does not make the pool's estimate "estimating" once the run has a pace ...
    expect(wholeRunEta({ overall: 0.3, startOverall: 0, elapsedSeconds: 30, currentInputLeft: 0.2, currentPhase: 'ocr', inputsInFlight: 2 })).toBe(70);
    // ... but with too little progress to know it, there is no figure.
    expect(wholeRunEta({ overall: 0.01, startOverall: 0, elapsedSeconds: 3, currentInputLeft: 0.2, currentInputSeconds: 20, inputsInFlight: 3 })).toBeNull();
    // One file in flight: as before.
    expect(
      wholeRunEta({
        overall: 0.3,
        startOverall: 0,
        elapsedSeconds: 30,
        currentInputLeft: 0.2,
        currentInputSeconds: 20,
        currentPhase: 'extract',
        inputsInFlight: 1,
      }),
    ).toBe(20 + 50);
  });
});

describe('the time left after a resume (trial 2026-11-28 row 8)', () => {
  it('keeps the pace the run has shown before its pause, not the first seconds after resuming', () => {
    // Before the pause: three quarters done in 600 s of work, so about 200 s left. Resumed a minute ago, the model
    // loading again: the engine's estimate from this execution's first chunks says 700 s for the current file alone.
    const resumed = {
      overall: 0.78,
      startOverall: 0.75,
      elapsedSeconds: 60,
      currentInputLeft: 0.15,
      currentInputSeconds: 700,
      currentPhase: 'extract' as const,
    };
    expect(wholeRunEta(resumed)).toBeGreaterThan(600);
    const eta = wholeRunEta({ ...resumed, earlier: { gained: 0.75, seconds: 600 } })!;
    expect(eta).toBeGreaterThan(180);
    expect(eta).toBeLessThan(220);
    // Reading pages or OCR still has no rate of its own, history or not.
    const { currentInputSeconds: _engine, ...reading } = resumed;
    expect(wholeRunEta({ ...reading, currentPhase: 'ocr', earlier: { gained: 0.75, seconds: 600 } })).toBeNull();
  });
});
