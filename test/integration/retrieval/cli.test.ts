import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAskResponder } from '../../helpers/askResponder';
import { useSims } from '../../helpers/sim';
import { useTempDir } from '../../helpers/tempDir';
import { openDatabase, saveSettingValues } from '../../../electron/engine/store';
import { HANDBOOK_PAGES, ingest, openStore, SIM_OPTIONS } from './fixtures';

const root = resolve(import.meta.dirname, '../../..');
const tempDir = useTempDir('audit-ask-cli-');
const startSim = useSims();

/** Async child process: the simulator runs in this process and must keep answering while the CLI waits on it. */
function runAsk(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      join(root, 'node_modules/.bin/tsx'),
      [join(root, 'electron/cli/ask.ts'), ...args],
      { cwd, encoding: 'utf8', env: { ...process.env, CI: 'true', OLLAMA_HOST: '' } },
      (error, stdout, stderr) => done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function storeWithHandbook(extraPage = '') {
  const dir = tempDir();
  const file = join(dir, 'handbook.md');
  const filler = (i: number) => Array.from({ length: 40 }, (_, k) => `Routine administrative paragraph ${i * 100 + k} records ordinary detail.`).join(' ');
  writeFileSync(file, [...HANDBOOK_PAGES, ...(extraPage ? [extraPage] : [])].map((p, i) => `${p}\n\n${filler(i)}`).join('\f'));
  const db = openStore(dir);
  await ingest(db, [file]);
  db.close();
  return { dir, file, db: join(dir, 'store.sqlite') };
}

describe('npm run ask (CLI, real child process, simulator over HTTP)', () => {
  it('prints the answer with its sources, stores the conversation, and prints JSON with --json', async () => {
    const { dir, db, file } = await storeWithHandbook();
    const { responder } = createAskResponder();
    const { sim } = await startSim({ ...SIM_OPTIONS, responder });

    const text = await runAsk(['How long are database backups kept?', '--db', db, '--host', sim.url, '--doc', file], dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/35 days/);
    expect(text.stdout).toMatch(/\[\d\] handbook\.md, page 3, Backup policy: "/);
    expect(text.stderr).toMatch(/judge: /);

    const json = await runAsk(['Who reviews the incident log?', '--db', db, '--host', sim.url, '--json', '--doc', '1'], dir);
    expect(json.code).toBe(0);
    const answer = JSON.parse(json.stdout) as { citations: { page: number; documentName: string }[]; notFound: boolean; conversationId: number };
    expect(answer.notFound).toBe(false);
    expect(answer.citations[0]).toMatchObject({ page: 5, documentName: 'handbook.md' });
    // Each kept passage with its document, pages, index ID and score; the calls and tokens the answer spent.
    const detail = JSON.parse(json.stdout) as {
      steps: { passages: { unitId: number; documentName: string; pageStart: number; pageEnd: number; score: number; relevance: number }[] }[];
      usage: { calls: number; embedCalls: number; promptTokens: number; evalTokens: number };
    };
    const passages = detail.steps.flatMap((s) => s.passages);
    expect(passages.length).toBeGreaterThan(0);
    for (const p of passages) {
      expect(p).toMatchObject({ documentName: 'handbook.md', unitId: expect.any(Number) });
      expect(p.pageStart).toBeGreaterThanOrEqual(1);
      expect(p.pageEnd).toBeGreaterThanOrEqual(p.pageStart);
      expect(p.score).toBeGreaterThan(0);
    }
    expect(passages.some((p) => p.pageStart <= 5 && p.pageEnd >= 5)).toBe(true);
    // The judge and the answer: two calls at least, with their tokens counted.
    expect(detail.usage.calls).toBeGreaterThanOrEqual(2);
    expect(detail.usage.promptTokens).toBeGreaterThan(0);
    expect(detail.usage.evalTokens).toBeGreaterThan(0);

    // --text-only: no embedding call at all, and still an answer from the text index.
    const textOnly = await runAsk(['Who reviews the incident log?', '--db', db, '--host', sim.url, '--json', '--doc', '1', '--text-only'], dir);
    expect(textOnly.code).toBe(0);
    const lexical = JSON.parse(textOnly.stdout) as { embedModel: string | null; notFound: boolean; usage: { embedCalls: number } };
    expect(lexical).toMatchObject({ embedModel: null, notFound: false, usage: { embedCalls: 0 } });

    const list = await runAsk(['--list', '--db', db], dir);
    expect(list.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('uses the retrieval settings saved by the app, and a flag overrides them', async () => {
    const { dir, db } = await storeWithHandbook();
    const { sim } = await startSim({ ...SIM_OPTIONS, responder: createAskResponder().responder });
    const store = openDatabase(db);
    saveSettingValues(store, { retrieval: { threshold: 0.3, judge: false, maxRounds: 2 } }, 'now');
    store.close();
    const saved = await runAsk(['How long are database backups kept?', '--db', db, '--host', sim.url, '--json'], dir);
    expect(saved.code).toBe(0);
    expect((JSON.parse(saved.stdout) as { steps: { source: string }[] }).steps.map((s) => s.source)).toEqual(['disabled']);
    // A threshold no passage reaches, from the flag: nothing is read, the answer says so.
    const strict = await runAsk(['How long are database backups kept?', '--db', db, '--host', sim.url, '--json', '--threshold', '1'], dir);
    expect(JSON.parse(strict.stdout)).toMatchObject({ notFound: true, contextSize: 0 });
  });

  it('a "find all" question prints the exact command that analyses every chunk of the documents asked about', async () => {
    const { dir, db, file } = await storeWithHandbook();
    const { sim } = await startSim({ ...SIM_OPTIONS, responder: createAskResponder().responder });
    const text = await runAsk(['Find all backup rules', '--db', db, '--host', sim.url, '--doc', '1'], dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/run an extraction profile over every chunk/);
    const command = `npm run analyze -- ${file} --db ${db}`;
    expect(text.stdout).toContain(`  ${command}\n`);
    const json = await runAsk(['List all incident rules', '--db', db, '--host', sim.url, '--json'], dir);
    expect(JSON.parse(json.stdout)).toMatchObject({ extractAllCommand: command });
    // Not a "find all" question: no command.
    const plain = await runAsk(['How long are database backups kept?', '--db', db, '--host', sim.url, '--json'], dir);
    expect(JSON.parse(plain.stdout)).not.toHaveProperty('extractAllCommand');

    // The command is accepted as printed: a full run over the document (this simulator only answers questions,
    // so its chunks fail extraction: exit 1 names them; a usage error would be 2).
    const analyze = await new Promise<{ code: number | null; stdout: string }>((done) =>
      execFile(
        join(root, 'node_modules/.bin/tsx'),
        [join(root, 'electron/cli/analyze.ts'), ...command.split(' ').slice(4), '--host', sim.url, '--out', join(dir, 'r.json')],
        { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: 'true', OLLAMA_HOST: '' } },
        (error, stdout) => done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }),
      ),
    );
    expect(analyze.code).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))).toMatchObject({ run: { mode: 'full' }, inputs: [{ file }] });
  });

  it('fails with a code and a sentence for an unknown document, a missing question or a missing store', async () => {
    const { dir, db } = await storeWithHandbook();
    const { sim } = await startSim({ ...SIM_OPTIONS, responder: createAskResponder().responder });
    const unknown = await runAsk(['Anything?', '--db', db, '--host', sim.url, '--doc', 'nope.pdf'], dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/ASK_DOCUMENT_NOT_FOUND: No stored document matches "nope.pdf"\. Analyse it first/);
    const none = await runAsk(['--db', db], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/No question given/);
    const missing = await runAsk(['Anything?', '--db', join(dir, 'absent.sqlite')], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/ASK_NO_DOCUMENTS: there is no store/);
    const down = await runAsk(['Anything?', '--db', db, '--host', 'http://127.0.0.1:9'], dir);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^OLLAMA_UNREACHABLE: /m);
  });

  it('exports a conversation to Markdown and HTML with document text escaped', async () => {
    const hostile = '# Hostile page\n\nThe override code is <script>alert(1)</script> and it is kept in the vault.';
    const { dir, db } = await storeWithHandbook(hostile);
    const { sim } = await startSim({ ...SIM_OPTIONS, responder: createAskResponder().responder });
    const asked = await runAsk(['What is the override code kept in the vault?', '--db', db, '--host', sim.url, '--json'], dir);
    expect(asked.code).toBe(0);
    const { conversationId, text } = JSON.parse(asked.stdout) as { conversationId: number; text: string };
    expect(text).toContain('<script>');
    const html = join(dir, 'qa.html');
    const md = join(dir, 'qa.md');
    expect((await runAsk(['--export', String(conversationId), '--out', html, '--db', db], dir)).code).toBe(0);
    expect((await runAsk(['--export', String(conversationId), '--out', md, '--db', db], dir)).code).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toMatch(/page 6, section Hostile page/);
    const markdown = readFileSync(md, 'utf8');
    expect(markdown).toContain('## Q: What is the override code kept in the vault?');
    expect(markdown).not.toContain('<script>');
    const bad = await runAsk(['--export', '99', '--out', md, '--db', db], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/CONVERSATION_NOT_FOUND/);
  });
});
