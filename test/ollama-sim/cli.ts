/**
 * Standalone Ollama simulator, to try the app without a GPU:
 *   npx tsx test/ollama-sim/cli.ts --port 11434 [--scenario demo|slow|flaky] [--version 0.12.11]
 * Replies are minimal instances of the request's JSON-schema `format` (schema-shaped, not plausible).
 */
import { schemaResponder, startOllamaSim, type SimOptions } from './index';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}

const scenario = arg('scenario') ?? 'demo';
const opts: SimOptions = {
  port: Number(arg('port') ?? 11434),
  version: arg('version') ?? '0.12.11',
  responder: schemaResponder,
};
switch (scenario) {
  case 'demo':
    // real time, 10x faster than a laptop GPU
    opts.timeScale = 0.1;
    opts.rates = { prefillTokensPerSec: 800, decodeTokensPerSec: 30, loadSeconds: 4 };
    break;
  case 'slow':
    opts.timeScale = 1;
    opts.rates = { prefillTokensPerSec: 300, decodeTokensPerSec: 8, loadSeconds: 20 };
    break;
  case 'flaky':
    opts.timeScale = 0.1;
    opts.seed = 1;
    opts.faults = [
      { fault: { kind: 'dropMidStream', afterFrames: 2 }, probability: 0.1 },
      { fault: { kind: 'busy' }, probability: 0.05 },
      { fault: { kind: 'codeFences' }, probability: 0.1 },
    ];
    break;
  case 'instant':
    opts.timeScale = 0;
    break;
  default:
    console.error(`unknown scenario ${scenario} (demo, slow, flaky, instant)`);
    process.exit(2);
}

const sim = await startOllamaSim(opts);
console.log(`Ollama simulator (${scenario}, version ${opts.version}) listening on ${sim.url}`);
const stop = () => {
  console.log(`\ncounters: ${JSON.stringify(sim.counters)}`);
  void sim.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
