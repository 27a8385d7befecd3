/**
 * Re-audit comparison from a terminal: two versions of a report (an audit and
 * its fix review, two rounds), each analysed (or its stored analysis reused),
 * their findings paired and labelled, with the status the later one states.
 *   npm run compare -- <earlier> <later> [--json out.json] [--out report.md|.html|.pdf|.csv|.json] [analyze's model options] [--rules-only]
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { COMPARE_FORMATS, COMPARE_LABEL_TEXT, modelStatusText, type Comparison } from '../../shared/compare';
import { toErrorInfo } from '../../shared/errors';
import { writeOutputFile } from '../engine';
import {
  compareDocuments,
  readStatusesWithModel,
  renderComparison,
  saveComparison,
  statusesLeftUnread,
  statusModelFor,
  type CompareFormat,
} from '../engine/compare';
import { createLlmClient } from '../engine/llm';
import type { Database } from '../engine/store';
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

const FORMATS: readonly CompareFormat[] = COMPARE_FORMATS;

const USAGE = `Usage: npm run compare -- <earlier.pdf> <later.pdf> [options]

Compares two versions of a report (an audit and its fix review, two rounds of
a report, last year's and this year's audit): each is analysed like
\`npm run analyze\` does (or its stored analysis is reused), their findings are
paired (by printed ID; else printed number and title; else title and evidence,
never between sibling findings), labelled (still present, no longer present,
new, severity changed, title changed) with each side's quote and page, and the
status the later document states for each ("Status: Resolved", a fix-review
table...) is shown in its own words. Unsure pairs are listed as candidates.

Options:
  --json <file>           Write the comparison as JSON (schema: docs/compare.schema.json)
  --out <file>            Write the comparison report; its extension gives the format: .md, .html, .pdf, .csv, .json
  --rules-only            No model: pair by the IDs the documents print, read statuses by the rules
${SESSION_OPTIONS_HELP}
${ANALYSIS_OPTIONS_HELP}
  -h, --help              This help

Exit codes: 0 compared; 1 a file could not be analysed or a report not written; 2 usage errors; 130 stopped.`;

const OPTIONS = {
  json: { type: 'string' },
  out: { type: 'string' },
  ...SESSION_OPTIONS,
  ...ANALYSIS_OPTIONS,
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export const EXIT = { ok: 0, failed: 1, usage: 2, cancelled: 130 } as const;

function usageError(message: string): number {
  writeLines(process.stderr, message);
  process.stderr.write(`\n${USAGE}\n`);
  return EXIT.usage;
}

function formatOf(file: string): CompareFormat | undefined {
  const ext = file.toLowerCase().split('.').pop();
  return FORMATS.find((f) => f === (ext === 'markdown' ? 'md' : ext));
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(argv, OPTIONS, USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 2) return usageError(`Give exactly two files, the earlier version first; got ${positionals.length}.`);
  const files = positionals.map((file) => resolve(file));
  for (const file of files) if (!existsSync(file)) return usageError(`FILE_NOT_FOUND: ${file} does not exist. Check the path.`);
  if (files[0] === files[1]) return usageError('COMPARE_SAME_DOCUMENT: the earlier and the later file are the same file: give two versions of a report.');
  const outputs: { file: string; format: CompareFormat }[] = [];
  if (values.json !== undefined) outputs.push({ file: resolve(values.json), format: 'json' });
  if (values.out !== undefined) {
    const format = formatOf(values.out);
    if (!format) return usageError(`--out must end in ${FORMATS.map((f) => `.${f}`).join(', ')}; got "${values.out}".`);
    outputs.push({ file: resolve(values.out), format });
  }
  const chosen = await analysisSettings(values);
  if ('usage' in chosen) return usageError(chosen.usage);
  const { settings, numCtx, password } = chosen;
  const rulesOnly = values['rules-only'];

  const session = openAnalysisSession(values);
  if (!session) return EXIT.usage;
  const { db, engine, logPath, progress, signal } = session;
  try {
    const documentIds: number[] = [];
    for (const [i, file] of files.entries()) {
      const role = i === 0 ? 'earlier' : 'later';
      const outcome = await analyseOrReuse(engine, db, file, { role, settings, reanalyze: values.reanalyze, password, signal, progress });
      if ('stopped' in outcome) {
        writeLines(process.stderr, `Stopped while analysing the ${role} file. Run the same command again: what was analysed is stored.`);
        return EXIT.cancelled;
      }
      if ('failed' in outcome) {
        writeLines(process.stderr, `${outcome.failed}`);
        return EXIT.failed;
      }
      documentIds.push(outcome.documentId);
    }
    let comparison: Comparison = compareDocuments(db, {
      earlierDocumentId: documentIds[0]!,
      laterDocumentId: documentIds[1]!,
      mode: rulesOnly ? 'rules-only' : 'auto',
    });
    if (!rulesOnly && statusesLeftUnread(comparison)) {
      comparison = await statusesByModel(db, comparison, { host: values.host, model: values.model, numCtx, cache: !values['no-cache'], signal });
    }
    for (const side of ['earlier', 'later'] as const) {
      const ref = comparison[side];
      if (ref.mode === 'rules-only' && !comparison.pairs.some((p) => p[side] !== null)) {
        writeLines(
          process.stderr,
          `The ${side} file ${ref.file} prints no finding ID where it announces a finding, so without a model's findings nothing of it can be paired. Run without --rules-only to compare by number, title and evidence.`,
        );
      }
    }
    comparison.id = saveComparison(db, comparison);
    for (const output of outputs) {
      try {
        writeOutputFile(output.file, await renderComparison(comparison, output.format));
      } catch (error) {
        const info = toErrorInfo(error, logPath);
        writeLines(process.stderr, `The ${output.format} comparison could not be written to ${output.file}: ${info.code}: ${info.message}`);
        return EXIT.failed;
      }
    }
    process.stdout.write(
      summaryText(
        comparison,
        outputs.map((o) => o.file),
      ),
    );
    return EXIT.ok;
  } catch (error) {
    progress.done();
    const info = toErrorInfo(error, logPath);
    writeLines(process.stderr, `${info.code}: ${info.message}`);
    return EXIT.failed;
  } finally {
    await session.close();
  }
}

/**
 * The statuses the rules did not read, by one grounded model call with the model that analysed the later
 * document (or --model); a failed call is said and the comparison kept as the rules read it.
 */
async function statusesByModel(
  db: Database,
  comparison: Comparison,
  options: { host: string | undefined; model: string | undefined; numCtx: number | undefined; cache: boolean; signal: AbortSignal },
): Promise<Comparison> {
  const chosen = statusModelFor(db, comparison, { model: options.model, numCtx: options.numCtx });
  if (!chosen) {
    process.stderr.write('Statuses the rules could not read are left unread: name a model with --model to read them.\n');
    return comparison;
  }
  const llm = createLlmClient({ db, ...(options.host ? { host: options.host } : {}), settings: { cache: options.cache } });
  try {
    const result = await readStatusesWithModel(db, comparison, { llm, ...chosen, cache: options.cache, signal: options.signal });
    if (result.comparison.modelStatus) writeLines(process.stderr, `${modelStatusText(result.comparison.modelStatus)}`);
    return result.comparison;
  } finally {
    await llm.close();
  }
}

function summaryText(c: Comparison, written: string[]): string {
  const s = c.summary;
  const lines = [
    `Comparison ${c.id}: ${c.earlier.file} (earlier) -> ${c.later.file} (later)`,
    `  resolved ${s.resolved}, still open ${s.stillOpen}, no longer present ${s.noLongerPresent}, new ${s.new}, severity changed ${s.severityChanged}, candidates ${s.candidates}`,
  ];
  for (const p of c.pairs) {
    const name = (side: typeof p.earlier) => (side ? [side.id, side.title].filter(Boolean).join(' ') : '-');
    lines.push(`  ${COMPARE_LABEL_TEXT[p.label].padEnd(18)} ${name(p.earlier)} -> ${name(p.later)}${p.statedStatus ? `  [${p.statedStatus.text}]` : ''}`);
  }
  for (const file of written) lines.push(`Written: ${file}`);
  // Titles and file names come from the documents: one line each, control characters escaped.
  return `${lines.map(oneLine).join('\n')}\n`;
}

runIfEntryPoint(import.meta.filename, main);
