/** Where the tests' Chromium is (kept apart from requirements.ts so benches can use it without vitest). */
import { existsSync } from 'node:fs';
import { findChromium } from '../../electron/engine/report';

/**
 * The Chromium the tests drive (UI specs, HTML and PDF report exports).
 * CHROMIUM_PATH, when set, is the only one tried; otherwise the app's own
 * lookup (findChromium: the usual install places), so tests and the PDF
 * export agree on which browser there is.
 */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): { path: string } | { missing: string } {
  const how = 'install Chromium (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium or Chrome executable';
  if (env.CHROMIUM_PATH)
    return existsSync(env.CHROMIUM_PATH) ? { path: env.CHROMIUM_PATH } : { missing: `no Chromium at CHROMIUM_PATH=${env.CHROMIUM_PATH}: ${how}` };
  try {
    return { path: findChromium(undefined, env) };
  } catch {
    return { missing: `no Chromium or Chrome found: ${how}` };
  }
}
