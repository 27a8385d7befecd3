/**
 * Reconcile a document against a population from a terminal: the document
 * analysed (or its stored analysis reused), the population read (CSV or
 * XLSX), every row tied to the item the document prints for it, and the
 * exceptions both ways.
 *   npm run reconcile -- <document.pdf> <population.csv|.xlsx> [--key-column C] [--title-column C] --json out.json [--out workpaper.xlsx]
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { toErrorInfo, type ErrorInfo } from '../../shared/errors';
import { countsSentence, RECONCILE_FORMATS, type Population, type Reconciliation, type ReconcileFormat } from '../../shared/reconcile';
import { writeOutputFile } from '../engine';
import { readPopulation, reconcileAndStore, reconciliationJson, renderReconciliation, resolveColumn, savePopulation } from '../engine/reconcile';
import { parseCommandLine, runIfEntryPoint } from './common';
import {
  analyseOrReuse,
  analysisSettings,
  ANALYSIS_OPTIONS,
  ANALYSIS_OPTIONS_HELP,
  openAnalysisSession,
  SESSION_OPTIONS,
  SESSION_OPTIONS_HELP,
} from './documentAnalysis';
import { oneLine, writeLines } from './terminalText';

const USAGE = `Usage: npm run reconcile -- <document.pdf> <population.csv|.xlsx> [options]

Ties every row of a population (a tracker's export: change tickets, a findings
tracker) to the item the document prints for it (a release note's changes, a
report's findings): by the printed ID first (case, dashes and zero padding
ignored), else by a mention of the key in the text, else by title (reworded
titles included, one row to one item). Lists the matches with their pages, the
items only in the document and the rows only in the population. The document
is analysed like \`npm run analyze\` does, or its stored analysis is reused.

Options:
  --key-column <C>        The population's column of keys (its header, or its letter); default: the one proposed
  --no-key                Match by title only, even where a column holds keys
  --title-column <C>      The population's column of titles; default: the one with the longest text
  --sheet <name>          The workbook's sheet (default: the first)
  --json <file>           Write the tie-out as JSON
  --out <file>            Write the workpaper; its extension gives the format: ${RECONCILE_FORMATS.map((f) => `.${f}`).join(', ')}
  --rules-only            No model: the document's items are the IDs it prints where it announces an item
${SESSION_OPTIONS_HELP}
${ANALYSIS_OPTIONS_HELP}
  -h, --help              This help

Exit codes: 0 reconciled; 1 the document could not be analysed, the population not read, or a file not written; 2 usage errors (a column or sheet that is not there); 130 stopped.`;

const OPTIONS = {
  'key-column': { type: 'string' },
  'no-key': { type: 'boolean', default: false },
  'title-column': { type: 'string' },
  sheet: { type: 'string' },
  json: { type: 'string' },
  out: { type: 'string' },
  ...SESSION_OPTIONS,
  ...ANALYSIS_OPTIONS,
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export const EXIT = { ok: 0, failed: 1, usage: 2, cancelled: 130 } as const;

/** Errors the user fixes on the command line (another column or sheet name). */
const USAGE_CODES = new Set<string>(['POPULATION_COLUMN_NOT_FOUND', 'POPULATION_SHEET_NOT_FOUND']);

function usageError(message: string): number {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  return EXIT.usage;
}

function formatOf(file: string): ReconcileFormat | undefined {
  const ext = file.toLowerCase().split('.').pop();
  return RECONCILE_FORMATS.find((f) => f === (ext === 'markdown' ? 'md' : ext));
}

function failure(info: ErrorInfo): number {
  writeLines(process.stderr, `${info.code}: ${info.message}`);
  return USAGE_CODES.has(info.code) ? EXIT.usage : EXIT.failed;
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(argv, OPTIONS, USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 2) return usageError(`Give the document first, then the population file; got ${positionals.length} file(s).`);
  const [documentFile, populationFile] = positionals.map((file) => resolve(file)) as [string, string];
  for (const file of [documentFile, populationFile]) if (!existsSync(file)) return usageError(`FILE_NOT_FOUND: ${file} does not exist. Check the path.`);
  if (values['no-key'] && values['key-column'] !== undefined) return usageError('--no-key and --key-column contradict each other: give one.');
  const outputs: { file: string; format: ReconcileFormat; issueShape: boolean }[] = [];
  if (values.json !== undefined) outputs.push({ file: resolve(values.json), format: 'json', issueShape: true });
  if (values.out !== undefined) {
    const format = formatOf(values.out);
    if (!format) return usageError(`--out must end in ${RECONCILE_FORMATS.map((f) => `.${f}`).join(', ')}; got "${values.out}".`);
    outputs.push({ file: resolve(values.out), format, issueShape: false });
  }
  const chosen = await analysisSettings(values);
  if ('usage' in chosen) return usageError(chosen.usage);

  // The population is read before the document is analysed: a file that cannot be one is said at once, and nothing is stored.
  let population: Population;
  try {
    population = await readPopulation(
      { name: basename(populationFile), bytes: readFileSync(populationFile) },
      values.sheet === undefined ? {} : { sheet: values.sheet },
    );
    if (values['key-column'] !== undefined) resolveColumn(population, values['key-column'], 'key');
    if (values['title-column'] !== undefined) resolveColumn(population, values['title-column'], 'title');
  } catch (error) {
    return failure(toErrorInfo(error));
  }

  const session = openAnalysisSession(values);
  if (!session) return EXIT.usage;
  const { db, engine, logPath, progress, signal } = session;
  try {
    const outcome = await analyseOrReuse(engine, db, documentFile, {
      role: 'document',
      settings: chosen.settings,
      reanalyze: values.reanalyze,
      password: chosen.password,
      signal,
      progress,
    });
    if ('stopped' in outcome) {
      process.stderr.write('Stopped while analysing the document. Run the same command again: what was analysed is stored.\n');
      return EXIT.cancelled;
    }
    if ('failed' in outcome) {
      writeLines(process.stderr, outcome.failed);
      return EXIT.failed;
    }
    const stored: Population = { ...population, id: savePopulation(db, population, new Date().toISOString()) };
    const result = reconcileAndStore(db, {
      documentId: outcome.documentId,
      population: stored,
      ...(values['no-key'] ? { keyColumn: null } : values['key-column'] !== undefined ? { keyColumn: values['key-column'] } : {}),
      ...(values['title-column'] !== undefined ? { titleColumn: values['title-column'] } : {}),
      mode: values['rules-only'] ? 'rules-only' : 'auto',
    });
    for (const warning of warningsFor(result)) writeLines(process.stderr, warning);
    for (const output of outputs) {
      try {
        writeOutputFile(output.file, output.issueShape ? reconciliationJson(result) : await renderReconciliation(result, output.format));
      } catch (error) {
        const info = toErrorInfo(error, logPath);
        writeLines(process.stderr, `The ${output.format} tie-out could not be written to ${output.file}: ${info.code}: ${info.message}`);
        return EXIT.failed;
      }
    }
    writeLines(
      process.stdout,
      ...summaryLines(
        result,
        outputs.map((o) => o.file),
      ),
    );
    return EXIT.ok;
  } catch (error) {
    progress.done();
    return failure(toErrorInfo(error, logPath));
  } finally {
    await session.close();
  }
}

/** What the import left out, each with its code, for stderr. */
function warningsFor(r: Reconciliation): string[] {
  const out = r.population.duplicates.map(
    (d) =>
      `POPULATION_DUPLICATE_KEYS: key ${oneLine(d.key)} is on rows ${d.rows.join(', ')}; row ${d.rows[0]} is used, the others are left out. Fix the export if they are different items.`,
  );
  if (r.document.mode === 'rules-only' && r.counts.documentItems === 0) {
    out.push(
      `${r.document.file} prints no ID where it announces an item, so without a model's findings nothing of it can be matched by title. Run without --rules-only.`,
    );
  }
  return out;
}

function summaryLines(r: Reconciliation, written: string[]): string[] {
  const p = r.population;
  const lines = [
    `Reconciliation ${r.id}: ${oneLine(r.document.file)} against ${oneLine(p.file)} (key column: ${oneLine(p.keyColumn ?? 'none')}, title column: ${oneLine(p.titleColumn)})`,
    `  ${countsSentence(r.counts)}`,
    ...r.onlyInDocument.map(
      (d) => `  only in the document:   ${oneLine([d.finding.id, d.finding.title].filter(Boolean).join(' '))} (p. ${d.finding.page ?? '?'})`,
    ),
    ...r.onlyInPopulation.map((e) => `  only in the population: row ${e.row} ${oneLine([e.key, e.title].filter(Boolean).join(' '))}`),
    ...written.map((file) => `Written: ${file}`),
  ];
  return lines;
}

runIfEntryPoint(import.meta.filename, main);
