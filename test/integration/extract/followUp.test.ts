/**
 * What a reply skipped is asked for again (extract/followUp.ts): once a document's units are analysed, the IDs the
 * rules found that no finding covers are named in focused calls showing their lines; what the model reports there
 * is kept, grounded. An ID that a finding covers is never asked for, wherever that finding was reported.
 */
import { describe, expect, it } from 'vitest';
import type { ChunkNode, IdMention } from '../../../shared/types';
import { askForUncoveredMentions, excerptsAround, extractUnit, uncoveredMentions, type FollowUpBatch } from '../../../electron/engine/extract';
import { findIdMentions } from '../../../electron/engine/rules';
import { DEFAULT_PROFILE } from '../../../shared/findings';
import { DEFAULT_ID_PATTERNS } from '../../../shared/idPatterns';
import { documentFromPages } from '../../helpers/documents';
import { promptBlocks } from '../../fixtures/plantedFindings';
import { harness } from '../llm/helpers';

const MODEL = 'qwen3:8b';
const rows = Array.from({ length: 30 }, (_, i) => `PBI-${500 + i} Export of batch ${i} fails at month end`);
const doc = documentFromPages([`Resolved issues\n${rows.join('\n')}\nEnd of the list.`], 'issues.txt');
const unit: ChunkNode = {
  index: 1,
  parentIndex: 0,
  title: 'page 1',
  section: { level: 1, path: [] },
  start: 0,
  end: doc.text.length,
  pageStart: 1,
  pageEnd: 1,
  tokenEstimate: 0,
  origin: 'page',
  isLeaf: true,
  overlapBefore: 0,
};
const mentions: IdMention[] = findIdMentions(doc.text, doc.pages, DEFAULT_ID_PATTERNS);
const finding = (row: string) => ({
  id: row.split(' ')[0]!,
  type: 'defect',
  title: row.slice(row.indexOf(' ') + 1),
  severity: 'Medium',
  description: 'Export fails.',
  evidence: row,
  page: 1,
});

describe('IDs no finding covers are asked for again', () => {
  it('a model that lists only the first 6 rows: the other 24 IDs are named in three follow-ups and found, grounded', async () => {
    const asked: string[] = [];
    const h = await harness({
      responder: (req) => {
        const { chunk, user } = promptBlocks(req);
        const shown = rows.filter((r) => (chunk ?? '').includes(r));
        // Asked for named IDs, it lists them: a focused list is short.
        if (user.includes('These IDs are printed')) {
          asked.push(user);
          return JSON.stringify({ findings: shown.map(finding), summary: 'Resolved issues.' });
        }
        // Six at most per reply, ended normally: too short a list to say the model stopped early, so the text after it
        // is not asked again; only the follow-ups find the rest.
        return JSON.stringify({ findings: shown.slice(0, 6).map(finding), summary: 'Resolved issues.' });
      },
    });
    try {
      const r = await extractUnit({ llm: h.client }, { doc, chunk: unit, mentions, model: MODEL, numCtx: 8192, cache: false });
      expect(r.findings).toHaveLength(6);
      expect(r.listEndedAt).toBeUndefined();
      expect(asked).toHaveLength(0);
      const uncovered = uncoveredMentions(mentions, r.findings);
      expect(uncovered.map((m) => m.normalized)).toEqual(rows.slice(6).map((row) => row.split(' ')[0]));
      const batches: FollowUpBatch[] = [];
      await askForUncoveredMentions(
        h.client,
        { doc, profile: DEFAULT_PROFILE, mentions: uncovered, allMentions: mentions, model: MODEL, numCtx: 8192, cache: false },
        (b) => batches.push(b),
      );
      const all = [...r.findings, ...batches.flatMap((b) => b.findings)];
      expect(new Set(all.map((f) => f.findingKey))).toEqual(new Set(rows.map((row) => row.split(' ')[0])));
      expect(all.every((f) => f.grounding.status === 'grounded')).toBe(true);
      // 24 skipped IDs, at most 10 named per call: three follow-ups, the first naming PBI-506 to PBI-515.
      expect(asked).toHaveLength(3);
      expect(asked[0]).toContain('PBI-506, PBI-507');
      expect(asked[0]).not.toContain('PBI-505,');
      expect(batches.map((b) => b.ids.length)).toEqual([10, 10, 4]);
      expect(new Set(batches.map((b) => b.callId)).size).toBe(3);
    } finally {
      await h.close();
    }
  });

  it('a model that ends its list after 12 rows with many IDs left after it: the rest is asked again, and the length it stops at is reported', async () => {
    const calls: string[] = [];
    const h = await harness({
      responder: (req) => {
        const { chunk } = promptBlocks(req);
        calls.push(chunk ?? '');
        const shown = rows.filter((r) => (chunk ?? '').includes(r));
        return JSON.stringify({ findings: shown.slice(0, 12).map(finding), summary: 'Resolved issues.' });
      },
    });
    try {
      const r = await extractUnit({ llm: h.client }, { doc, chunk: unit, mentions, model: MODEL, numCtx: 8192, cache: false });
      // The unit, then its rest after the last row listed; after 24 rows only 6 IDs are left, too few to say the list
      // was ended early: they are left to the document's follow-ups (above).
      expect(calls).toHaveLength(2);
      expect(calls[1]).not.toContain(rows[11]);
      expect(calls[1]).toContain(rows[12]);
      expect(r.findings.map((f) => f.findingKey)).toEqual(rows.slice(0, 24).map((row) => row.split(' ')[0]));
      expect(r.listEndedAt).toBe(12);
    } finally {
      await h.close();
    }
  });

  it('an ID covered by a finding reported anywhere in the document is not asked for', () => {
    const covered = rows.slice(0, 29).map((row) => ({ findingKey: row.split(' ')[0]! }));
    expect(uncoveredMentions(mentions, covered).map((m) => m.normalized)).toEqual(['PBI-529']);
    expect(uncoveredMentions(mentions, [...covered, { findingKey: 'PBI-529' }])).toEqual([]);
  });

  it('shows each ID with the lines around it: a running-text entry prints its title on the line above its ID', () => {
    const prose = documentFromPages([
      [
        'Release 7.4 fixes these issues.',
        'Login page drops records after a restart',
        'Reported as PBI-10014 (priority Medium) and fixed in this release.',
        'Search index times out under load',
        'Reported as PBI-10015 (priority Low) and fixed in this release.',
      ].join('\n'),
    ]);
    const found = findIdMentions(prose.text, prose.pages, DEFAULT_ID_PATTERNS);
    const [excerpt] = excerptsAround(
      prose,
      found.filter((m) => m.normalized === 'PBI-10014'),
    );
    const shown = prose.text.slice(excerpt!.start, excerpt!.end);
    expect(shown).toContain('Login page drops records after a restart\nReported as PBI-10014');
    // Two IDs on neighbouring lines: one excerpt, no gap marker between lines that follow each other.
    expect(excerptsAround(prose, found)).toHaveLength(1);
  });

  it('extraction alone makes no follow-up call', async () => {
    const h = await harness({ responder: () => JSON.stringify({ findings: [finding(rows[0]!)], summary: 'Resolved issues.' }) });
    try {
      const r = await extractUnit({ llm: h.client }, { doc, chunk: unit, mentions, model: MODEL, numCtx: 8192, cache: false });
      expect(r.calls).toBe(1);
      expect(h.sim.requests).toHaveLength(1);
    } finally {
      await h.close();
    }
  });
});
