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
import { expect } from 'vitest';

/**
 * The deadline for a state to be painted, for polls and for Playwright waits alike: far above what a loaded
 * machine needs (a few seconds), far below a test's own timeout (vitest.config.ts: 60 s).
 */
export const UI_DEADLINE_MS = 30_000;

/** expect.poll with the UI deadline (vitest's default deadline, 1 s, is too short on a loaded machine). */
export const poll: typeof expect.poll = (read, options) => expect.poll(read, { timeout: UI_DEADLINE_MS, ...options });
