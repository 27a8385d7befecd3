/**
 * A vitest reporter (next to the default one) that ends `npm test` with
 * every skipped test and why, grouped by reason. Skips come from
 * requirements.ts with a note; a skip without a note (which that helper never
 * makes) is listed as silent, so it cannot go unnoticed.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SkipSummary implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const byReason = new Map<string, string[]>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== 'skipped') continue;
        const reason = result.note ?? 'SILENT SKIP: no reason given (use describeNeeding/itNeeding from test/helpers/requirements.ts)';
        const where = `${module.relativeModuleId} > ${test.fullName}`;
        byReason.set(reason, [...(byReason.get(reason) ?? []), where]);
      }
    }
    if (byReason.size === 0) {
      console.log('\nSkipped: none.');
      return;
    }
    const total = [...byReason.values()].reduce((sum, tests) => sum + tests.length, 0);
    console.log(`\nSkipped: ${total} (each line: why, and how to run them)`);
    for (const [reason, tests] of byReason) {
      console.log(`  - ${reason}`);
      for (const test of tests) console.log(`      ${test}`);
    }
  }
}
