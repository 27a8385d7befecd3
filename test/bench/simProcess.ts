/**
 * The Ollama simulator in its own process for benchmarks, so the client's
 * measured CPU time is the client's alone. Prints its URL as the first line;
 * answers a line "counters" on stdin with a JSON line of its counters.
 *   tsx test/bench/simProcess.ts '<reply json>'
 */
import { createInterface } from 'node:readline';
import { startOllamaSim } from '../ollama-sim/index';

const reply = process.argv[2] ?? '{}';
const sim = await startOllamaSim({
  timeScale: 0,
  rates: { prefillTokensPerSec: 1500, decodeTokensPerSec: 40, loadSeconds: 5 },
  responder: () => reply,
});
process.stdout.write(`${sim.url}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'counters') process.stdout.write(`${JSON.stringify(sim.counters)}\n`);
  if (line.trim() === 'reset') sim.resetCounters();
  if (line.trim() === 'quit') break;
}
await sim.close();
process.exit(0);
