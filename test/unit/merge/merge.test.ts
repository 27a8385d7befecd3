import { describe, expect, it } from 'vitest';
import type { Grounding, StoredFinding } from '../../../shared/findings';
import { compareFindings, mergeFindings, textSimilarity, unreviewedMentions } from '../../../electron/engine/merge';

let nextId = 1;
const ungrounded: Grounding = { status: 'ungrounded', match: null, score: null, start: null, end: null, page: null, inContextOnly: false };
function f(p: Partial<StoredFinding> & { title: string }): StoredFinding {
  return {
    findingId: nextId++, runId: 1, documentId: 1, treeId: 1, nodeIndex: 1, ordinal: 0,
    id: null, findingKey: null, printedNumber: null, type: 'defect', severity: 'Medium', severityCanonical: 'Medium', severityRank: 2,
    description: '', evidence: '', page: 1, grounding: ungrounded, ...p,
  };
}
const at = (start: number, end: number, page: number, inContextOnly = false): Grounding => ({ status: 'grounded', match: 'exact', score: 1, start, end, page, inContextOnly });

describe('similarity measure', () => {
  it('keeps findings with similar titles but different objects distinct', () => {
    const a = { title: 'Missing rate limiting on login', description: 'The login endpoint accepts unlimited password attempts from one address.' };
    const b = { title: 'Missing rate limiting on password reset', description: 'The password reset endpoint sends unlimited reset emails for one account.' };
    expect(textSimilarity(a.title, b.title)).toBeCloseTo(0.667, 2);
    expect(compareFindings(a, b).same).toBe(false);
  });

  it('joins a summary-table title with its longer detailed heading and reworded titles', () => {
    expect(compareFindings({ title: 'Insufficient logging', description: '' }, { title: 'Insufficient logging of administrative actions', description: 'long text' })).toMatchObject({ same: true, rule: 'title-subset' });
    expect(compareFindings({ title: 'Login rate limiting missing', description: '' }, { title: 'Missing rate limiting on login', description: 'x' })).toMatchObject({ same: true });
    expect(compareFindings({ title: 'SQL Injection in export', description: '' }, { title: 'SQL injection in export.', description: '' })).toMatchObject({ same: true, rule: 'title', score: 1 });
  });
});

describe('mergeFindings', () => {
  it('dedupes by normalised ID, keeps every source, the highest severity and the detailed section as main page', () => {
    const row = f({ id: 'pbi-12', findingKey: 'PBI-12', title: 'Weak TLS', severity: 'Low', severityRank: 3, evidence: 'PBI-12 | Weak TLS | Low', grounding: at(10, 30, 1), nodeIndex: 1 });
    const detail = f({ id: 'PBI\u201312', findingKey: 'PBI-12', title: 'Weak TLS configuration on the gateway', severity: 'Major', severityCanonical: 'High', severityRank: 1, description: 'The gateway accepts TLS 1.0 and export ciphers.', evidence: 'The gateway accepts TLS 1.0.', grounding: at(500, 530, 4), nodeIndex: 3 });
    const { merged, decisions } = mergeFindings([row, detail]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ findingKey: 'PBI-12', mainPage: 4, severity: 'Major', severityRank: 1, title: 'Weak TLS configuration on the gateway', grounded: true, mainFindingId: detail.findingId, absorbedFindingIds: [row.findingId] });
    expect(merged[0]!.sources.map((s) => s.page)).toEqual([1, 4]);
    expect(decisions).toEqual([{ mergedIndex: 0, keptFindingId: row.findingId, absorbedFindingId: detail.findingId, reason: 'same-id', score: 1 }]);
  });

  it('never merges different IDs, even with identical titles or overlapping evidence', () => {
    const a = f({ findingKey: 'CR-1', title: 'Same title', grounding: at(0, 50, 1), nodeIndex: 1 });
    const b = f({ findingKey: 'CR-2', title: 'Same title', grounding: at(0, 50, 1), nodeIndex: 2 });
    expect(mergeFindings([a, b]).merged).toHaveLength(2);
  });

  it('merges a boundary duplicate (same evidence seen from the next chunk context)', () => {
    const a = f({ title: 'Unpatched database server', grounding: at(100, 180, 2), nodeIndex: 2 });
    const b = f({ title: 'Database server lacks patches', grounding: at(100, 180, 2, true), nodeIndex: 3 });
    const r = mergeFindings([a, b]);
    expect(r.merged).toHaveLength(1);
    expect(r.merged[0]!.mainFindingId).toBe(a.findingId);
    expect(r.decisions[0]).toMatchObject({ reason: 'boundary-overlap', score: 1 });
  });

  it('an ungrounded-only finding stays unverified', () => {
    const r = mergeFindings([f({ title: 'Invented' })]);
    expect(r.merged[0]!.grounded).toBe(false);
  });
});

describe('unreviewedMentions', () => {
  it('lists IDs no merged finding covers, with sorted unique pages, in order of first mention', () => {
    const m = (normalized: string, start: number, page: number) => ({ patternName: 'x', raw: normalized, normalized, start, end: start + 5, page });
    const mentions = [m('CR-9', 50, 3), m('PBI-1', 10, 1), m('CR-9', 5, 4), m('CR-9', 70, 3), m('CR-3', 90, 5)];
    expect(unreviewedMentions(mentions, [{ findingKey: 'PBI-1' }, { findingKey: null }])).toEqual([
      { id: 'CR-9', pages: [3, 4] },
      { id: 'CR-3', pages: [5] },
    ]);
  });
});
