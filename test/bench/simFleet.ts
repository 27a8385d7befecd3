/**
 * Simulated inference servers in a process of their own, for the pool bench: a real server runs on its own machine,
 * so the stand-ins' CPU (tokenising, answering from the truth files, framing each token) must not be counted as the
 * client's, nor take its thread. On the bench's 2-core machine the client gets one core and this process the other.
 *
 *   tsx test/bench/simFleet.ts '{"ollama": 3, "openai": [{"slots": 3, "contextLength": 32768}], "timeScale": 0.1}'
 *
 * Prints one JSON line: { ollama: [url...], openai: [baseUrl...] }. Then answers lines on stdin:
 *   counters        -> one JSON line: { chatRequests, simulatedSeconds } summed over every server
 *   reset           -> counters back to 0
 *   die <i> <n>     -> Ollama server i closes itself (every connection) at the n-th chat request from now
 *   quit
 * Every server answers from the corpus truth files as the model-time bench does (modelTimeBench realisticResponder).
 */
import { createInterface } from 'node:readline';
import { loadCorpusTruth } from '../eval/truthResponder';
import { startOllamaSim, type OllamaSim } from '../ollama-sim/index';
import { startOpenAiSim, type OpenAiSim } from '../ollama-sim/openai';
import { RATES, realisticResponder } from './modelTimeBench';
import { CORPUS } from './treesplitCorpusBench';

interface FleetConfig {
  ollama: number;
  /** One OpenAI-compatible server per entry, with its slots (requests it runs at once). */
  openai?: { slots: number; contextLength: number }[];
  timeScale: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as FleetConfig;
const responder = realisticResponder(loadCorpusTruth(CORPUS));
const ollama: OllamaSim[] = [];
for (let i = 0; i < config.ollama; i++) ollama.push(await startOllamaSim({ rates: RATES, timeScale: config.timeScale, responder }));
const openai: OpenAiSim[] = [];
for (const { slots, contextLength } of config.openai ?? [])
  openai.push(await startOpenAiSim({ rates: RATES, timeScale: config.timeScale, responder, slots, contextLength }));
const servers: Array<OllamaSim | OpenAiSim> = [...ollama, ...openai];
process.stdout.write(`${JSON.stringify({ ollama: ollama.map((s) => s.url), openai: openai.map((s) => s.baseUrl) })}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const [command, ...args] = line.trim().split(/\s+/);
  if (command === 'counters') {
    const chatRequests = servers.reduce((n, s) => n + s.counters.chatRequests, 0);
    const simulatedSeconds = servers.reduce((n, s) => n + s.counters.simulatedSeconds, 0);
    process.stdout.write(`${JSON.stringify({ chatRequests, simulatedSeconds })}\n`);
  } else if (command === 'reset') {
    for (const s of servers) {
      s.counters.chatRequests = 0;
      s.counters.simulatedSeconds = 0;
    }
    process.stdout.write('{}\n');
  } else if (command === 'die') {
    const sim = ollama[Number(args[0])]!;
    const after = Number(args[1]);
    let calls = 0;
    sim.setResponder(async (req) => {
      if (++calls === after) await sim.close();
      return responder(req);
    });
    process.stdout.write('{}\n');
  } else if (command === 'quit') break;
}
for (const s of servers) await s.close().catch(() => undefined);
process.exit(0);
