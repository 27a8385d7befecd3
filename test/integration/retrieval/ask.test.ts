import { describe, expect, it } from 'vitest';
import { ask, updateIndex } from '../../../electron/engine/retrieval';
import { useSims } from '../../helpers/sim';
import { useTempDir } from '../../helpers/tempDir';
import { contentWords, createAskResponder } from '../../helpers/askResponder';
import { ingest, openStore, settingsFor, simClient, SIM_OPTIONS, writeHandbook } from './fixtures';

const tempDir = useTempDir('audit-ask-');
const startSim = useSims();

async function setup(responderOptions: Parameters<typeof createAskResponder>[0] = {}) {
  const dir = tempDir();
  const db = openStore(dir);
  const [documentId] = await ingest(db, [writeHandbook(dir)]);
  const { responder, transcript } = createAskResponder(responderOptions);
  const { sim } = await startSim({ ...SIM_OPTIONS, responder });
  const llm = simClient(sim, db);
  return { dir, db, documentId: documentId!, sim, llm, transcript };
}

describe('ask the documents (simulator, real SQLite, real HTTP)', () => {
  it('answers from the right passage and cites the page the quoted words are on', async () => {
    const { db, llm, sim } = await setup();
    const answer = await ask({ db, llm }, { question: 'How long are database backups kept?', settings: settingsFor() });
    expect(answer.notFound).toBe(false);
    expect(answer.text).toMatch(/35 days/);
    expect(answer.citations.length).toBeGreaterThan(0);
    expect(answer.citations[0]).toMatchObject({ page: 3, documentName: 'handbook.md', section: ['Backup policy'], kind: 'chunk' });
    expect(answer.text).toContain(`[${answer.citations[0]!.n}]`);
    expect(answer.marked).toBe(false);
    expect(sim.counters.embedRequests).toBeGreaterThanOrEqual(2);

    const other = await ask({ db, llm }, { question: 'Who reviews the incident log and how often?', settings: settingsFor() });
    expect(other.citations.map((c) => c.page)).toContain(5);
    expect(other.text).toMatch(/CISO/);
    db.close();
  });

  it('streams the answer text as the model writes it', async () => {
    const { db, llm } = await setup();
    const partials: string[] = [];
    const answer = await ask({ db, llm }, { question: 'How long are database backups kept?', settings: settingsFor(), onPartial: (t) => partials.push(t) });
    expect(partials.length).toBeGreaterThan(3);
    for (let i = 1; i < partials.length; i++) expect(partials[i]!.startsWith(partials[i - 1]!)).toBe(true);
    expect(partials.at(-1)).toBe(answer.text);
    db.close();
  });

  it('says "not in the documents" when the answer is absent, without a model call to guess', async () => {
    const { db, llm, transcript } = await setup();
    const answer = await ask({ db, llm }, { question: 'What colour is the company logo on the annual marketing brochure?', settings: settingsFor() });
    expect(answer.notFound).toBe(true);
    expect(answer.text).toMatch(/not in the documents/i);
    expect(answer.citations).toEqual([]);
    expect(transcript.answers.filter((a) => /logo/.test(a.question))).toHaveLength(0);
    db.close();
  });

  it('uses the refined query in the second round and keeps what both rounds found', async () => {
    const { db, llm, transcript } = await setup({
      refine: (round) =>
        round === 1 ? { refinedQuery: 'procurement board approval supplier contract', needsMore: true } : { refinedQuery: 'same', needsMore: false },
    });
    const answer = await ask({ db, llm }, { question: 'Which approval does a supplier contract need?', settings: settingsFor() });
    const rounds = transcript.judgeRounds.filter((r) => r.question === 'Which approval does a supplier contract need?');
    expect(rounds.map((r) => r.query)).toEqual(['Which approval does a supplier contract need?', 'procurement board approval supplier contract']);
    expect(answer.steps.map((s) => [s.round, s.query, s.source])).toEqual([
      [1, 'Which approval does a supplier contract need?', 'llm'],
      [2, 'procurement board approval supplier contract', 'llm'],
    ]);
    expect(answer.steps[0]!.refinedQuery).toBe('procurement board approval supplier contract');
    const stored = db.prepare('SELECT round, query, source FROM retrieval_judge_decisions ORDER BY id').all();
    expect(stored).toEqual([
      { round: 1, query: 'Which approval does a supplier contract need?', source: 'llm' },
      { round: 2, query: 'procurement board approval supplier contract', source: 'llm' },
    ]);
    expect(answer.citations.map((c) => c.page)).toContain(4);
    db.close();
  });

  it("a judge that reads refines the query with the words of the passage it read, not the question's", async () => {
    // The reading judge knows "copies" means backups but not "retained": the backup passage meets two of
    // three concepts, so it searches again with that passage's own sentence (what it read), as a model would.
    const question = 'How long are database copies retained?';
    const { db, llm, transcript } = await setup({ reader: { vocabulary: { copies: ['backups'] } } });
    // One question word in four is on the backup page: a lower relevance bar lets the first search find it.
    const answer = await ask({ db, llm }, { question, settings: settingsFor({ threshold: 0.2 }) });
    const readSentence = 'Database backups run nightly at 02:00 and are kept for 35 days in the Frankfurt data centre.';
    expect(answer.steps[0]).toMatchObject({ round: 1, query: question, needsMore: true });
    expect(answer.steps[0]!.refinedQuery).toBe(contentWords(readSentence).join(' '));
    expect(transcript.judgeRounds.map((r) => r.query)).toEqual([question, contentWords(readSentence).join(' ')]);
    // The backup section is what the answer reads first.
    expect(answer.steps[0]!.kept[0]).toBe('Backup policy');
    expect(answer.contextSize).toBeGreaterThan(0);
    db.close();
  });

  it('stops after maxRounds even when the judge keeps asking for more', async () => {
    const { db, llm, transcript } = await setup({ refine: (round) => ({ refinedQuery: `backup retention round ${round}`, needsMore: true }) });
    const answer = await ask({ db, llm }, { question: 'How long are backups kept?', settings: settingsFor({ maxRounds: 3 }) });
    expect(answer.steps).toHaveLength(3);
    expect(transcript.judgeRounds).toHaveLength(3);
    db.close();
  });

  it('falls back to the unjudged ranking when the judge reply does not parse', async () => {
    const { db, llm } = await setup({ brokenJudge: true });
    const unjudged = await ask({ db, llm }, { question: 'How long are database backups kept?', settings: settingsFor({ judge: false }) });
    const answer = await ask({ db, llm }, { question: 'How long are database backups kept?', settings: settingsFor() });
    expect(answer.steps).toHaveLength(1);
    expect(answer.steps[0]).toMatchObject({ source: 'fallback', needsMore: false });
    expect(answer.steps[0]!.fallbackReason).toMatch(/^LLM_INVALID_REPLY/);
    expect(answer.steps[0]!.kept).toEqual(unjudged.steps[0]!.kept);
    expect(answer.steps[0]!.kept.length).toBeGreaterThan(0);
    expect(answer.citations[0]?.page).toBe(3);
    db.close();
  });

  it('reuses a stored judge decision for the same question and passages, without a model call', async () => {
    const { db, llm, transcript } = await setup();
    await ask({ db, llm }, { question: 'How long are database backups kept?', settings: settingsFor() });
    await ask({ db, llm }, { question: 'How long are database backups kept?', settings: settingsFor() });
    expect(transcript.judgeRounds).toHaveLength(1);
    expect(db.prepare('SELECT source FROM retrieval_judge_decisions ORDER BY id').all()).toEqual([{ source: 'llm' }, { source: 'cached' }]);
    db.close();
  });

  it('drops a citation whose quote is not in the source and marks the answer', async () => {
    const { db, llm } = await setup({ inventQuotes: true });
    const answer = await ask({ db, llm }, { question: 'How long are database backups kept?', settings: settingsFor() });
    expect(answer.citations).toEqual([]);
    expect(answer.dropped.length).toBeGreaterThan(0);
    expect(answer.dropped[0]!.reason).toBe('quote-not-found');
    expect(answer.marked).toBe(true);
    // Nothing of it was found in the documents: it is shown as unverified, not like a grounded answer.
    expect(answer.unverified).toBe(true);
    expect(answer.text).not.toMatch(/\[\d+\]/);
    db.close();
  });

  it('refuses an over-long question with what to do, before any search or model call', async () => {
    const { db, llm, sim, transcript } = await setup();
    const before = sim.counters.embedRequests;
    await expect(
      ask({ db, llm }, { question: `How long are backups kept? ${'Please consider every detail. '.repeat(170)}`, settings: settingsFor() }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/^The question is 5,\d{3} characters long; Ask takes at most 4,000\. Ask one thing at a time/),
    });
    expect(sim.counters.embedRequests).toBe(before);
    expect(transcript.answers).toHaveLength(0);
    db.close();
  });

  it('adds the not-exhaustive note to "find all" questions', async () => {
    const { db, llm } = await setup();
    const answer = await ask({ db, llm }, { question: 'Find all controls that mention euros', settings: settingsFor() });
    expect(answer.exhaustiveNote).toMatch(/not every page/);
    expect(answer.exhaustiveNote).toMatch(/extraction profile over every chunk/);
    const plain = await ask({ db, llm }, { question: 'How long are database backups kept?', settings: settingsFor() });
    expect(plain.exhaustiveNote).toBeNull();
    db.close();
  });

  it('indexes incrementally: a second update embeds nothing, and does not reload the chat model', async () => {
    const { db, llm, sim } = await setup();
    const first = await updateIndex(db, { embedModel: 'nomic-embed-text:latest', llm });
    expect(first.added).toBe(5);
    expect(first.embedded).toBe(5);
    const again = await updateIndex(db, { embedModel: 'nomic-embed-text:latest', llm });
    expect(again).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 5, embedded: 0, embedCalls: 0 });
    await ask({ db, llm }, { question: 'How long are database backups kept?', settings: settingsFor() });
    await ask({ db, llm }, { question: 'Which approval does a supplier contract need?', settings: settingsFor() });
    expect(sim.counters.reloads).toBe(0);
    db.close();
  });
});
