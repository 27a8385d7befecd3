/**
 * Preloaded into a measured process (`node --import ./exitFigures.mjs ...`):
 * when it exits, writes its CPU seconds (all threads) and peak RSS as one
 * JSON line to the file named by BENCH_FIGURES_FILE. Lets the benchmark
 * measure the built CLI exactly as `npm run analyze` runs it.
 */
import { writeFileSync } from 'node:fs';

const target = process.env.BENCH_FIGURES_FILE;
if (target) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(target, JSON.stringify({ cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, maxRssMb: usage.maxRSS / 1024 }));
  });
}
