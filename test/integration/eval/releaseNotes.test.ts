/**
 * A release note dense with issue IDs (issue 25), generated as a real PDF (test/fixtures/releaseNotes.ts), analysed
 * by the whole pipeline against the simulator answering from its truth. Laid out as registers (an issue table, a
 * bulleted list of change requests) its rows are read by the rules and the model writes none of them. Written in
 * running text, only the model can read it: it writes each issue as one line (its ID printed there, the rules quote
 * the text), every issue is found once whether the model writes long replies (verbose-replies) or ends its lists
 * after 20 items (stops-after-n), and no reply is thrown away.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine';
import { DEFAULT_RUN_LLM_SETTINGS } from '../../../electron/engine/pipeline/settings';
import { listMergedFindings } from '../../../electron/engine/merge';
import { openDatabase } from '../../../electron/engine/store';
import { scoreStrict } from '../../eval/strictScore';
import { truthResponder, type ModelMode } from '../../eval/truthResponder';
import { releaseNotes, type ReleaseNotes } from '../../fixtures/releaseNotes';
import { REGISTER_ENTRY_TYPE } from '../../../shared/findings';
import { listFindings } from '../../../electron/engine/extract';
import { getCompleteness } from '../../../electron/engine/completeness';
import { startOllamaSim } from '../../ollama-sim/index';

const registers = releaseNotes();
const notes = releaseNotes({ layout: 'prose' });
// Each issue a line "o PBI-10001: <title>", its bullet drawn by a symbol font as the letter "o": a register too.
const bulleted = releaseNotes({ layout: 'bullets' });
const dir = mkdtempSync(join(tmpdir(), 'release-notes-'));
const fileOf = (n: ReleaseNotes) => join(dir, `${n.name}.pdf`);
beforeAll(async () => {
  for (const n of [registers, notes, bulleted]) writeFileSync(fileOf(n), await n.pdf());
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function analyse(modes: ModelMode[], document: ReleaseNotes = notes, stopAfter?: number) {
  const sim = await startOllamaSim({ timeScale: 0, responder: truthResponder([document.truth], { modes, ...(stopAfter ? { stopAfter } : {}) }) });
  const db = openDatabase(join(dir, `${document.name}-${modes.join('+') || 'faithful'}-${stopAfter ?? 'default'}.sqlite`));
  try {
    const outcome = await createEngine({ db, appVersion: 'test' }).analyze([fileOf(document)], {
      llm: { ...DEFAULT_RUN_LLM_SETTINGS, host: sim.url, cache: false },
    });
    const documentId = outcome.inputs[0]!.documentId!;
    const calls = db
      .prepare("SELECT outcome, done_reason AS doneReason, error_code AS errorCode, chunk_ref AS ref FROM llm_calls WHERE purpose = 'extract'")
      .all() as {
      outcome: string;
      doneReason: string | null;
      errorCode: string | null;
      ref: string;
    }[];
    return {
      status: outcome.inputs[0]!.status,
      score: scoreStrict(document.truth.findings, listMergedFindings(db, outcome.run.id, documentId)),
      calls,
      raw: listFindings(db, outcome.run.id, documentId),
      verdict: getCompleteness(db, outcome.run.id, documentId),
    };
  } finally {
    db.close();
    await sim.close();
  }
}

describe('a release note with hundreds of issue IDs, in registers or in running text', () => {
  it('is generated with hundreds of IDs, dozens a page', () => {
    expect(registers.truth.findings.length).toBe(360);
    expect(new Set(registers.truth.findings.map((f) => f.page)).size).toBeLessThan(12);
    // The same issues written in running text, two lines each.
    const issue = (f: { id: string | null; title: string; severity: string }) => `${f.id} ${f.title} ${f.severity}`;
    expect(notes.truth.findings.map(issue)).toEqual(registers.truth.findings.map(issue));
  });

  it('laid out as an issue table and a list of change requests: every row read by the rules, none written by the model', async () => {
    const { status, score, calls, raw, verdict } = await analyse(['verbose-replies'], registers);
    expect(status).toBe('done');
    expect(score).toMatchObject({ truth: 360, found: 360, duplicates: 0, wrongMerges: 0, extra: 0 });
    const rows = raw.filter((f) => f.type === REGISTER_ENTRY_TYPE);
    expect(rows).toHaveLength(360);
    // Each row with its own title cell and priority, grounded on the row.
    const first = rows.find((f) => f.findingKey === 'PBI-10001')!;
    expect(first).toMatchObject({ title: registers.truth.findings[0]!.title, severity: 'High' });
    expect(first.grounding.status).toBe('grounded');
    // The model only reads the prose around the registers: no reply comes near its room, none is cut.
    expect(calls.filter((c) => c.doneReason === 'length')).toEqual([]);
    expect(raw.filter((f) => f.type !== REGISTER_ENTRY_TYPE)).toEqual([]);
    // A row is all a register says of its issue: counted as found, never named as unanalysed.
    expect(verdict!.places.filter((p) => p.kind === 'entry-without-finding')).toEqual([]);
  }, 300_000);

  it('long replies (pretty-printed, fields at their word limits): every issue found once, no reply thrown away', async () => {
    const { status, score, calls, raw } = await analyse(['verbose-replies']);
    expect(score.problems).toEqual([]);
    expect(status).toBe('done');
    expect(score).toMatchObject({ truth: 360, found: 360, duplicates: 0, wrongMerges: 0, extra: 0 });
    // Units are planned by the reply they need (one line per printed ID, about 45 issues a unit in a 2,048-token
    // reply): no reply cut, no call retried, failed or regenerated. Replies cut at their room are continued
    // (modelModes.test.ts, a model writing every sighting).
    expect(calls.length).toBeGreaterThanOrEqual(Math.ceil(360 / 50));
    expect(calls.filter((c) => c.doneReason === 'length')).toEqual([]);
    expect(calls.filter((c) => c.outcome !== 'ok')).toEqual([]);
    expect(calls.filter((c) => c.errorCode === 'LLM_REPLY_CUT')).toEqual([]);
    // Each issue written as one line "ID | type | severity | title": grounded by the rules on its title and the
    // sentence that prints its ID, verbatim, with that sentence's page.
    expect(raw).toHaveLength(360);
    const issue = raw.find((f) => f.findingKey === 'CR-2001')!;
    const truth = notes.truth.findings.find((f) => f.id === 'CR-2001')!;
    expect(issue).toMatchObject({
      title: truth.title,
      severity: truth.severity,
      page: truth.page,
      grounding: { status: 'grounded', match: 'exact', page: truth.page },
    });
    expect(issue.evidence).toBe(`${truth.title}\nReported as CR-2001 (priority ${truth.severity}) and fixed in this release.`);
    expect(raw.filter((f) => f.grounding.status !== 'grounded')).toEqual([]);
    // Every issue prints its ID: the ID-free upgrade notes and known limitations after the last one are not asked again.
    expect(calls.filter((c) => /\+\d+$/.test(c.ref))).toEqual([]);
  }, 300_000);

  it('lines "o PBI-10001: <title>" (a symbol-font bullet) and a model that answers with bare titles: every line read by the rules with the ID before its title, none written by the model, no ID listed as uncovered', async () => {
    const { status, score, raw, calls, verdict } = await analyse(['invented-ids', 'null-ids', 'summary-and-detail', 'bare-titles'], bulleted);
    expect(status).toBe('done');
    expect(score.problems.slice(0, 5)).toEqual([]);
    expect(score).toMatchObject({ truth: 360, found: 360, duplicates: 0, wrongMerges: 0, extra: 0, idScored: 360, withPrintedId: 360 });
    // Each issue is its own line, read as a register row: quoted from the bullet, keyed by the ID there, titled by the line.
    const issue = raw.find((f) => f.findingKey === 'PBI-10015')!;
    const truth = bulleted.truth.findings.find((f) => f.id === 'PBI-10015')!;
    expect(issue).toMatchObject({ type: REGISTER_ENTRY_TYPE, title: truth.title, grounding: { status: 'grounded', match: 'exact', page: truth.page } });
    expect(issue.evidence).toBe(`o PBI-10015: ${truth.title}`);
    // A line that only names its issue has no sentence: no neighbour's words as its description.
    expect(issue.description).not.toContain('PBI-10016');
    // The model is shown the prose around the lists, not the 360 lines: it writes none of them, in a few calls.
    expect(raw.filter((f) => f.type !== REGISTER_ENTRY_TYPE)).toEqual([]);
    expect(calls.length).toBeLessThan(10);
    // Every printed ID is a finding's: none is "mentioned but no finding covers it".
    expect(verdict!.places.filter((p) => p.kind === 'unreviewed-id')).toEqual([]);
  }, 300_000);

  /** The unit of a call's reference ("1#20+2" is a continuation of the unit "1#20"), and whether it is a continuation. */
  const unitOf = (ref: string) => ref.replace(/\+\d+$/, '');
  const continued = (calls: { ref: string }[]) => calls.filter((c) => /\+\d+$/.test(c.ref));

  it('a model that ends its lists after 10 items (units hold about 45 here): every issue found once; once it shows, the units to come hold 10', async () => {
    const { status, score, calls } = await analyse(['stops-after-n'], notes, 10);
    expect(status).toBe('done');
    expect(score).toMatchObject({ truth: 360, found: 360, duplicates: 0, wrongMerges: 0, extra: 0 });
    // The first unit's list ended with dozens of its IDs left: its rest was asked again until listed ("#n+k"). From
    // then on the units were packed to hold no more than the model lists: none of them needed asking again.
    const first = unitOf(calls[0]!.ref);
    expect(continued(calls).length).toBeGreaterThan(0);
    expect(new Set(continued(calls).map((c) => unitOf(c.ref)))).toEqual(new Set([first]));
    expect(calls.filter((c) => /\?\d+$/.test(c.ref))).toEqual([]);
    expect(calls.length).toBeGreaterThanOrEqual(360 / 10);
  }, 300_000);

  it('long replies and a model that ends its lists after 20: every issue found once, only the first unit asked again', async () => {
    const { score, calls } = await analyse(['verbose-replies', 'stops-after-n']);
    expect(score.problems).toEqual([]);
    expect(score).toMatchObject({ truth: 360, found: 360, duplicates: 0, wrongMerges: 0, extra: 0 });
    expect(new Set(continued(calls).map((c) => unitOf(c.ref)))).toEqual(new Set([unitOf(calls[0]!.ref)]));
  }, 300_000);
});
