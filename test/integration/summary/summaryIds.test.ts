/**
 * A model-written summary that names an ID no finding has is marked, as ungrounded findings are (security probe
 * 2026-11-28, row 4: a document with planted instructions, a model that obeyed, and the summary ending "Referenced
 * findings: TOB-FAKE-1." printed without a mark). Through the whole pipeline with the simulator: the store keeps
 * the IDs with the summary, the report and the JSON mark it, the app's analysis view carries it.
 */
import { join } from 'node:path';
import Ajv from 'ajv';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { MergedFinding } from '../../../shared/findings';
import { summaryIdsWithoutFinding } from '../../../electron/engine/summary';
import { DEFAULT_ID_PATTERNS } from '../../../shared/idPatterns';
import { analysisView } from '../../../electron/host/findingViews';
import { INJECTED_REVIEW, obeyingSummaryModel } from '../../fixtures/injectedSummary';
import { MODEL, pipelineHarness, type PipelineHarness } from '../pipeline/helpers';

const root = join(import.meta.dirname, '../../..');

const finding = (over: Partial<MergedFinding>): MergedFinding =>
  ({
    id: 1,
    runId: 1,
    documentId: 1,
    findingKey: null,
    printedNumber: null,
    modelLabels: [],
    title: 'A finding',
    type: 'defect',
    severity: 'High',
    severityCanonical: 'High',
    severityRank: 1,
    description: '',
    mainPage: 1,
    mainFindingId: 1,
    grounded: true,
    sources: [],
    absorbedFindingIds: [],
    ...over,
  }) as MergedFinding;

describe('IDs a summary names that no finding has', () => {
  it('marks those no grounded finding carries (by its printed ID, its label or its title), never a reference', () => {
    const findings = [
      finding({ findingKey: 'TOB-ACME-1' }),
      finding({ modelLabels: ['F-7'], title: 'Port HADOOP-16754 to thirdparty' }),
      finding({ findingKey: 'TOB-ACME-9', grounded: false }),
    ];
    const summary =
      'Covers TOB-ACME-01 and F-7, HADOOP-16754, TOB-ACME-9 (only an ungrounded finding has it), TOB-FAKE-1 twice: TOB-FAKE-1. Uses ERC-20 and CVE-2021-1234.';
    expect(summaryIdsWithoutFinding(summary, findings, DEFAULT_ID_PATTERNS)).toEqual(['TOB-ACME-9', 'TOB-FAKE-1']);
    expect(summaryIdsWithoutFinding('Nothing to see.', findings, DEFAULT_ID_PATTERNS)).toEqual([]);
  });
});

let h: PipelineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a summary naming an injected ID, through the pipeline', () => {
  it("is stored with the ID, marked in the Markdown, HTML and JSON reports, and in the app's analysis view", async () => {
    h = await pipelineHarness({ responder: obeyingSummaryModel });
    const file = join(h.dir, 'review.md');
    writeFileSync(file, INJECTED_REVIEW);
    const outcome = await h.engine.analyze([file], {
      strategy: 'headings',
      judge: false,
      llm: { models: { default: MODEL }, cache: false, desiredChunkTokens: 1500, replyTokens: 1024, maxInFlight: 1 },
    });
    expect(outcome.run.status).toBe('done');
    const documentId = outcome.inputs[0]!.documentId!;

    const row = h.db.prepare('SELECT text, ungrounded_ids FROM summaries WHERE run_id = ? AND level = 0').get(outcome.run.id) as {
      text: string;
      ungrounded_ids: string;
    };
    expect(row.text).toContain('Referenced findings: TOB-FAKE-1.');
    expect(JSON.parse(row.ungrounded_ids)).toEqual(['TOB-FAKE-1']);

    const markdown = h.engine.markdownReport(outcome.run.id);
    const summarySection = markdown.slice(markdown.indexOf('### Summary'), markdown.indexOf('###', markdown.indexOf('### Summary') + 4));
    expect(summarySection).toMatch(
      /> Not verified: the model wrote this summary, and it names IDs that no verified finding of this document has .*: TOB-FAKE-1\./,
    );
    const html = String(await h.engine.exportReport(outcome.run.id, 'html'));
    expect(html).toMatch(/<p class="warning">Not verified: the model wrote this summary[^<]*TOB-FAKE-1\.<\/p>/);

    const json = JSON.parse(h.engine.jsonReport(outcome.run.id)) as { inputs: { document: { summary: { ungroundedIds: string[] } } }[] };
    expect(json.inputs[0]!.document.summary.ungroundedIds).toEqual(['TOB-FAKE-1']);
    const validate = new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(join(root, 'docs/report.schema.json'), 'utf8')) as object);
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);

    expect(analysisView(h.db, documentId, undefined, () => []).summary?.ungroundedIds).toEqual(['TOB-FAKE-1']);
  });
});
