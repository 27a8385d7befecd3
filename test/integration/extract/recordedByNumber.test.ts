/**
 * A finding the document's own lists name costs the model one number (issue 25): over real HTTP to the simulator,
 * a reply that gives recorded line numbers gets those findings read from their detailed sections by the rules; a
 * section the model did not name stays known from its row only, as a listed entry the completeness check names.
 */
import { describe, expect, it } from 'vitest';
import type { ChunkNode } from '../../../shared/types';
import { DEFAULT_PROFILE, LISTED_ENTRY_TYPE, RECORDED_FINDING_TYPE } from '../../../shared/findings';
import { DEFAULT_ID_PATTERNS } from '../../../shared/idPatterns';
import { findListings, textLines, listsToRead, recordedList } from '../../../electron/engine/printed';
import { extractUnit } from '../../../electron/engine/extract';
import { documentFromPages } from '../../helpers/documents';
import { harness } from '../llm/helpers';
import { promptBlocks } from '../../fixtures/plantedFindings';

const MODEL = 'qwen3:8b';

const doc = documentFromPages([
  [
    'Summary of Findings',
    'ID | Title | Severity',
    'ACM-01 | Oracle price is read without a staleness check | High',
    'ACM-02 | Unused constants can be removed | Informational',
    'ACM-03 | Unused errors can be removed | Informational',
  ].join('\n'),
  [
    'ACM-01: Oracle price is read without a staleness check',
    'Severity: High',
    'The price feed is used without checking its update time, so a stale price can be used for liquidations.',
    'A further problem: withdrawals are not paused when the oracle is down, so users can exit at a stale price.',
    'ACM-02: Unused constants can be removed',
    'The vault declares constants that no function of the system ever reads or exports.',
    'ACM-03: Unused errors can be removed',
    'The router declares custom errors that no code path reverts with, which misleads readers.',
  ].join('\n'),
]);
const chunk: ChunkNode = {
  index: 1,
  parentIndex: 0,
  title: 'all',
  section: { level: 1, path: [] },
  start: 0,
  end: doc.text.length,
  pageStart: 1,
  pageEnd: 2,
  tokenEstimate: 0,
  origin: 'page',
  isLeaf: true,
  overlapBefore: 0,
};
const listings = listsToRead(doc.text, findListings(textLines(doc), doc.text, DEFAULT_PROFILE, DEFAULT_ID_PATTERNS));
const recorded = recordedList(listings);

const unlisted = {
  id: null,
  type: 'risk',
  title: 'Withdrawals not paused when the oracle is down',
  severity: 'Medium',
  evidence: 'withdrawals are not paused when the oracle is down',
  page: 2,
};

describe('recorded findings given by number', () => {
  it('the prompt numbers the recorded lines; the numbers given come back as findings read from their sections, the one not given stays its row', async () => {
    let recordedSeen: string | undefined;
    const h = await harness({
      responder: (req) => {
        recordedSeen = promptBlocks(req).recorded;
        // The model names sections 1 and 3 (it skipped 2) and writes the one finding the list does not name.
        return JSON.stringify({ recorded: [1, 3], findings: [unlisted], summary: 'Oracle and code-quality findings.' });
      },
    });
    try {
      const r = await extractUnit({ llm: h.client }, { doc, chunk, model: MODEL, numCtx: 8192, cache: false, listings, recorded });
      expect(recordedSeen).toContain('[2] ACM-02 Unused constants can be removed');
      const byType = (type: string) => r.findings.filter((f) => f.type === type).map((f) => f.findingKey ?? f.title);
      expect(byType(RECORDED_FINDING_TYPE)).toEqual(['ACM-01', 'ACM-03']);
      const oracle = r.findings.find((f) => f.type === RECORDED_FINDING_TYPE && f.findingKey === 'ACM-01')!;
      expect(oracle).toMatchObject({ page: 2, severity: 'High', evidence: 'ACM-01: Oracle price is read without a staleness check' });
      expect(oracle.description).toMatch(/^The price feed is used without checking its update time/);
      // Every row is still the rules' own finding; ACM-02's is all there is of it (the completeness check names it).
      expect(byType(LISTED_ENTRY_TYPE)).toEqual(['ACM-01', 'ACM-02', 'ACM-03']);
      expect(r.findings.find((f) => f.title === unlisted.title)?.grounding.status).toBe('grounded');
    } finally {
      await h.close();
    }
  });

  it('a reply cut at the limit keeps the numbers written whole and continues after the furthest section read', async () => {
    let calls = 0;
    const h = await harness({
      responder: () => {
        calls++;
        // First call: longer than its reply room, so the server cuts it inside the second entry of its findings list.
        if (calls === 1)
          return JSON.stringify({ recorded: [1, 2], findings: [unlisted, unlisted, unlisted], summary: 'Oracle and code-quality findings.' }, null, 2);
        return JSON.stringify({ recorded: [3], findings: [], summary: 'The rest.' });
      },
    });
    try {
      const r = await extractUnit({ llm: h.client }, { doc, chunk, model: MODEL, numCtx: 8192, replyTokens: 80, cache: false, listings, recorded });
      expect(calls).toBe(2);
      expect(h.rows().map((row) => row.done_reason)).toEqual(['length', 'stop']);
      expect(r.findings.filter((f) => f.type === RECORDED_FINDING_TYPE).map((f) => f.findingKey)).toEqual(['ACM-01', 'ACM-02', 'ACM-03']);
      // The continuation was shown the text after ACM-02's heading only.
      const second = h.sim.requests[1]!;
      expect(promptBlocks(second).chunk).not.toContain('ACM-01: Oracle price');
      expect(promptBlocks(second).chunk).toContain('ACM-03: Unused errors can be removed');
    } finally {
      await h.close();
    }
  });
});
