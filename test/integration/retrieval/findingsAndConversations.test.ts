import { describe, expect, it } from 'vitest';
import { ask, askInConversation, listConversations, loadConversation, updateIndex } from '../../../electron/engine/retrieval';
import { createAskResponder } from '../../helpers/askResponder';
import { useSims } from '../../helpers/sim';
import { useTempDir } from '../../helpers/tempDir';
import { ingest, openStore, settingsFor, simClient, SIM_OPTIONS, writeHandbook } from './fixtures';

const tempDir = useTempDir('audit-ask-findings-');
const startSim = useSims();

describe('findings are searchable, conversations are kept', () => {
  it('finds a merged finding by its evidence or description, and cites only its evidence, on the source page', async () => {
    const dir = tempDir();
    const db = openStore(dir);
    const [documentId] = await ingest(db, [writeHandbook(dir)]);
    const tree = db.prepare('SELECT id FROM chunk_trees WHERE document_id = ? AND is_current = 1').get(documentId) as { id: number };
    const runId = (db.prepare('SELECT id FROM runs ORDER BY id DESC LIMIT 1').get() as { id: number }).id;
    // A finding as the extraction stage stores it: on the backup section (node 3, page 3), evidence quoted from it.
    const findingId = Number(
      db
        .prepare(
          `INSERT INTO findings (run_id, document_id, tree_id, node_index, ordinal, type, title, severity, severity_rank, description, evidence, grounding, page, created_at)
           VALUES (?, ?, ?, 3, 0, 'issue', 'Short backup retention', 'medium', 2, 'Retention of thirty-five days is below the regulator''s minimum of ninety days.', 'kept for 35 days in the Frankfurt data centre', 'grounded', 3, 'now')`,
        )
        .run(runId, documentId, tree.id).lastInsertRowid,
    );
    db.prepare(
      `INSERT INTO merged_findings (run_id, document_id, ordinal, title, type, severity, severity_rank, description, main_page, main_finding_id, grounded, source_count, created_at)
       VALUES (?, ?, 0, 'Short backup retention', 'issue', 'medium', 2, 'Retention of thirty-five days is below the regulator''s minimum of ninety days.', 3, ?, 1, 1, 'now')`,
    ).run(runId, documentId, findingId);

    const { responder } = createAskResponder({ minOverlap: 0.4 });
    const { sim } = await startSim({ ...SIM_OPTIONS, responder });
    const llm = simClient(sim, db);
    const stats = await updateIndex(db, { embedModel: 'nomic-embed-text:latest', llm });
    expect(stats.added).toBe(6);

    const byEvidence = await ask({ db, llm }, { question: 'Which findings mention the Frankfurt data centre?', settings: settingsFor({ neighbours: false }) });
    const fromFinding = byEvidence.citations.find((c) => c.kind === 'finding');
    expect(fromFinding).toMatchObject({ page: 3, mergedFindingId: expect.any(Number) as number, section: ['Backup policy'] });

    // The description is the model's words, not the source: a quote of it cannot be grounded and is dropped.
    const byDescription = await ask(
      { db, llm },
      { question: 'Which findings mention the regulator minimum retention?', settings: settingsFor({ neighbours: false }) },
    );
    expect(byDescription.steps[0]!.kept[0]).toBe('Finding: Short backup retention');
    expect(byDescription.dropped.map((d) => d.reason)).toContain('quote-not-found');
    expect(byDescription.marked).toBe(true);
    expect(byDescription.citations.filter((c) => c.kind === 'finding')).toEqual([]);

    // A finding that disappears (re-merged, deleted) leaves the index at the next update.
    db.prepare('DELETE FROM merged_findings').run();
    expect(await updateIndex(db, { embedModel: 'nomic-embed-text:latest', llm })).toMatchObject({ removed: 1, unchanged: 5 });
    expect(db.prepare("SELECT COUNT(*) AS n FROM retrieval_units WHERE kind = 'finding'").get()).toEqual({ n: 0 });
    await llm.close();
    db.close();
  });

  it('stores questions and answers per document and library, and they survive closing the store', async () => {
    const dir = tempDir();
    let db = openStore(dir);
    const [documentId] = await ingest(db, [writeHandbook(dir)]);
    const { responder } = createAskResponder();
    const { sim } = await startSim({ ...SIM_OPTIONS, responder });
    let llm = simClient(sim, db);
    const first = await askInConversation(
      { db, llm },
      { question: 'How long are database backups kept?', documentIds: [documentId!], settings: settingsFor() },
    );
    await askInConversation(
      { db, llm },
      { question: 'Who reviews the incident log?', documentIds: [documentId!], conversationId: first.conversationId, settings: settingsFor() },
    );
    const library = await askInConversation({ db, llm }, { question: 'How often is cash counted?', settings: settingsFor() });
    await llm.close();
    db.close();

    db = openStore(dir);
    llm = simClient(sim, db);
    expect(listConversations(db, { documentId: documentId! }).map((c) => [c.id, c.scope, c.messageCount])).toEqual([[first.conversationId, 'document', 4]]);
    expect(listConversations(db, { scope: 'library' }).map((c) => c.id)).toEqual([library.conversationId]);
    const { messages } = loadConversation(db, first.conversationId);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(messages[1]!.answer!.citations[0]!.page).toBe(3);
    expect(messages[3]!.text).toMatch(/CISO/);
    await llm.close();
    db.close();
  });
});
