/**
 * The real PDFs of ../shared/corpus, with questions written from their truth
 * files: every finding's title asked about, the answer expected on the
 * finding's detail page.
 */
import { expect, it } from 'vitest';
import { ask } from '../../../electron/engine/retrieval';
import { corpusPdf, corpusQuestions, QUESTION_REPORTS } from '../../fixtures/askQuestions';
import { createAskResponder } from '../../helpers/askResponder';
import { corpusDocuments, describeNeeding } from '../../helpers/requirements';
import { useSims } from '../../helpers/sim';
import { useTempDir } from '../../helpers/tempDir';
import { ingest, openStore, settingsFor, simClient, SIM_OPTIONS } from './fixtures';

const tempDir = useTempDir('audit-ask-corpus-');
const startSim = useSims();

describeNeeding([corpusDocuments(QUESTION_REPORTS)], 'ask the real corpus (truth-file questions)', () => {
  it('cites the page of each finding asked about, and says "not in the documents" for an absent subject', async () => {
    const db = openStore(tempDir());
    const ids = await ingest(db, QUESTION_REPORTS.map(corpusPdf), 'auto');
    const { responder } = createAskResponder();
    const { sim } = await startSim({ ...SIM_OPTIONS, responder });
    const llm = simClient(sim, db);
    const questions = corpusQuestions();
    expect(questions.length).toBe(32);

    const misses: string[] = [];
    for (const q of questions) {
      const answer = await ask({ db, llm }, { question: q.question, settings: settingsFor() });
      const cited = answer.citations.map((c) => c.page);
      if (!cited.includes(q.page)) misses.push(`${q.title}: expected page ${q.page}, cited ${cited.join(', ') || 'nothing'}`);
      // Every citation names a document of the corpus and a page inside it.
      for (const c of answer.citations) expect(ids).toContain(c.documentId);
      expect(answer.marked).toBe(false);
    }
    // The summary tables repeat every title, so a citation of the summary page alone would be a miss here.
    expect(misses.length, misses.join('\n')).toBeLessThanOrEqual(1);

    const absent = await ask({ db, llm }, { question: 'What is the recipe for the chocolate birthday cake served at lunch?', settings: settingsFor() });
    expect(absent.notFound).toBe(true);
    expect(absent.text).toMatch(/not in the documents/i);

    // Scoped to one report, the other's findings are never cited.
    const scoped = await ask(
      { db, llm },
      { question: 'What does the report say about: No minimum password length?', documentIds: [ids[1]!], settings: settingsFor() },
    );
    expect(scoped.citations.length).toBeGreaterThan(0);
    expect(new Set(scoped.citations.map((c) => c.documentId))).toEqual(new Set([ids[1]]));
    expect(scoped.citations.map((c) => c.page)).toContain(27);
    await llm.close();
    db.close();
  });
});
