import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { checkAnswer, isFindAllQuestion, NOT_FOUND_TEXT, partialAnswerText } from '../../../electron/engine/retrieval/answer';
import type { ContextEntry, DocumentSource } from '../../../electron/engine/retrieval/context';
import { ftsExpression, queryTerms, termCoverage } from '../../../electron/engine/retrieval/search';

const TEXT = 'Backups are kept for 35 days.\n\f\nThe CISO reviews the incident log monthly.';
const source: DocumentSource = {
  name: 'policy.txt',
  text: TEXT,
  pages: [
    { pageNumber: 1, start: 0, end: 29, hasTextLayer: true },
    { pageNumber: 2, start: 32, end: TEXT.length, hasTextLayer: true },
  ],
};
const entry = (n: number, start: number, end: number, title: string): ContextEntry => ({
  n,
  documentName: 'policy.txt',
  text: TEXT.slice(start, end),
  hit: true,
  unit: {
    id: n,
    documentId: 7,
    kind: 'chunk',
    treeId: 1,
    nodeIndex: n,
    mergedFindingId: null,
    title,
    path: [title],
    start,
    end,
    pageStart: n,
    pageEnd: n,
    contentHash: 'h',
  },
});
const entries = [entry(1, 0, 29, 'Backups'), entry(2, 32, TEXT.length, 'Incidents')];

describe('answer checks', () => {
  it('keeps a citation whose quote is in its passage, with the page of the quoted words', () => {
    const checked = checkAnswer(
      { answer: 'Monthly, by the CISO [2].', notFound: false, citations: [{ n: 2, quote: 'The CISO reviews the incident log monthly.' }] },
      entries,
      () => source,
    );
    expect(checked.citations).toEqual([
      expect.objectContaining({ n: 2, page: 2, documentId: 7, section: ['Incidents'], start: 32, end: TEXT.length, nodeIndex: 2 }),
    ]);
    expect(checked.text).toBe('Monthly, by the CISO [2].');
    expect(checked.dropped).toEqual([]);
  });

  it('drops a quote found only in another passage, a passage never shown, and a marker without a quote', () => {
    const checked = checkAnswer(
      {
        answer: 'Kept 35 days [1] and reviewed [2], see also [9] and [1].',
        notFound: false,
        // The quote of [1] is words of passage 2: a citation must point where its words are.
        citations: [
          { n: 1, quote: 'The CISO reviews the incident log' },
          { n: 9, quote: 'Backups are kept' },
        ],
      },
      entries,
      () => source,
    );
    expect(checked.citations).toEqual([]);
    expect(checked.dropped.map((d) => [d.n, d.reason])).toEqual([
      [1, 'quote-not-found'],
      [9, 'not-in-context'],
      [2, 'quote-not-found'],
    ]);
    expect(checked.text).toBe('Kept 35 days and reviewed, see also and.');
    // Every citation dropped: the answer is not presented as grounded.
    expect(checked.unverified).toBe(true);
  });

  it('reads markers only where the answer uses them: brackets in quoted code or a quotation are text', () => {
    const checked = checkAnswer(
      {
        answer: 'The log check reads `msg[0]` before the loop [2], and the report says "use items[1] first" [2].',
        notFound: false,
        citations: [{ n: 2, quote: 'The CISO reviews the incident log monthly.' }],
      },
      entries,
      () => source,
    );
    expect(checked.text).toBe('The log check reads `msg[0]` before the loop [2], and the report says "use items[1] first" [2].');
    expect(checked.dropped).toEqual([]);
    expect(checked.unverified).toBe(false);
  });

  it('turns a "not found" reply into the fixed sentence', () => {
    expect(checkAnswer({ answer: 'I think it is blue.', notFound: true, citations: [] }, entries, () => source)).toMatchObject({
      text: NOT_FOUND_TEXT,
      notFound: true,
      citations: [],
    });
  });

  it('decodes the answer of a reply still being streamed, cut anywhere', () => {
    expect(partialAnswerText('{"ans')).toBeNull();
    expect(partialAnswerText('{"answer": "Kept \\"35 days\\" [1')).toBe('Kept "35 days" [1');
    expect(partialAnswerText('{"answer": "Line\\')).toBe('Line');
    expect(partialAnswerText('{"answer": "caf\\u00e')).toBe('caf');
    expect(partialAnswerText('{"answer": "done.", "notFound": false, "citations": [{"n": 1, "quote": "x')).toBe('done.');
  });

  it('recognises "find all" questions', () => {
    expect(isFindAllQuestion('Find all findings about TLS')).toBe(true);
    expect(isFindAllQuestion('list every place where passwords are mentioned')).toBe(true);
    expect(isFindAllQuestion('Which are all the issues with high severity?')).toBe(true);
    expect(isFindAllQuestion('How long are backups kept?')).toBe(false);
  });
});

describe('query text is data for FTS5, never syntax', () => {
  it('quotes every term, so operators, quotes and column filters in a question cannot break or steer the query', () => {
    const terms = queryTerms('body:secret" OR NEAR(a b) title* -x AND "TOB-ETCD-001"?');
    expect(terms).toEqual(['body', 'secret', 'near', 'title', 'tob-etcd-001']);
    const db = new BetterSqlite3(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(title, body, tokenize = 'porter unicode61')");
    db.prepare('INSERT INTO t (rowid, title, body) VALUES (1, ?, ?)').run('Finding', 'TOB-ETCD-001: the secret is stored in plaintext');
    const rows = db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all(ftsExpression(terms));
    expect(rows).toEqual([{ rowid: 1 }]);
    expect(ftsExpression(['a"b'])).toBe('"a""b"');
    expect(() => db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all(ftsExpression(['a"b', 'OR', '(']))).not.toThrow();
    db.close();
  });

  it('counts a term as present in its inflected forms', () => {
    expect(termCoverage(['overflow', 'counters'], 'Overflows in the gas counter')).toBe(1);
    expect(termCoverage(['backup'], 'nothing related')).toBe(0);
  });
});
