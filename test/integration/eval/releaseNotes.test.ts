/**
 * A release note dense with issue IDs (issue 25), generated as a real PDF (test/fixtures/releaseNotes.ts), analysed
 * by the whole pipeline against the simulator answering from its truth: every issue is found once whether the model
 * writes long replies that overflow the reply room (verbose-replies) or ends its lists after 20 items
 * (stops-after-n). Cut replies are used, never thrown away: no call is retried for a cut reply.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../../electron/engine/jobs/settings';
import { listMergedFindings } from '../../../electron/engine/merge';
import { openDatabase } from '../../../electron/engine/store';
import { scoreStrict } from '../../eval/strictScore';
import { truthResponder, type ModelMode } from '../../eval/truthResponder';
import { releaseNotes } from '../../fixtures/releaseNotes';
import { startOllamaSim } from '../../ollama-sim/index';

const notes = releaseNotes();
const dir = mkdtempSync(join(tmpdir(), 'release-notes-'));
const file = join(dir, `${notes.name}.pdf`);
beforeAll(async () => writeFileSync(file, await notes.pdf()));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function analyse(modes: ModelMode[]) {
  const sim = await startOllamaSim({ timeScale: 0, responder: truthResponder([notes.truth], { modes }) });
  const db = openDatabase(join(dir, `${modes.join('+') || 'faithful'}.sqlite`));
  try {
    const outcome = await createEngine({ db, appVersion: 'test' }).analyze([file], { llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: sim.url, cache: false } });
    const documentId = outcome.inputs[0]!.documentId!;
    const calls = db.prepare("SELECT outcome, done_reason AS doneReason, error_code AS errorCode, chunk_ref AS ref FROM llm_calls WHERE purpose = 'extract'").all() as {
      outcome: string;
      doneReason: string | null;
      errorCode: string | null;
      ref: string;
    }[];
    return { status: outcome.inputs[0]!.status, score: scoreStrict(notes.truth.findings, listMergedFindings(db, outcome.run.id, documentId)), calls };
  } finally {
    db.close();
    await sim.close();
  }
}

describe('a release note with hundreds of issue IDs in tables and lists', () => {
  it('is generated with hundreds of IDs, dozens a page', () => {
    expect(notes.truth.findings.length).toBe(360);
    expect(new Set(notes.truth.findings.map((f) => f.page)).size).toBeLessThan(12);
  });

  it('long replies that overflow the reply room: every issue found once, each cut reply used and continued', async () => {
    const { status, score, calls } = await analyse(['verbose-replies']);
    expect(status).toBe('done');
    expect(score).toMatchObject({ truth: 360, found: 360, duplicates: 0, wrongMerges: 0, extra: 0 });
    const cut = calls.filter((c) => c.doneReason === 'length');
    expect(cut.length).toBeGreaterThan(3);
    expect(cut.every((c) => c.outcome === 'ok')).toBe(true);
    // Nothing regenerated: no call retried or failed for a cut reply.
    expect(calls.filter((c) => c.errorCode === 'LLM_REPLY_CUT')).toEqual([]);
  }, 300_000);

  it('a model that ends its lists after 20 items: every issue found once, the rest asked for again', async () => {
    const { status, score, calls } = await analyse(['stops-after-n']);
    expect(status).toBe('done');
    expect(score).toMatchObject({ truth: 360, found: 360, duplicates: 0, wrongMerges: 0, extra: 0 });
    // Continuations after a long list (ref "#n+k") or follow-ups naming the skipped IDs (ref "#n?k") were needed.
    expect(calls.filter((c) => /[+?]\d+$/.test(c.ref)).length).toBeGreaterThan(5);
  }, 300_000);

  it('both at once', async () => {
    const { score } = await analyse(['verbose-replies', 'stops-after-n']);
    expect(score.problems).toEqual([]);
    expect(score).toMatchObject({ truth: 360, found: 360, duplicates: 0, wrongMerges: 0, extra: 0 });
  }, 300_000);
});
