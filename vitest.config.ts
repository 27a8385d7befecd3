import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/e2e/**/*.spec.ts'],
    // Integration tests parse real PDFs and open real SQLite files: give them room on 2 cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // After the usual output: every skipped test with why, and how to run it (test/helpers/requirements.ts).
    reporters: ['default', './test/helpers/skipSummary.ts'],
    maxWorkers: 2,
  },
});
