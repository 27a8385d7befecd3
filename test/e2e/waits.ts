/**
 * How a UI spec waits for the state it asserts. The window paints a state some time after the action that
 * causes it: a bridge round trip, a store update, a React commit, a scroll event, a pdf.js drawing, a second
 * store reloaded after the first. On a 2-core machine shared with other suites that time is seconds. So a
 * spec never reads the page once right after an action, or right after waiting for something else: it polls
 * the very thing it asserts until it holds, with one deadline (UI_DEADLINE_MS) for every wait. A poll is as
 * strict as a single read: the same matcher must hold on what the page shows; it only stops the spec from
 * asserting before the page has painted. Never a fixed sleep: wait for what the sleep was waiting for.
 *
 * An absence (`count()` is 0) is asserted only after a wait for the state in which it must hold (the thing
 * that replaces it, or the action's own result): polled alone, it would pass before the action had any effect.
 */
import type { Page } from 'playwright';
import { expect } from 'vitest';
import { UI_DEADLINE_MS } from './browser';

/** expect.poll with the UI deadline (vitest's default deadline, 1 s, is too short on a loaded machine). */
export const poll: typeof expect.poll = (read, options) => expect.poll(read, { timeout: UI_DEADLINE_MS, ...options });

/**
 * A frame has laid out what changed and delivered its ResizeObserver entries (the app commits what they measure
 * at once), so what is read next, the source page's `data-rendered` included, is about the new sizes. Two animation
 * frames: a frame delivers its resize observations after its animation-frame callbacks.
 */
export async function laidOut(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

/** page.setViewportSize, then waits until the window has the new size and it is laid out (see laidOut). */
export async function resizedTo(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await poll(() => page.evaluate(() => [window.innerWidth, window.innerHeight])).toEqual([size.width, size.height]);
  await laidOut(page);
}

/**
 * The deadline for a spec's setup in beforeAll (a renderer build, an engine host, its documents analysed with the
 * simulator, Chromium started): on a loaded machine triage's took 30 s of the 60 s vitest gives a hook by default.
 */
export const SETUP_DEADLINE_MS = 180_000;
