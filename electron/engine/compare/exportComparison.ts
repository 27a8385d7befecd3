/**
 * The comparison report in Markdown, HTML (one self-contained page, every
 * word from the documents escaped), PDF (that HTML printed by headless
 * Chromium, as the audit report is), CSV (one row per pair) and JSON (schema:
 * docs/compare.schema.json). Every format leads with the summary, counted from
 * the pairs listed below it, and gives each side's quote and page.
 */
import {
  COMPARE_JSON_VERSION,
  type CompareFormat,
  COMPARE_LABEL_TEXT,
  type CompareCandidate,
  type ComparePair,
  type CompareSide,
  type Comparison,
  type StatedStatus,
} from '../../../shared/compare';
import { csvCell, escapeMarkdown, html, renderPdfWithChromium, type SafeHtml } from '../report';

export type { CompareFormat };

const pagesText = (side: CompareSide) => (side.pages.length === 0 ? '' : side.pages.length === 1 ? `p. ${side.pages[0]}` : `pp. ${side.pages.join(', ')}`);
const sideName = (side: CompareSide) => [side.id, side.number && !side.id ? `#${side.number}` : null, side.title].filter(Boolean).join(' ');
const statusText = (s: StatedStatus | null) => (s ? `"${s.text}" (p. ${s.page}: "${s.quote}")` : '');

function summaryLines(c: Comparison): [string, number][] {
  return [
    ['Resolved (as the later document states)', c.summary.resolved],
    ['Still open', c.summary.stillOpen],
    ['No longer present', c.summary.noLongerPresent],
    ['New', c.summary.new],
    ['Severity changed', c.summary.severityChanged],
    ['Candidate pairs for the auditor', c.summary.candidates],
  ];
}

function candidateText(c: Comparison, cand: CompareCandidate): string {
  const e = c.pairs[cand.earlierIndex]?.earlier;
  const l = c.pairs[cand.laterIndex]?.later;
  return `${e ? sideName(e) : '?'} ↔ ${l ? sideName(l) : '?'} (${Math.round(cand.score * 100)}%): ${cand.reason}${cand.decision ? ` [${cand.decision}]` : ''}`;
}

export function comparisonMarkdown(c: Comparison): string {
  const md = escapeMarkdown;
  const out: string[] = [
    `# Re-audit comparison`,
    '',
    `Earlier: ${md(c.earlier.file)} (run ${c.earlier.runId}, ${c.earlier.mode})  `,
    `Later: ${md(c.later.file)} (run ${c.later.runId}, ${c.later.mode})`,
    '',
  ];
  out.push('| | count |', '| --- | --- |', ...summaryLines(c).map(([k, v]) => `| ${k} | ${v} |`), '');
  for (const ref of [c.earlier, c.later]) {
    if (ref.ungroundedFindings > 0)
      out.push(`${md(ref.file)}: ${ref.ungroundedFindings} finding(s) left out because their evidence was not found in the text.`, '');
  }
  out.push("| label | stated status (the later document's words) | earlier | later |", '| --- | --- | --- | --- |');
  const sideCell = (s: CompareSide | null) => (s ? `${md(sideName(s))}${s.severity ? ` (${md(s.severity)})` : ''}, ${pagesText(s)}: "${md(s.quote)}"` : '—');
  for (const p of c.pairs) {
    const notes = p.notes.length > 0 ? `<br>Notes: ${p.notes.map((n) => `${md(n.reviewer)}: ${md(n.text)}`).join('; ')}` : '';
    out.push(`| ${COMPARE_LABEL_TEXT[p.label]} | ${md(statusText(p.statedStatus))} | ${sideCell(p.earlier)}${notes} | ${sideCell(p.later)} |`);
  }
  if (c.candidates.length > 0) {
    out.push('', '## Candidate pairs (unsure: the auditor confirms or rejects)', '');
    for (const cand of c.candidates) out.push(`- ${md(candidateText(c, cand))}`);
  }
  return `${out.join('\n')}\n`;
}

function sideHtml(s: CompareSide | null): SafeHtml {
  if (!s) return html`<td class="none">—</td>`;
  return html`<td><strong>${sideName(s)}</strong>${s.severity ? html` <span class="sev">(${s.severity})</span>` : null}<br><span class="page">${pagesText(s)}</span><blockquote>${s.quote}</blockquote></td>`;
}

function pairRowHtml(p: ComparePair): SafeHtml {
  const status = p.statedStatus
    ? html`<span class="status">“${p.statedStatus.text}”</span><br><small>p. ${p.statedStatus.page}: ${p.statedStatus.quote}</small>`
    : null;
  const notes = p.notes.length > 0 ? html`<ul class="notes">${p.notes.map((n) => html`<li>${n.reviewer}: ${n.text}</li>`)}</ul>` : null;
  return html`<tr class="${p.label}"><td>${COMPARE_LABEL_TEXT[p.label]}</td><td>${status}</td>${sideHtml(p.earlier)}${sideHtml(p.later)}<td>${notes}</td></tr>`;
}

export function comparisonHtml(c: Comparison): string {
  const body = html`<h1>Re-audit comparison</h1>
<p>Earlier: <strong>${c.earlier.file}</strong> (run ${c.earlier.runId}, ${c.earlier.mode})<br>Later: <strong>${c.later.file}</strong> (run ${c.later.runId}, ${c.later.mode})</p>
<table class="summary">${summaryLines(c).map(([k, v]) => html`<tr><th>${k}</th><td>${v}</td></tr>`)}</table>
<table class="pairs"><thead><tr><th>Label</th><th>Stated status (the later document's words)</th><th>Earlier</th><th>Later</th><th>Auditor notes</th></tr></thead>
<tbody>${c.pairs.map(pairRowHtml)}</tbody></table>
${c.candidates.length > 0 ? html`<h2>Candidate pairs (unsure: the auditor confirms or rejects)</h2><ul>${c.candidates.map((cand) => html`<li>${candidateText(c, cand)}</li>`)}</ul>` : null}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Re-audit comparison</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #999;padding:4px 6px;vertical-align:top;text-align:left}blockquote{margin:4px 0;color:#333;font-style:italic}.status{font-weight:bold}</style>
</head><body>${body.value}</body></html>
`;
}

const CSV_HEADER = [
  'label',
  'stated_status',
  'status_category',
  'status_page',
  'status_quote',
  'earlier_id',
  'earlier_title',
  'earlier_severity',
  'earlier_pages',
  'earlier_quote',
  'later_id',
  'later_title',
  'later_severity',
  'later_pages',
  'later_quote',
  'rule',
  'notes',
];

export function comparisonCsv(c: Comparison): string {
  const side = (s: CompareSide | null) => [s?.id ?? null, s?.title ?? null, s?.severity ?? null, s ? s.pages.join(' ') : null, s?.quote ?? null];
  const rows = c.pairs.map((p) =>
    [
      p.label,
      p.statedStatus?.text ?? null,
      p.statedStatus?.category ?? null,
      p.statedStatus?.page ?? null,
      p.statedStatus?.quote ?? null,
      ...side(p.earlier),
      ...side(p.later),
      p.rule,
      p.notes.map((n) => `${n.reviewer}: ${n.text}`).join('\n') || null,
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[CSV_HEADER.join(','), ...rows].join('\r\n')}\r\n`;
}

const jsonSide = (s: CompareSide | null) =>
  s && { id: s.id, number: s.number, title: s.title, severity: s.severity, pages: s.pages, quote: s.quote, page: s.page };

/** The JSON export (docs/compare.schema.json): `stated_status` keeps the name the issue gives it. */
export function comparisonJson(c: Comparison): string {
  return `${JSON.stringify(
    {
      version: COMPARE_JSON_VERSION,
      earlier: {
        file: c.earlier.file,
        sha256: c.earlier.sha256,
        runId: c.earlier.runId,
        mode: c.earlier.mode,
        ungroundedFindings: c.earlier.ungroundedFindings,
      },
      later: { file: c.later.file, sha256: c.later.sha256, runId: c.later.runId, mode: c.later.mode, ungroundedFindings: c.later.ungroundedFindings },
      summary: c.summary,
      pairs: c.pairs.map((p) => ({
        earlier: jsonSide(p.earlier),
        later: jsonSide(p.later),
        label: p.label,
        changes: p.changes,
        rule: p.rule,
        score: p.score,
        stated_status: p.statedStatus && {
          text: p.statedStatus.text,
          category: p.statedStatus.category,
          quote: p.statedStatus.quote,
          page: p.statedStatus.page,
          source: p.statedStatus.source,
        },
        notes: p.notes,
      })),
      candidates: c.candidates.map((cand) => ({
        earlierPair: cand.earlierIndex,
        laterPair: cand.laterIndex,
        reason: cand.reason,
        score: cand.score,
        decision: cand.decision,
      })),
      model_status: c.modelStatus ?? null,
    },
    null,
    2,
  )}\n`;
}

export async function renderComparison(
  c: Comparison,
  format: CompareFormat,
  print: (html: string) => Promise<Buffer> = (page) => renderPdfWithChromium(page, { footerLabel: 'Re-audit comparison' }),
): Promise<string | Buffer> {
  switch (format) {
    case 'md':
      return comparisonMarkdown(c);
    case 'html':
      return comparisonHtml(c);
    case 'csv':
      return comparisonCsv(c);
    case 'json':
      return comparisonJson(c);
    case 'pdf':
      return print(comparisonHtml(c));
  }
}
