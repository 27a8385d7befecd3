/**
 * The tie-out in each export format: Markdown and HTML lay out the report
 * model (reportModel.ts) and escape every string; the PDF is that HTML printed
 * by Chromium (as the audit report is); CSV and JSON export the lists
 * themselves (CSV cells that could start a formula are disarmed as the audit
 * report's are); XLSX is the workpaper (workpaper.ts).
 *
 * JSON: `{document: {file}, population: {file, rows, key_column, title_column},
 * matched: [{row, key, title, finding: {id, title, page}, by, score}],
 * only_in_document: [{id, title, page}], only_in_population: [{row, key,
 * title}]}` (issue 41); the workpaper's JSON adds each entry's review.
 */
import type { Reconciliation, ReconcileFormat } from '../../../shared/reconcile';
import { csvCell, escapeMarkdown, html, renderPdfWithChromium, type SafeHtml } from '../report';
import { buildReconcileModel, itemText, reasonText, reviewText, type ReconcileListModel } from './reportModel';
import { workpaperXlsx } from './workpaper';

export function reconciliationMarkdown(r: Reconciliation): string {
  const md = escapeMarkdown;
  const model = buildReconcileModel(r);
  const out = [`# ${md(model.title)}`, '', ...model.facts.map((f) => `- ${md(f.label)}: ${md(f.value)}`), '', md(model.counts), ''];
  out.push(`Tick marks: ${model.legend.map((l) => `${l.mark} ${md(l.text)}`).join('; ')}.`, '');
  for (const w of model.warnings) out.push(`- ${md(w)}`);
  for (const list of model.lists) {
    out.push('', `## ${md(list.heading)}`, '', md(list.note), '');
    if (list.rows.length === 0) {
      out.push(md(list.empty));
      continue;
    }
    out.push(`| ${list.head.map(md).join(' | ')} |`, `|${list.head.map(() => '---').join('|')}|`);
    for (const row of list.rows) out.push(`| ${[row.mark, ...row.cells].map(md).join(' | ')} |`);
  }
  return `${out.join('\n')}\n`;
}

function listHtml(list: ReconcileListModel): SafeHtml {
  const body =
    list.rows.length === 0
      ? html`<p class="empty">${list.empty}</p>`
      : html`<table class="${list.key}"><thead><tr>${list.head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>
${list.rows.map((row) => html`<tr${row.page !== null ? html` data-page="${row.page}"` : null}><td class="tick" aria-label="tick mark">${row.mark}</td>${row.cells.map((c) => html`<td>${c}</td>`)}</tr>\n`)}</tbody></table>`;
  return html`<section id="${list.key}"><h2>${list.heading}</h2><p class="note">${list.note}</p>${body}</section>`;
}

export function reconciliationHtml(r: Reconciliation): string {
  const model = buildReconcileModel(r);
  const body = html`<h1>${model.title}</h1>
<dl class="meta">${model.facts.map((f) => html`<dt>${f.label}</dt><dd>${f.value}</dd>`)}</dl>
<p class="counts"><strong>${model.counts}</strong></p>
<p class="legend">Tick marks: ${model.legend.map((l, i) => html`${i > 0 ? '; ' : null}<span class="tick">${l.mark}</span> ${l.text}`)}.</p>
${model.warnings.length > 0 ? html`<ul class="warnings">${model.warnings.map((w) => html`<li>${w}</li>`)}</ul>` : null}
${model.lists.map(listHtml)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${html`${model.title}`.value}</title>
<style>body{font:13px/1.4 system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin:.5em 0 1.5em;width:100%}td,th{border:1px solid #999;padding:3px 5px;vertical-align:top;text-align:left}th{background:#eee}.tick{font-weight:bold;text-align:center;width:1.5em}.only-in-document .tick,.only-in-population .tick{color:#a00}.matched .tick{color:#060}.note{color:#444}dl.meta{display:grid;grid-template-columns:max-content auto;gap:2px 12px}dt{font-weight:bold}dd{margin:0}@media print{tr{break-inside:avoid}}</style>
</head><body>${body.value}</body></html>
`;
}

const CSV_HEAD = ['list', 'row', 'key', 'title', 'finding_id', 'finding_title', 'page', 'by', 'score', 'review_state', 'review'];

/** One line per entry of the three lists, then the population's own columns. */
export function reconciliationCsv(r: Reconciliation): string {
  const own = r.population.columns;
  const lines = [[...CSV_HEAD, ...own.map((c) => `population: ${c}`)].map(csvCell).join(',')];
  const line = (cells: (string | number | null)[], populationCells: readonly string[]) =>
    lines.push([...cells, ...own.map((_, i) => populationCells[i] ?? '')].map(csvCell).join(','));
  for (const m of r.matched)
    line(['matched', m.row, m.key, m.title, m.finding.id, m.finding.title, m.finding.page, m.by, m.score, m.review.state, reviewText(m.review)], m.cells);
  for (const d of r.onlyInDocument)
    line(['only_in_document', null, null, null, d.finding.id, d.finding.title, d.finding.page, null, null, d.review.state, reviewText(d.review)], []);
  for (const p of r.onlyInPopulation)
    line(['only_in_population', p.row, p.key, p.title, null, null, null, null, null, p.review.state, reviewText(p.review)], p.cells);
  return `${lines.join('\r\n')}\r\n`;
}

/** The issue's JSON; with `workpaper`, each entry also carries its review and the population what the import left out. */
export function reconciliationJsonValue(r: Reconciliation, options: { workpaper?: boolean } = {}): unknown {
  const review = (e: { review: Reconciliation['matched'][number]['review'] }) => (options.workpaper ? { review: e.review } : {});
  return {
    document: { file: r.document.file },
    population: {
      file: r.population.file,
      rows: r.population.rows,
      key_column: r.population.keyColumn,
      title_column: r.population.titleColumn,
      ...(options.workpaper
        ? { sheet: r.population.sheet, header_row: r.population.headerRow, duplicates: r.population.duplicates, skipped: r.population.skipped }
        : {}),
    },
    matched: r.matched.map((m) => ({
      row: m.row,
      key: m.key,
      title: m.title,
      finding: { id: m.finding.id, title: m.finding.title, page: m.finding.page },
      by: m.by,
      score: m.score,
      ...review(m),
    })),
    only_in_document: r.onlyInDocument.map((d) => ({ id: d.finding.id, title: d.finding.title, page: d.finding.page, ...review(d) })),
    only_in_population: r.onlyInPopulation.map((p) => ({ row: p.row, key: p.key, title: p.title, ...review(p) })),
    ...(options.workpaper ? { counts: r.counts } : {}),
  };
}

export function reconciliationJson(r: Reconciliation, options: { workpaper?: boolean } = {}): string {
  return `${JSON.stringify(reconciliationJsonValue(r, options), null, 2)}\n`;
}

export type PdfPrinter = (html: string) => Promise<Buffer>;

export async function renderReconciliation(
  r: Reconciliation,
  format: ReconcileFormat,
  print: PdfPrinter = (page) => renderPdfWithChromium(page, { footerLabel: 'Tie-out' }),
): Promise<string | Buffer> {
  switch (format) {
    case 'md':
      return reconciliationMarkdown(r);
    case 'html':
      return reconciliationHtml(r);
    case 'csv':
      return reconciliationCsv(r);
    case 'json':
      return reconciliationJson(r, { workpaper: true });
    case 'pdf':
      return print(reconciliationHtml(r));
    case 'xlsx':
      return workpaperXlsx(r);
  }
}

export { itemText, reasonText };
