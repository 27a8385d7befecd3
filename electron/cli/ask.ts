/**
 * Ask the stored documents a question from a terminal: the same retrieval,
 * judge and grounded answer as the app's Ask panel.
 *   npm run ask -- "question" [--doc file-or-id ...] [--json] [--host url] [--db file]
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppError, ErrorCode, toErrorInfo } from '../../shared/errors';
import { settingsSchema } from '../../shared/contract';
import { DEFAULT_RETRIEVAL_SETTINGS, retrievalSettingsSchema, UNVERIFIED_TEXT, type AskAnswer, type RetrievalSettings } from '../../shared/retrieval';
import { createLlmClient, lastLlmCallRowId, llmUsageSince } from '../engine/llm';
import {
  askInConversation,
  askSettings,
  exhaustiveCommand,
  exhaustiveTargets,
  listConversations,
  resolveAskModels,
  resolveDocumentRefs,
} from '../engine/retrieval';
import { conversationHtml, conversationMarkdown } from '../engine/report';
import { loadSettingValues, type Database } from '../engine/store';
import { writeOutputFile } from '../engine/util';
import { abortOnCtrlC, openStoreOrSay, parseCommandLine, runIfEntryPoint } from './common';
import { multilineText, oneLine, writeLines } from './terminalText';
import { defaultDatabasePath } from './paths';

const USAGE = `Usage: npm run ask -- "question" [options]

Answers a question from the documents stored by \`npm run analyze\`, with
[n] citations (document, page, section) whose quoted words were found in the
source. Says so when the documents do not hold the answer.

Options:
  --doc <file-or-id>      Ask only these documents (repeat it); default: every stored document
  --json                  Print the answer as JSON: the citations with their pages and offsets, each round's
                          kept passages (document, pages, ID, score), and the model calls and tokens spent
  --text-only             Search the text index only (no embeddings), whatever the settings say
  --host <url>            Ollama (default: OLLAMA_HOST, else http://127.0.0.1:11434)
  --db <file>             SQLite store (default: ${defaultDatabasePath()})
  --model <name>          Chat model for the judge and the answer (default: the first installed recommended model)
  --embed-model <name>    Embedding model (default: the app's setting, else the first installed of
                          nomic-embed-text, mxbai-embed-large...); without one, retrieval uses the text index only
  --no-judge              Answer from the search ranking, without the retrieval judge
  --rounds <n>            Retrieval rounds the judge may ask for (default: the app's setting, else ${DEFAULT_RETRIEVAL_SETTINGS.maxRounds})
  --threshold <0..1>      Relevance a passage needs to be used (default: the app's setting, else ${DEFAULT_RETRIEVAL_SETTINGS.threshold})
  --conversation <id>     Continue a stored conversation
  --list                  List the stored conversations and exit
  --export <id>           Write a stored conversation (with --out file.md or file.html) and exit
  --out <file>            Where --export writes
  -h, --help              This help`;

const OPTIONS = {
  doc: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
  'text-only': { type: 'boolean', default: false },
  host: { type: 'string' },
  db: { type: 'string' },
  model: { type: 'string' },
  'embed-model': { type: 'string' },
  'no-judge': { type: 'boolean', default: false },
  rounds: { type: 'string' },
  threshold: { type: 'string' },
  conversation: { type: 'string' },
  list: { type: 'boolean', default: false },
  export: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export const EXIT = { ok: 0, failed: 1, usage: 2, cancelled: 130 } as const;

export async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(argv, OPTIONS, USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const usage = (message: string) => {
    writeLines(process.stderr, message);
    return EXIT.usage;
  };
  const rounds = values.rounds === undefined ? undefined : Number(values.rounds);
  if (rounds !== undefined && (!Number.isInteger(rounds) || rounds < 1 || rounds > 5))
    return usage(`--rounds needs a whole number from 1 to 5; got "${values.rounds}".`);
  const threshold = values.threshold === undefined ? undefined : Number(values.threshold);
  if (threshold !== undefined && !(threshold >= 0 && threshold <= 1)) return usage(`--threshold needs a number from 0 to 1; got "${values.threshold}".`);
  const conversationId = values.conversation === undefined ? undefined : Number(values.conversation);
  if (conversationId !== undefined && !(Number.isInteger(conversationId) && conversationId > 0))
    return usage(`--conversation needs a conversation number; got "${values.conversation}".`);
  const question = positionals.join(' ').trim();
  if (!values.list && values.export === undefined && question === '') return usage(`No question given.\n\n${USAGE}`);

  const dbPath = resolve(values.db ?? defaultDatabasePath());
  if (!existsSync(dbPath)) {
    writeLines(
      process.stderr,
      `${ErrorCode.ASK_NO_DOCUMENTS}: there is no store at ${dbPath}. Analyse documents first (npm run analyze -- <files>), or point --db at your store.`,
    );
    return EXIT.failed;
  }
  const db = openStoreOrSay(dbPath);
  if (!db) return EXIT.usage;
  try {
    if (values.list) {
      for (const c of listConversations(db))
        process.stdout.write(`${c.id}\t${c.scope}${c.documentId ? ` ${c.documentId}` : ''}\t${c.messageCount} messages\t${c.updatedAt}\t${oneLine(c.title)}\n`);
      return EXIT.ok;
    }
    if (values.export !== undefined) return exportConversation(db, values.export, values.out);

    const abort = abortOnCtrlC('Cancelling (press Ctrl-C again to quit at once)...', EXIT.cancelled);
    const llm = createLlmClient({ db, ...(values.host ? { host: values.host } : {}) });
    try {
      const documentIds = resolveDocumentRefs(db, values.doc ?? []);
      const saved = savedRetrievalSettings(db);
      const embedModel = values['embed-model'] ?? saved.embedModel;
      const models = await resolveAskModels(llm, { ...(values.model ? { model: values.model } : {}), ...(embedModel ? { embedModel } : {}) }, abort.signal);
      if (models.embedMissing && !values['text-only']) writeLines(process.stderr, `warning: ${models.embedMissing} Searching the text index only.`);
      const callsBefore = lastLlmCallRowId(db);
      const { answer, conversationId: stored } = await askInConversation(
        { db, llm },
        {
          question,
          documentIds,
          settings: askSettings({
            model: models.model,
            embedModel: values['text-only'] ? null : models.embedModel,
            judge: values['no-judge'] ? false : saved.retrieval.judge,
            maxRounds: rounds ?? saved.retrieval.maxRounds,
            threshold: threshold ?? saved.retrieval.threshold,
          }),
          signal: abort.signal,
          onStep: (s) => writeLines(process.stderr, `${s.phase}: ${s.message}`),
          ...(conversationId !== undefined ? { conversationId } : {}),
        },
      );
      // "Find all ...": the exact command that reads every chunk of the documents asked about instead.
      const extractAll = answer.exhaustiveNote
        ? exhaustiveCommand(
            exhaustiveTargets(db, documentIds).map((t) => t.filePath),
            values.db === undefined ? undefined : dbPath,
          )
        : null;
      process.stdout.write(
        values.json
          ? `${JSON.stringify({ conversationId: stored, ...answer, usage: llmUsageSince(db, callsBefore), ...(extractAll ? { extractAllCommand: extractAll } : {}) }, null, 2)}\n`
          : formatAnswer(answer, stored, extractAll),
      );
      return EXIT.ok;
    } catch (error) {
      const info = toErrorInfo(error);
      if (info.code === ErrorCode.CANCELLED) return EXIT.cancelled;
      writeLines(process.stderr, `${info.code}: ${info.message}`);
      return EXIT.failed;
    } finally {
      abort.release();
      await llm.close();
    }
  } finally {
    db.close();
  }
}

/**
 * The retrieval settings saved in the store by the app (Settings > Ask the documents), so a question asked
 * from the terminal is answered the same way; a missing or unreadable value falls back to the default.
 */
export function savedRetrievalSettings(db: Database): { retrieval: RetrievalSettings; embedModel: string | undefined } {
  const stored = loadSettingValues(db);
  const retrieval = retrievalSettingsSchema.safeParse(stored.retrieval);
  const models = settingsSchema.shape.models.safeParse(stored.models);
  return { retrieval: retrieval.success ? retrieval.data : DEFAULT_RETRIEVAL_SETTINGS, embedModel: (models.success && models.data.embed) || undefined };
}

function exportConversation(db: Database, idText: string, out: string | undefined): number {
  const id = Number(idText);
  if (!(Number.isInteger(id) && id > 0)) {
    writeLines(process.stderr, `--export needs a conversation number; got "${idText}".`);
    return EXIT.usage;
  }
  const format = out?.toLowerCase().endsWith('.html') ? 'html' : out?.toLowerCase().endsWith('.md') ? 'md' : undefined;
  if (!out || !format) {
    process.stderr.write('--export needs --out <file.md|file.html>.\n');
    return EXIT.usage;
  }
  try {
    writeOutputFile(resolve(out), format === 'html' ? conversationHtml(db, id) : conversationMarkdown(db, id));
  } catch (error) {
    const info = error instanceof AppError ? error.toInfo() : toErrorInfo(error);
    writeLines(process.stderr, `${info.code}: ${info.message}`);
    return EXIT.failed;
  }
  writeLines(process.stdout, `Conversation ${id} written to ${resolve(out)}`);
  return EXIT.ok;
}

/** The answer for a terminal: text, marks and notes, then the sources. */
export function formatAnswer(answer: AskAnswer, conversationId: number, extractAllCommand: string | null = null): string {
  // The answer and the quotes are a model's and the documents' words: shown with their control characters escaped.
  const lines = [multilineText(answer.text), ''];
  if (answer.unverified) lines.push(UNVERIFIED_TEXT, '');
  else if (answer.marked) lines.push(`Marked: ${answer.dropped.length} citation(s) were removed because their quoted words were not found in the source.`, '');
  if (answer.exhaustiveNote) lines.push(`Note: ${oneLine(answer.exhaustiveNote)}`, '');
  if (extractAllCommand)
    lines.push(
      'To analyse every chunk of these documents (add --profile <profile.json> for your own extraction profile):',
      `  ${oneLine(extractAllCommand)}`,
      '',
    );
  if (answer.citations.length > 0) {
    lines.push('Sources:');
    for (const c of answer.citations) lines.push(oneLine(`  [${c.n}] ${c.documentName}, page ${c.page}, ${c.section.join(' > ')}: "${c.quote}"`));
    lines.push('');
  }
  lines.push(`Conversation ${conversationId} (continue with --conversation ${conversationId}).`);
  return `${lines.join('\n')}\n`;
}

runIfEntryPoint(import.meta.filename, main);
