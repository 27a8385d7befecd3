/**
 * Generated audit reports (pdf-lib, real PDF text extraction) through the
 * whole pipeline against the simulator: planted totals that disagree with
 * the findings, and totals only the LLM call can read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { CompletenessVerdict } from '../../../shared/completeness';
import type { ProgressEvent } from '../../../shared/types';
import { getCompleteness, STATED_TOTALS_CHUNK_REF } from '../../../electron/engine/completeness';
import { listFindings } from '../../../electron/engine/extract';
import { listMergedFindings } from '../../../electron/engine/merge';
import { LISTED_ENTRY_TYPE } from '../../../shared/findings';
import { DATA_NOTICE } from '../../../electron/engine/llm';
import { listLlmCalls } from '../../../electron/engine/llm';
import { escapeMarkdown, REPORT_JSON_VERSION } from '../../../electron/engine/report';
import { makeTextPdf, writeFixture, type TextPdfSpec } from '../../fixtures/pdfFactory';
import { promptBlocks } from '../../fixtures/plantedFindings';
import { MODEL, pipelineHarness, type PipelineHarness } from '../pipeline/helpers';
import { FINDINGS, headingResponder, isStatedTotalsRequest, reportSpec } from './helpers';

const settings = {
  strategy: 'pages' as const,
  judge: false,
  llm: { models: { default: MODEL }, cache: false, desiredChunkTokens: 1500, replyTokens: 1024, maxInFlight: 1 },
};

let h: PipelineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function analyse(spec: TextPdfSpec, responder: Parameters<typeof headingResponder>[1] | undefined, findings = FINDINGS) {
  h = await pipelineHarness({ responder: headingResponder(findings, responder) });
  const file = writeFixture(join(h.dir, 'generated-report.pdf'), await makeTextPdf(spec));
  const events: ProgressEvent[] = [];
  const outcome = await h.engine.analyze([file], settings, { onProgress: (e) => events.push(e) });
  expect(outcome.run.status).toBe('done');
  const documentId = outcome.inputs[0]!.documentId!;
  const verdict = getCompleteness(h.db, outcome.run.id, documentId) as CompletenessVerdict;
  expect(verdict).not.toBeNull();
  return { runId: outcome.run.id, documentId, verdict, events };
}

describe('completeness on generated reports', () => {
  it('a report whose summary says Medium 2 while it lists and details one Medium finding is told it disagrees with itself, in the run and every report', async () => {
    const { runId, verdict, events } = await analyse(
      reportSpec(['Total High-Severity Issues 1', 'Total Medium-Severity Issues 2', 'Total Low-Severity Issues 1']),
      undefined,
    );
    expect(verdict.stated.map((c) => [c.label, c.count, c.page, c.source])).toEqual([
      ['High', 1, 1, 'rules'],
      ['Medium', 2, 1, 'rules'],
      ['Low', 1, 1, 'rules'],
    ]);
    expect(verdict.tallies).toEqual([
      { severity: 'High', stated: 1, listed: 1, found: 1 },
      { severity: 'Medium', stated: 2, listed: 1, found: 1 },
      { severity: 'Low', stated: 1, listed: 1, found: 1 },
    ]);
    expect(verdict.status).toBe('check');
    expect(verdict.places).toEqual([
      {
        kind: 'document-disagrees',
        page: 1,
        severity: 'Medium',
        message: 'The document disagrees with itself: it states Medium 2 on page 1, but its summary table (page 2) lists 1 Medium finding; 1 found.',
      },
    ]);
    // Every summary-table row found its finding.
    expect(verdict.listed.filter((e) => e.kind === 'summary-table').map((e) => e.findingIds.length)).toEqual([1, 1, 1]);

    // In the run: the progress message says it.
    expect(events.filter((e) => e.phase === 'completeness').map((e) => e.message)).toContain(
      `file 1 of 1: Check this place | p.1: ${verdict.places[0]!.message}`,
    );
    // In every report format.
    const markdown = h!.engine.markdownReport(runId);
    expect(markdown).toContain('### Completeness: Check this place');
    expect(markdown).toContain('| Medium | Medium 2 (p. 1) | 1 | 1 (differs) |');
    expect(markdown).toContain(`- Page 1: ${escapeMarkdown(verdict.places[0]!.message)}`);
    const html = (await h!.engine.exportReport(runId, 'html')) as string;
    expect(html).toContain('<h3>Completeness: Check this place</h3>');
    expect(html).toContain('<li data-kind="document-disagrees"><span class="page">Page 1</span>: The document disagrees with itself');
    const json = JSON.parse(h!.engine.jsonReport(runId)) as { version: number; inputs: { document: { completeness: CompletenessVerdict } }[] };
    expect(json.version).toBe(REPORT_JSON_VERSION);
    expect(json.inputs[0]!.document.completeness).toEqual(verdict);
    const csv = (await h!.engine.exportReport(runId, 'csv')) as string;
    expect(csv.split('\r\n')[0]).toMatch(/,listed_as,document_completeness$/);
    expect(csv).toContain('summary table row 2 (p. 2),Check this place');
  });

  it('the summary table is read by the rules: no extraction prompt shows its rows, the model writes each finding once, and each row is a source of its finding', async () => {
    const { runId, documentId, verdict } = await analyse(
      reportSpec(['Total High-Severity Issues 1', 'Total Medium-Severity Issues 1', 'Total Low-Severity Issues 1']),
      undefined,
    );
    expect(verdict.status).toBe('complete');
    const rows = verdict.listed.filter((e) => e.kind === 'summary-table');
    expect(rows.map((e) => e.number)).toEqual(['1', '2', '3']);
    const prompts = h!.sim.requests
      .filter((r) => (r.format as { properties?: Record<string, unknown> } | null)?.properties?.findings)
      .map((r) => promptBlocks(r).chunk ?? '');
    expect(prompts.length).toBeGreaterThan(0);
    for (const row of rows)
      expect(
        prompts.some((p) => p.includes(row.text)),
        row.text,
      ).toBe(false);
    expect(prompts.some((p) => p.includes('[summary table of findings, 3 entries: read without you, not shown]'))).toBe(true);
    // Stored: the model's three entries and the rules' three rows; merged: three findings, each with its row and its section.
    const stored = listFindings(h!.db, runId, documentId);
    expect(stored.filter((f) => f.type === LISTED_ENTRY_TYPE).map((f) => f.printedNumber)).toEqual(['1', '2', '3']);
    expect(stored.filter((f) => f.type !== LISTED_ENTRY_TYPE)).toHaveLength(3);
    const merged = listMergedFindings(h!.db, runId, documentId);
    expect(merged.map((m) => [m.title, m.type, m.mainPage, m.sources.map((s) => s.page).sort()])).toEqual([
      ['SQL injection in the report export', 'vulnerability', 3, [2, 3]],
      ['Missing CSRF token on the settings form', 'vulnerability', 3, [2, 3]],
      ['Weak password policy for operators', 'vulnerability', 4, [2, 4]],
    ]);
  });

  it('with one finding missed by the model, the verdict names its severity, its summary-table row and page', async () => {
    // The missed finding's title carries markup: the reports show it as text.
    const lowTitle = 'Weak password policy for <b onmouseover="x()">operators</b>';
    const spec = reportSpec(['Total High-Severity Issues 1', 'Total Medium-Severity Issues 1', 'Total Low-Severity Issues 1'], { lowTitle });
    const { runId, verdict } = await analyse(
      spec,
      undefined,
      FINDINGS.filter((f) => f.severity !== 'Low'),
    );
    expect(verdict.headline).toBe('Check these 2 places');
    // The row that names the missed finding comes first, then the count it leaves short.
    expect(verdict.places.map((p) => [p.kind, p.severity, p.page])).toEqual([
      ['entry-without-finding', 'Low', 2],
      ['stated-vs-found', 'Low', 1],
    ]);
    expect(verdict.places[0]!.message).toBe(
      `Summary table row 3 on page 2, "${lowTitle}" (Low), matches no finding reported from the text (at most its own row was read).`,
    );
    const html = (await h!.engine.exportReport(runId, 'html')) as string;
    expect(html).toContain(
      'Summary table row 3 on page 2, &quot;Weak password policy for &lt;b onmouseover=&quot;x()&quot;&gt;operators&lt;/b&gt;&quot; (Low)',
    );
    expect(html).not.toContain('<b onmouseover');
    expect(h!.engine.markdownReport(runId)).not.toContain('<b onmouseover');
  });

  it('reads totals the rules cannot with one LLM call on the summary parts, delimited as data, and keeps only counts its quotes show', async () => {
    let seen: { system: string; user: string } | undefined;
    const { runId, documentId, verdict } = await analyse(
      reportSpec(['Of the findings, one was rated high, one was', 'rated medium and one was rated low.']),
      (req) => {
        seen = promptBlocks(req);
        return JSON.stringify({
          counts: [
            { label: 'High', count: 1, quote: 'one was rated high' },
            { label: 'Medium', count: 1, quote: 'one was rated medium' },
            { label: 'Low', count: 1, quote: 'one was rated low' },
            // Not in the document: dropped.
            { label: 'Critical', count: 2, quote: 'two were rated critical' },
          ],
        });
      },
    );
    expect(seen!.system).toContain(DATA_NOTICE);
    expect(seen!.user).toMatch(/<<<DOCUMENT [^>]*label=summary-parts[^>]*>>>\n\[page 1\]\nExecutive Summary/);
    expect(verdict.usedLlm).toBe(true);
    expect(verdict.stated.map((c) => [c.label, c.count, c.page, c.source])).toEqual([
      ['High', 1, 1, 'llm'],
      ['Medium', 1, 1, 'llm'],
      ['Low', 1, 1, 'llm'],
    ]);
    expect(verdict.stated[1]!.text).toBe('one was rated medium');
    expect(verdict.status).toBe('complete');
    const calls = listLlmCalls(h!.db, { runId }).filter((c) => c.chunkRef === STATED_TOTALS_CHUNK_REF);
    expect(calls.map((c) => c.documentId)).toEqual([documentId]);
  });

  it('a report that states no totals, and a model that invents counts: no count kept; its summary table, all found, makes it complete', async () => {
    // A number next to a severity word that is no total ("2 of the High ..."): the text could state a count, so it is asked.
    const { verdict } = await analyse(reportSpec(['Release 2 of the High availability module was reviewed.']), () =>
      JSON.stringify({ counts: [{ label: 'High', count: 3, quote: 'three high-severity issues' }] }),
    );
    expect(verdict.stated).toEqual([]);
    expect(verdict.listed.filter((e) => e.kind === 'summary-table').map((e) => e.findingIds.length)).toEqual([1, 1, 1]);
    expect(verdict.places).toEqual([]);
    expect(verdict.status).toBe('complete');
    expect(verdict.headline).toBe('Complete');
    expect(h!.sim.requests.filter(isStatedTotalsRequest)).toHaveLength(1);
  });

  it('a detailed section the model skipped in the middle of its list is asked for again by its recorded line, and found', async () => {
    const skipped = FINDINGS[1]!;
    const asked: string[] = [];
    h = await pipelineHarness({
      responder: (req) => {
        const { user, recorded } = promptBlocks(req);
        const followUp = /were not given:\n([\s\S]*?)\nThe DOCUMENT block/.exec(user)?.[1];
        if (!followUp) return headingResponder(FINDINGS.filter((f) => f !== skipped))(req);
        // Asked again: the model gives the section by its line number in the RECORDED FINDINGS block.
        asked.push(followUp);
        const line = (recorded ?? '').split('\n').find((l) => l.includes(skipped.title))!;
        return JSON.stringify({ recorded: [Number(/^\[(\d+)\]/.exec(line)![1])], findings: [], summary: 'The skipped section.' });
      },
    });
    const file = writeFixture(
      join(h.dir, 'generated-report.pdf'),
      await makeTextPdf(reportSpec(['Total High-Severity Issues 1', 'Total Medium-Severity Issues 1', 'Total Low-Severity Issues 1'])),
    );
    const outcome = await h.engine.analyze([file], settings);
    const documentId = outcome.inputs[0]!.documentId!;
    // One follow-up named the skipped section only, by its line.
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^\[\d+\] 2 Missing CSRF token on the settings form$/);
    const merged = listMergedFindings(h.db, outcome.run.id, documentId);
    const csrf = merged.find((m) => m.title === skipped.title)!;
    // Read from its detailed section (its heading the evidence, page 3), joined with its summary-table row.
    expect(csrf.mainPage).toBe(3);
    expect(csrf.type).not.toBe(LISTED_ENTRY_TYPE);
    const verdict = getCompleteness(h.db, outcome.run.id, documentId) as CompletenessVerdict;
    expect(verdict.places).toEqual([]);
    expect(verdict.status).toBe('complete');
  });

  it('a report whose summary parts print no number next to a severity word or "total" is not sent: no count could be quoted', async () => {
    const { verdict } = await analyse(reportSpec(['The team was responsive.']), () =>
      JSON.stringify({ counts: [{ label: 'High', count: 3, quote: 'three high-severity issues' }] }),
    );
    expect(h!.sim.requests.filter(isStatedTotalsRequest)).toHaveLength(0);
    expect(verdict.stated).toEqual([]);
    expect(verdict.usedLlm).toBe(false);
    expect(verdict.status).toBe('complete');
  });
});
