/**
 * The host answers its commands while a run does heavy CPU work (issue 38): the engine runs on the thread that
 * answers the window, and merging hundreds of findings without IDs used to hold it until the merge was done.
 *
 * Ordered by events, not by clock: once the run reports that its merge started, the test sends a command, and
 * each time one is answered it sends the next; the merge's own "merged into" report must come after several answers.
 * A merge that held the thread from its start to its end would let none through in between.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent, RunView } from '../../../shared/contract';
import { createEngineHost, type EngineHost } from '../../../electron/host/engineHost';
import { truthResponder } from '../../eval/truthResponder';
import { releaseNotes } from '../../fixtures/releaseNotes';
import { call } from '../../helpers/host';
import { useTempDir } from '../../helpers/tempDir';
import { startOllamaSim, type OllamaSim, type Responder } from '../../ollama-sim';

const tempDir = useTempDir('audit-host-responsive-');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

let host: EngineHost | undefined;
let sim: OllamaSim | undefined;
afterEach(async () => {
  await host?.close();
  await sim?.close();
  host = undefined;
  sim = undefined;
});

/** A model that writes each finding as its bare title, no ID, no quote: the findings the merge must join by text alone. */
function bareTitles(answer: Responder): Responder {
  return async (req) => {
    const reply = await answer(req);
    if (typeof reply !== 'string' || !reply.startsWith('{')) return reply;
    const parsed = JSON.parse(reply) as { findings?: unknown[] };
    if (!Array.isArray(parsed.findings)) return reply;
    parsed.findings = parsed.findings.map((f) => (typeof f === 'string' ? (f.split('|').pop() ?? f).trim() : (f as { title: string }).title));
    return JSON.stringify(parsed);
  };
}

describe('a host that answers during a run', () => {
  it('answers one command after another while a document of hundreds of findings without IDs is merged', async () => {
    // 360 issues in running text: the model's bare titles give about twice as many findings, none keyed by an ID.
    const notes = releaseNotes({ layout: 'prose' });
    sim = await startOllamaSim({ timeScale: 0, responder: bareTitles(truthResponder([notes.truth], { modes: ['null-ids', 'summary-and-detail'] })) });
    host = createEngineHost({ dataDir: tempDir(), appVersion: 't', progressIntervalMs: 0 });
    await call(host, 'settings.update', { ollamaHost: sim.url, strategy: 'pages', useJudge: false });

    const order: string[] = [];
    let merging = false;
    let answeredDuringMerge = 0;
    // The next command arrives as a message does (a task of its own, after those waiting), once the last is answered.
    const ask = () => {
      void call(host!, 'app.info').then(() => {
        if (!merging) return;
        answeredDuringMerge++;
        order.push('answer');
        setImmediate(ask);
      });
    };
    host.onEvent((event: HostEvent) => {
      if (event.type !== 'run.progress' || event.data.event.phase !== 'merge') return;
      const message = event.data.event.message;
      if (message.endsWith('merging duplicate findings') && !merging) {
        merging = true;
        order.push('merge started');
        ask();
      } else if (/reported findings merged into/.test(message) && merging) {
        merging = false;
        order.push('merge done');
      }
    });

    await call(host, 'documents.import', { files: [{ name: 'release-notes.pdf', bytes: b64(await notes.pdf()) }] });
    await host.idle();
    const [run] = await call<RunView[]>(host, 'runs.list');
    expect([run!.status, run!.inputs[0]!.status]).toEqual(['done', 'done']);

    // The merge was real work on hundreds of findings: the run merged them into fewer.
    const merged = await call<unknown[]>(host, 'findings.list', { documentId: run!.inputs[0]!.documentId });
    expect(merged.length).toBeGreaterThanOrEqual(notes.truth.findings.length);
    expect(order[0]).toBe('merge started');
    expect(order.at(-1)).toBe('merge done');
    expect(answeredDuringMerge).toBeGreaterThanOrEqual(3);
  });
});
