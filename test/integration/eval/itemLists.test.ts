/**
 * A changelog whose 208 entries carry no issue ID (test/fixtures/changelog.ts), through the whole pipeline against
 * the simulator answering from its truth. A model that skips entries in its long replies: the entries it skipped are
 * asked for again (the items of a list most of whose items it reported), and what it still leaves out is named by the
 * completeness check, each with its page. A model that skips in its lists but answers when asked loses nothing; a
 * faithful one that ends its lists after 20 raises no place.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine';
import { getCompleteness } from '../../../electron/engine/completeness';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../../electron/engine/pipeline/settings';
import { listMergedFindings } from '../../../electron/engine/merge';
import { openDatabase } from '../../../electron/engine/store';
import { scoreCompleteness } from '../../eval/completenessScore';
import { scoreStrict } from '../../eval/strictScore';
import { skippedFindings, truthResponder, type ModelMode } from '../../eval/truthResponder';
import { promptBlocks } from '../../fixtures/plantedFindings';
import { changelog } from '../../fixtures/changelog';
import { startOllamaSim, type Responder } from '../../ollama-sim/index';

const notes = changelog();
const dir = mkdtempSync(join(tmpdir(), 'item-lists-'));
const file = join(dir, 'changelog.pdf');
beforeAll(async () => writeFileSync(file, await notes.pdf()));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A follow-up call for list items the reply skipped (extract/prompts.ts buildFollowUpMessages). */
const asksForItems = (req: Parameters<Responder>[0]) => /items? of a list whose other items you reported as findings/.test(promptBlocks(req).user);

async function analyse(label: string, responder: Responder) {
  const sim = await startOllamaSim({ timeScale: 0, responder });
  const db = openDatabase(join(dir, `${label}.sqlite`));
  try {
    const outcome = await createEngine({ db, appVersion: 'test' }).analyze([file], { llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: sim.url, cache: false } });
    const documentId = outcome.inputs[0]!.documentId!;
    const merged = listMergedFindings(db, outcome.run.id, documentId);
    const verdict = getCompleteness(db, outcome.run.id, documentId)!;
    const itemRequests = sim.requests.filter(asksForItems).length;
    return {
      status: outcome.inputs[0]!.status,
      score: scoreStrict(notes.truth.findings, merged),
      completeness: scoreCompleteness(notes.truth, merged, verdict),
      verdict,
      itemRequests,
    };
  } finally {
    db.close();
    await sim.close();
  }
}

describe('a changelog whose entries carry no ID', () => {
  it('a model that skips entries: each skipped entry is asked for again, and named with its page when still missing', async () => {
    const skipped = skippedFindings(notes.truth);
    expect(skipped.length).toBeGreaterThan(20);
    const { status, score, completeness, verdict, itemRequests } = await analyse(
      'skips',
      truthResponder([notes.truth], { modes: ['skips-findings', 'verbose-replies'] }),
    );
    expect(status).toBe('done');
    expect(score).toMatchObject({ found: notes.truth.findings.length - skipped.length, duplicates: 0, wrongMerges: 0, extra: 0 });
    expect(itemRequests).toBeGreaterThan(0);
    expect(completeness).toMatchObject({ missed: skipped.length, missedNamed: skipped.length, falsePlaces: 0 });
    expect(verdict.status).toBe('check');
    const place = verdict.places.find((p) => p.message.includes(skipped[0]!.title))!;
    expect(place).toMatchObject({ kind: 'item-without-finding', page: skipped[0]!.page });
    // An entry wrapped onto a second line (every ninth; the model skips three of them) is named whole.
    expect(skipped.filter((t) => notes.truth.findings.indexOf(t) % 9 === 4)).toHaveLength(3);
    expect(verdict.places.filter((p) => /\), which also affected the \w/.test(p.message))).toHaveLength(3);
  }, 120_000);

  it('a model that skips in its long replies but answers when asked: nothing lost, no place left', async () => {
    const skipping = truthResponder([notes.truth], { modes: ['skips-findings', 'verbose-replies'] });
    const answering = truthResponder([notes.truth], { modes: ['verbose-replies'] });
    const { score, verdict, itemRequests } = await analyse('answers-when-asked', (req) => (asksForItems(req) ? answering(req) : skipping(req)));
    expect(itemRequests).toBeGreaterThan(0);
    expect(score).toMatchObject({ found: notes.truth.findings.length, duplicates: 0, wrongMerges: 0, extra: 0 });
    expect(verdict.places).toEqual([]);
  }, 120_000);

  it('a model that lists every entry, ending its lists after 20: every entry found, nothing asked again, no place', async () => {
    const modes: ModelMode[] = ['verbose-replies', 'stops-after-n'];
    const { score, verdict, itemRequests } = await analyse('stops', truthResponder([notes.truth], { modes, stopAfter: 20 }));
    expect(score).toMatchObject({ found: notes.truth.findings.length, duplicates: 0, wrongMerges: 0, extra: 0 });
    expect(itemRequests).toBe(0);
    expect(verdict.places).toEqual([]);
  }, 120_000);
});
