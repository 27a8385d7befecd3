/**
 * The one rule for tests that need more than Node (test/helpers/requirements.ts):
 * the Chromium lookup, and that no test file skips on its own (a skip
 * without the helper would carry no reason, i.e. be silent).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../../helpers/chromium';
import { demanded, firstMissing, type Requirement } from '../../helpers/requirements';

const root = resolve(import.meta.dirname, '../../..');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return /\.(test|spec)\.ts$/.test(name) ? [path] : [];
  });
}

describe('finding Chromium for the tests', () => {
  it('uses only CHROMIUM_PATH when it is set, and says how to fix a wrong one', () => {
    expect(chromiumPath({ CHROMIUM_PATH: process.execPath })).toEqual({ path: process.execPath });
    const missing = chromiumPath({ CHROMIUM_PATH: '/nowhere/chromium' });
    expect(missing).toEqual({ missing: expect.stringContaining('CHROMIUM_PATH=/nowhere/chromium') });
    expect((missing as { missing: string }).missing).toMatch(/apt-get install chromium.*CHROMIUM_PATH/);
  });

  it('otherwise takes what the app finds, or says what to install', () => {
    const found = chromiumPath({});
    if ('path' in found) expect(statSync(found.path).isFile()).toBe(true);
    else expect(found.missing).toMatch(/^no Chromium or Chrome found: install Chromium .* or set CHROMIUM_PATH/);
  });
});

describe('requirements', () => {
  const there: Requirement = { name: 'there', missing: () => null };
  const gone: Requirement = { name: 'gone', missing: () => 'gone is missing: install it' };

  it('names the first missing requirement with its reason', () => {
    expect(firstMissing([there])).toBeNull();
    expect(firstMissing([there, gone])).toEqual({ requirement: gone, reason: 'gone is missing: install it' });
  });

  it('reads which requirements must not be skipped from TESTS_REQUIRE', () => {
    expect([...demanded({ TESTS_REQUIRE: 'chromium, build,,qpdf' })]).toEqual(['chromium', 'build', 'qpdf']);
    expect(demanded({}).size).toBe(0);
  });

  it('no test file skips by itself: every skip goes through describeNeeding / itNeeding with its reason', () => {
    const offenders = testFiles(join(root, 'test')).filter((file) =>
      /\b(describe|it|test)\s*\.\s*(skip|skipIf|runIf|todo)\b|\.skip\(\s*\)/.test(readFileSync(file, 'utf8')),
    );
    expect(offenders.map((file) => relative(root, file))).toEqual([]);
  });
});
