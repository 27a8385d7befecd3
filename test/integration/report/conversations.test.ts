/**
 * Conversations travel with the run report: the questions asked about a run's
 * documents (their own and library ones citing them) appear in the Markdown,
 * HTML and JSON reports, escaped, and a per-document export keeps only that
 * document's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { collectReportData, renderReport, REPORT_JSON_VERSION } from '../../../electron/engine/report';
import { askInConversation } from '../../../electron/engine/retrieval';
import { createAskResponder } from '../../helpers/askResponder';
import { useSims } from '../../helpers/sim';
import { useTempDir } from '../../helpers/tempDir';
import { ingest, openStore, settingsFor, simClient, SIM_OPTIONS, writeHandbook } from '../retrieval/fixtures';

const tempDir = useTempDir('audit-report-conversations-');
const startSim = useSims();
const meta = { appVersion: 'test', now: new Date('2026-11-24T01:00:00Z') };

async function twoRunsWithQuestions() {
  const dir = tempDir();
  const db = openStore(dir);
  const [handbookId] = await ingest(db, [writeHandbook(dir)]);
  const handbookRun = (db.prepare('SELECT MAX(id) AS id FROM runs').get() as { id: number }).id;
  const other = join(dir, 'other.md');
  writeFileSync(other, '# Cash office\n\nPetty cash is counted every Monday by the office manager and kept in the safe.');
  const [otherId] = await ingest(db, [other], 'pages');
  const otherRun = (db.prepare('SELECT MAX(id) AS id FROM runs').get() as { id: number }).id;
  // The markup words in the first question lower its overlap with the passage: a lower bar keeps it answerable.
  const { responder } = createAskResponder({ minOverlap: 0.3 });
  const { sim } = await startSim({ ...SIM_OPTIONS, responder });
  const llm = simClient(sim, db);
  // A question whose text carries markup: the reports must show it as text.
  const own = await askInConversation(
    { db, llm },
    { question: 'How long are database backups kept? <script>alert(1)</script> **bold**', documentIds: [handbookId!], settings: settingsFor() },
  );
  const library = await askInConversation(
    { db, llm },
    { question: 'Who reviews the incident log?', documentIds: [handbookId!, otherId!], settings: settingsFor() },
  );
  const unanswered = await askInConversation({ db, llm }, { question: 'What colour is the boardroom carpet?', settings: settingsFor() });
  const ofOther = await askInConversation({ db, llm }, { question: 'How often is petty cash counted?', documentIds: [otherId!], settings: settingsFor() });
  await llm.close();
  return { dir, db, handbookId: handbookId!, handbookRun, otherId: otherId!, otherRun, own, library, unanswered, ofOther };
}

describe('conversations in the run report', () => {
  it('lists the questions about the run documents in Markdown, HTML and JSON, escaped, and leaves out the others', async () => {
    const s = await twoRunsWithQuestions();
    expect(s.unanswered.answer.notFound).toBe(true);
    expect(s.own.answer.citations.length).toBeGreaterThan(0);
    const libraryCites = new Set(s.library.answer.citations.map((c) => c.documentId));

    const data = collectReportData(s.db, s.handbookRun, meta);
    expect(libraryCites.has(s.handbookId)).toBe(true);
    const expected = [s.own.conversationId, s.library.conversationId];
    expect(data.conversations.map((c) => c.summary.id)).toEqual(expected);
    // The question about the other document and the library question that found nothing are not about this run.
    expect(data.conversations.map((c) => c.summary.id)).not.toContain(s.ofOther.conversationId);
    expect(data.conversations.map((c) => c.summary.id)).not.toContain(s.unanswered.conversationId);

    const md = String(await renderReport(data, 'md'));
    const section = md.slice(md.indexOf('## Questions and answers'));
    expect(md.indexOf('## Questions and answers')).toBeGreaterThan(md.indexOf('## handbook.md'));
    expect(section).toContain('#### Q: How long are database backups kept? &lt;script\\>alert(1)&lt;/script\\> \\*\\*bold\\*\\*');
    expect(section).toContain('asked about handbook.md');
    const citation = s.own.answer.citations[0]!;
    expect(section).toContain(`- [${citation.n}] handbook.md, page ${citation.page}, section Backup policy:`);
    expect(section).not.toContain('<script>');

    const html = String(await renderReport(data, 'html'));
    expect(html).toContain('<section id="conversations"');
    expect(html).toContain('<a href="#conversations">Questions and answers</a>');
    expect(html).toContain('<h4 class="q">How long are database backups kept? &lt;script&gt;alert(1)&lt;/script&gt; **bold**</h4>');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain(`<li value="${citation.n}">handbook.md, page ${citation.page}, section Backup policy: &quot;`);

    const json = JSON.parse(String(await renderReport(data, 'json'))) as {
      version: number;
      conversations: {
        id: number;
        scope: string;
        messages: { role: string; text: string; answer: { citations: { page: number; documentId: number }[] } | null }[];
      }[];
    };
    expect(json.version).toBe(REPORT_JSON_VERSION);
    expect(json.conversations.map((c) => c.id)).toEqual(expected);
    expect(json.conversations[0]).toMatchObject({ scope: 'document', messages: [{ role: 'user', answer: null }, { role: 'assistant' }] });
    expect(json.conversations[0]!.messages[1]!.answer!.citations[0]).toMatchObject({ page: citation.page, documentId: s.handbookId });
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../../docs/report.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ allErrors: true }).compile(schema);
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    s.db.close();
  });

  it('a run without questions has no section, and a per-document export keeps only that document questions', async () => {
    const s = await twoRunsWithQuestions();
    const otherData = collectReportData(s.db, s.otherRun, { ...meta, documentId: s.otherId });
    const otherIds = otherData.conversations.map((c) => c.summary.id);
    expect(otherIds).toContain(s.ofOther.conversationId);
    expect(otherIds).not.toContain(s.own.conversationId);

    s.db.prepare('DELETE FROM conversation_messages').run();
    s.db.prepare('DELETE FROM conversations').run();
    const empty = collectReportData(s.db, s.handbookRun, meta);
    expect(empty.conversations).toEqual([]);
    expect(String(await renderReport(empty, 'md'))).not.toContain('## Questions and answers');
    expect(String(await renderReport(empty, 'html'))).not.toContain('id="conversations"');
    expect((JSON.parse(String(await renderReport(empty, 'json'))) as { conversations: unknown[] }).conversations).toEqual([]);
    s.db.close();
  });
});
