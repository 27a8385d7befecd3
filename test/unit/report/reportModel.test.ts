/**
 * The report model both readable formats render: its counts come from the
 * report data and agree with each other, every sentence it words is in the
 * Markdown and in the HTML report, and text from documents stays text
 * (escaped in both, literal in the model).
 */
import { describe, expect, it } from 'vitest';
import type { ReviewExportFinding } from '../../../shared/review';
import { ErrorCode } from '../../../shared/errors';
import type { ChunkNode } from '../../../shared/types';
import { escapeMarkdown, renderHtml, renderMarkdown, type ReportData, type ReportFinding, type ReportReviewFinding } from '../../../electron/engine/report';
import { buildReportModel, documentSections, sentenceText, type ReportModel, type Sentence } from '../../../electron/engine/report/reportModel';

const SCRIPT = '<script>alert(1)</script>';
const MARKDOWN = '**bold** | [link](http://x) # _under_';
/** A file name cannot hold a slash: markup in one without. */
const FILE_NAME = 'audit <img src=x onerror=alert(1)>.pdf';

function node(index: number, parentIndex: number | null, title: string, isLeaf: boolean, page = 1): ChunkNode {
  return {
    index,
    parentIndex,
    title,
    section: { level: 1, path: [] },
    start: index * 10,
    end: index * 10 + 9,
    pageStart: page,
    pageEnd: page,
    tokenEstimate: 5,
    origin: 'heading',
    isLeaf,
    overlapBefore: 0,
  };
}

function review(overrides: Partial<ReportReviewFinding> & Pick<ReviewExportFinding, 'reviewId' | 'label' | 'mergedIds'>): ReportReviewFinding {
  const values = { title: 'Weak TLS', severity: 'High', type: 'vulnerability', description: 'TLS 1.0 is on.' };
  return {
    origin: 'model',
    state: 'new',
    rejectReason: null,
    findingKey: null,
    effective: values,
    original: values,
    edits: [],
    notes: [],
    lastReviewer: null,
    lastChangedAt: null,
    mainPage: 2,
    grounded: true,
    changedFields: [],
    vanished: false,
    manualEvidence: null,
    ...overrides,
  };
}

function finding(id: number, grounded: boolean, overrides: Partial<ReportFinding> = {}): ReportFinding {
  return {
    id,
    runId: 1,
    documentId: 1,
    findingKey: `PBI-${id}`,
    printedNumber: null,
    modelLabels: [],
    title: `Finding ${id}`,
    type: 'vulnerability',
    severity: grounded ? 'High' : 'Low',
    severityCanonical: grounded ? 'high' : 'low',
    severityRank: grounded ? 1 : 3,
    description: `What finding ${id} is.`,
    mainPage: 2,
    mainFindingId: id * 10,
    grounded,
    absorbedFindingIds: [],
    sources: [
      {
        findingId: id * 10,
        nodeIndex: 1,
        page: 2,
        title: `Finding ${id}`,
        evidence: grounded ? `Evidence of ${id}.` : `Invented evidence ${id}.`,
        evidenceStart: grounded ? 10 : null,
        evidenceEnd: grounded ? 20 : null,
        grounded,
        match: grounded ? 'exact' : null,
        inContextOnly: false,
        isMain: true,
        modelId: null,
        contextBefore: grounded ? 'words before ' : null,
        contextAfter: grounded ? ' words after' : null,
        documentText: grounded ? `Evidence of ${id}.` : null,
        ocr: grounded ? null : { page: 2, confidence: 40, low: true, hasText: true },
      },
    ],
    review: [],
    ...overrides,
  };
}

/** A full run over two documents with something in every section, document text carrying markup. */
function reportData(): ReportData {
  const reviewed = finding(1, true, { title: `Stored XSS ${SCRIPT}`, description: `The preview renders ${SCRIPT}.\nSecond line ${MARKDOWN}.` });
  const rejected = finding(2, true);
  const invented = finding(3, false);
  const r1 = review({
    reviewId: 11,
    label: 'R-1',
    mergedIds: [1],
    state: 'confirmed',
    edits: [{ field: 'title', original: 'Stored XSS', effective: `Stored XSS ${SCRIPT}` }],
    effective: { title: `Stored XSS ${SCRIPT}`, severity: 'High', type: 'vulnerability', description: 'x' },
    notes: [{ reviewer: 'A. Auditor', at: '2025-03-04T10:00:00.000Z', text: `Checked ${SCRIPT}` }],
    lastReviewer: 'A. Auditor',
    lastChangedAt: '2025-03-04T10:00:00.000Z',
  });
  const r2 = review({
    reviewId: 12,
    label: 'R-2',
    mergedIds: [2],
    state: 'rejected',
    rejectReason: 'Duplicate',
    lastReviewer: 'A. Auditor',
    lastChangedAt: '2025-03-04T10:00:00.000Z',
  });
  const r3 = review({ reviewId: 13, label: 'R-3', mergedIds: [3], state: 'needs_follow_up' });
  const manual = review({
    reviewId: 14,
    label: 'R-4',
    mergedIds: [],
    origin: 'manual',
    state: 'confirmed',
    effective: { title: `Manual ${MARKDOWN}`, severity: 'Low', type: 'observation', description: 'Found by hand.' },
    manualEvidence: { start: 0, end: 6, page: 3, text: 'CR-310' },
    lastReviewer: 'A. Auditor',
    lastChangedAt: '2025-03-04T10:00:00.000Z',
  });
  const vanished = review({ reviewId: 15, label: 'R-5', mergedIds: [99], vanished: true, changedFields: ['severity'] });
  reviewed.review = [r1];
  rejected.review = [r2];
  invented.review = [r3];
  const counts = { total: 5, confirmed: 2, rejected: 1, needsFollowUp: 1, notReviewed: 1, open: 2, vanished: 1 };
  const usage = {
    calls: 4,
    cached: 1,
    failed: 0,
    retried: 1,
    promptTokens: 1200,
    evalTokens: 300,
    llmMs: 4500,
    byModel: [{ model: 'qwen3:8b', calls: 4, promptTokens: 1200, evalTokens: 300, llmMs: 4500 }],
  };
  const doc = (id: number, fileName: string) => ({
    id,
    sha256: `${id}`.repeat(64),
    kind: 'pdf' as const,
    fileName,
    filePath: `/imports/${fileName}`,
    byteSize: 100,
    pageCount: 4,
    metadata: {},
    createdAt: '2026-11-20T10:00:00.000Z',
  });
  const first = {
    document: doc(1, FILE_NAME),
    pagesWithoutText: [4],
    unreadablePages: [{ page: 3, reason: `bad stream ${SCRIPT}` }],
    ocrPages: [{ page: 2, confidence: 40, low: true }],
    strategy: 'headings',
    judge: null,
    nodes: [node(0, null, 'root', false), node(1, 0, `Findings ${SCRIPT}`, true, 2), node(2, 0, 'Appendix', true, 4)],
    mentionGroups: [{ id: 'PBI-1', pages: [2], mentions: [{ patternName: 'jira', raw: 'PBI-1', normalized: 'PBI-1', start: 10, end: 15, page: 2 }] }],
    findings: [reviewed, rejected, invented],
    unreviewedMentions: [{ id: 'CR-310', pages: [3] }],
    mergeConflicts: [
      {
        kind: 'id' as const,
        key: 'PBI-1',
        findings: [
          { findingId: 1, title: `Stored XSS ${SCRIPT}`, mainPage: 2 },
          { findingId: 2, title: 'Finding 2', mainPage: 2 },
        ],
      },
    ],
    failedChunks: [{ nodeIndex: 2, title: 'Appendix', pageStart: 4, pageEnd: 4, error: { code: 'LLM_INVALID_REPLY', message: `Broken reply ${SCRIPT}` } }],
    summary: { text: `A summary quoting ${SCRIPT}.`, chunkCount: 2, levels: 1, ungroundedIds: [] },
    usage,
    review: { documentId: 1, runId: 1, counts, findings: [r1, r2, r3, manual, vanished], confirmedOnly: false },
    completeness: {
      status: 'check' as const,
      headline: 'Check this place',
      places: [{ kind: 'stated-vs-found' as const, page: 1, message: `High 3 stated, 2 found ${SCRIPT}` }],
      stated: [{ label: 'High', severity: 'high', count: 3, page: 1, text: 'High 3', start: 0, end: 6, source: 'rules' as const }],
      tallies: [{ severity: 'high', stated: 3, listed: null, found: 2 }],
      statedTotal: 3,
      foundTotal: 2,
      listed: [],
      findingsWithoutEntry: [],
      unreviewedMentions: [],
      failedChunks: [],
      pagesWithoutText: [],
      usedLlm: false,
    },
    picturePagesNote: 'Page 4 has only pictures or nothing on it (OCR found no words).',
  };
  const second = {
    ...first,
    document: doc(2, 'empty.pdf'),
    pagesWithoutText: [],
    unreadablePages: [],
    ocrPages: [],
    nodes: [],
    mentionGroups: [],
    findings: [],
    unreviewedMentions: [],
    mergeConflicts: [],
    failedChunks: [],
    summary: null,
    review: {
      documentId: 2,
      runId: 1,
      counts: { total: 0, confirmed: 0, rejected: 0, needsFollowUp: 0, notReviewed: 0, open: 0, vanished: 0 },
      findings: [],
      confirmedOnly: false,
    },
    completeness: null,
    picturePagesNote: null,
  };
  return {
    run: {
      id: 7,
      mode: 'full',
      status: 'done',
      settings: null,
      settingsError: null,
      createdAt: '2026-11-20T10:00:00.000Z',
      startedAt: '2026-11-20T10:00:00.000Z',
      finishedAt: '2026-11-20T10:05:00.000Z',
      error: null,
    },
    runInfo: {
      durationMs: 300_000,
      llm: { description: 'Ollama 0.5 at http://127.0.0.1:11434', models: { extract: 'qwen3:8b', judge: 'qwen3:8b' }, numCtx: 8192, chunkTokenBudget: 1500 },
      profileName: null,
      strategyChoice: 'auto',
      judgeEnabled: true,
      usage,
      models: [
        { stage: 'extract', name: 'qwen3:8b', digest: 'sha256:abc' },
        { stage: 'judge', name: 'qwen3:8b', digest: null },
      ],
    },
    generatedAt: '2026-11-24T01:00:00.000Z',
    appVersion: '1.2.3',
    inputs: [
      {
        filePath: `/imports/${FILE_NAME}`,
        status: 'done',
        error: null,
        warnings: [{ code: 'OCR_LOW_CONFIDENCE', message: `Page 2 is hard to read ${SCRIPT}` }],
        document: first,
      },
      { filePath: '/imports/empty.pdf', status: 'done', error: null, warnings: [], document: second },
      { filePath: '/imports/gone.pdf', status: 'failed', error: { code: 'FILE_NOT_FOUND', message: 'The file is gone.' }, warnings: [], document: null },
    ],
    confirmedOnly: false,
    conversations: [
      {
        summary: {
          id: 4,
          title: `Backups ${SCRIPT}`,
          scope: 'document',
          documentId: 1,
          createdAt: '2026-11-20T10:00:00.000Z',
          updatedAt: '2026-11-21T10:00:00.000Z',
          messageCount: 2,
        },
        messages: [
          { id: 1, role: 'user', text: `How long? ${SCRIPT}`, createdAt: '2026-11-21T10:00:00.000Z', answer: null },
          {
            id: 2,
            role: 'assistant',
            text: `Thirty days ${MARKDOWN}.`,
            createdAt: '2026-11-21T10:00:00.000Z',
            answer: {
              marked: false,
              unverified: false,
              dropped: [],
              exhaustiveNote: 'Retrieval read the most relevant passages.',
              citations: [{ n: 1, documentId: 1, documentName: 'audit.pdf', page: 2, section: ['A', 'B'], quote: 'thirty days', start: 0, end: 5 }],
            },
          },
        ],
      },
    ],
  } as unknown as ReportData;
}

/** Every string the model shows as text, with where it sits: what both formats must carry. */
function modelStrings(model: ReportModel): { path: string; text: string }[] {
  // The HTML alone has a page title, a subtitle, contents, an executive summary and a footer; values that
  // are attributes or classes (keys, states, levels) are not text.
  const htmlOnly = new Set(['title', 'documentNames', 'executiveSummary', 'footer', 'tocLabel', 'generatedAt']);
  const notText = new Set([
    'key',
    'kind',
    'level',
    'idOrigin',
    'state',
    'role',
    'anchor',
    'iso',
    'status',
    'tone',
    'origin',
    'differs',
    'name',
    'cells',
    'field',
    'side',
    // A problem's error code: an attribute for support (data-code), kept out of the sentence a client reads.
    'code',
  ]);
  const out: { path: string; text: string }[] = [];
  // A sentence has a marked-up part; a list of plain strings (a table head, a list) is walked string by string.
  const isSentence = (value: unknown): value is Sentence =>
    Array.isArray(value) &&
    value.some((s) => typeof s === 'object' && s !== null && 'kind' in s) &&
    value.every((s) => typeof s === 'string' || (typeof s === 'object' && s !== null && 'kind' in s));
  const walk = (value: unknown, path: string, top: boolean): void => {
    if (typeof value === 'string') {
      if (value !== '') out.push({ path, text: value });
    } else if (isSentence(value)) {
      out.push({ path, text: sentenceText(value) });
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${path}[${i}]`, false));
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        const skip =
          notText.has(k) ||
          (top && htmlOnly.has(k)) ||
          k === 'tocLabel' ||
          // The review table's row attributes.
          (path.endsWith('.table') && k === 'findings');
        if (skip) continue;
        walk(v, path ? `${path}.${k}` : k, false);
      }
    }
  };
  walk(model, '', true);
  return out;
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The text a reader sees in the HTML report: markup and styles gone, entities decoded. */
function htmlText(html: string): string {
  const body = html.slice(html.indexOf('<body>'));
  return squash(
    body
      // Inline markup sits inside a sentence; every other tag ends a block.
      .replace(/<\/?(?:span|code|strong|time|mark|a|del|ins)\b[^>]*>/g, '')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&'),
  );
}

/** The text a reader sees in the Markdown report: CommonMark backslash escapes, bold, code spans and entities undone. */
function markdownText(md: string): string {
  return squash(
    md
      .replace(/(?<!\\)\*\*/g, '')
      .replace(/(?<!\\)`/g, '')
      .replace(/\\([\\`*_{}[\]#+!|~>])/g, '$1')
      .replace(/&lt;/g, '<')
      .replace(/&amp;/g, '&'),
  );
}

/** Spans that sit in separate cells or lines in one format and side by side in the other: compared apart. */
const pieces = (text: string) => squash(text).split(/ \| /);

describe("report model: the trial's export rows (2026-11-28 row 24)", () => {
  it('names a finding by the number the document prints in the review table, as the app does', () => {
    const data = reportData();
    const doc = data.inputs[0]!.document!;
    doc.findings[1] = { ...doc.findings[1]!, findingKey: null, printedNumber: '7.3.5' };
    const model = buildReportModel(data);
    const row = model.documents[0]!.review!.table.rows.find((r) => r[0]![0] === 'R-2')!;
    expect(sentenceText(row[1]!)).toBe('No. 7.3.5');
  });

  it('strikes through a rejected state, never its reason', () => {
    const model = buildReportModel(reportData());
    const row = model.documents[0]!.findings!.table.rows.find((r) => r.findingId === 2)!;
    const state = row.cells[6]!;
    expect(state.find((s) => typeof s === 'object' && s.kind === 'state')).toEqual({ kind: 'state', state: 'rejected', text: 'R-2 rejected' });
    expect(sentenceText(state)).toBe('R-2 rejected: Duplicate');
    expect(renderHtml(reportData())).toMatch(/<span class="state state-rejected" data-state="rejected">R-2 rejected<\/span>: Duplicate/);
  });

  it('marks an unrated finding "— unrated", not with question marks', () => {
    const data = reportData();
    const doc = data.inputs[0]!.document!;
    // Not reviewed, so the model's (empty) severity is what is shown.
    doc.findings[0] = { ...doc.findings[0]!, severity: '', severityCanonical: null, review: [] };
    const html = renderHtml(data);
    expect(html).not.toContain('????');
    expect(html).toMatch(/<span class="sev-mark" aria-hidden="true">—<\/span> unrated/);
  });

  it('lists each place of a finding once, the same quote seen again counted as its repeats (row 21)', () => {
    const data = reportData();
    const doc = data.inputs[0]!.document!;
    const main = doc.findings[0]!.sources[0]!;
    const sighting = (n: number) => ({
      ...main,
      findingId: 100 + n,
      isMain: false,
      page: null,
      grounded: false,
      evidence: 'Stored XSS',
      evidenceStart: null,
      evidenceEnd: null,
      match: null,
      documentText: null,
    });
    doc.findings[0] = { ...doc.findings[0]!, sources: [sighting(1), main, sighting(2), sighting(3), sighting(4)] };
    const entry = buildReportModel(data).documents[0]!.findings!.entries.find((e) => e.findingId === 1)!;
    expect(entry.sourcesLabel).toBe('Sources (2, +3 repeats):');
    expect(entry.sources).toHaveLength(2);
    expect(entry.sources[0]!.evidence).toBe(main.evidence);
    expect(sentenceText(entry.sources[1]!.where)).toMatch(/\+3 repeats of the same quote$/);
  });

  it('counts a contents numbered 7.1, 7.1.1, 7.1.2 as one list', () => {
    const data = reportData();
    const entry = (number: string, page: number) => ({
      kind: 'contents' as const,
      number,
      id: null,
      title: `Entry ${number}`,
      severity: null,
      severityCanonical: null,
      findingIds: [1],
      page,
      start: 0,
      end: 1,
      text: '',
    });
    data.inputs[0]!.document!.completeness!.listed = [entry('7.1', 2), entry('7.1.1', 2), entry('7.1.2', 2), entry('7.2', 3)];
    const model = buildReportModel(data);
    expect(JSON.stringify(model.documents[0]!.completeness)).toContain('Contents from page 2: 4 entries, 4 with a finding');
    expect(JSON.stringify(model.documents[0]!.completeness)).not.toContain('1 entries');
  });
});

describe('report model', () => {
  it('lists a picture-only page as no problem (its document notes it quietly), and keeps error codes out of the readable text', () => {
    const data = reportData();
    const pictures = {
      code: ErrorCode.PDF_NO_TEXT_LAYER,
      message: 'Page 38 has only pictures or nothing on it (OCR found no words).',
      details: { pages: [38], picturesOnly: true },
    };
    data.inputs[1] = { ...data.inputs[1]!, warnings: [pictures] };
    const model = buildReportModel(data);
    // Still two inputs with problems (the low-confidence read and the missing file), not three.
    expect(model.executiveSummary!.counts.problems).toBe(2);
    expect(model.problems!.items.map((p) => p.file)).toEqual([FILE_NAME, 'gone.pdf']);
    const md = renderMarkdown(data);
    expect(md).not.toContain('OCR found no words).\n## ');
    expect(md).toContain('The file is gone.');
    expect(md).not.toContain('FILE_NOT_FOUND');
    expect(md).not.toContain('OCR\\_LOW\\_CONFIDENCE');
    expect(renderHtml(data)).toContain('data-code="FILE_NOT_FOUND"');
  });

  it('takes every count once: headings, tables, contents and the executive summary agree', () => {
    const data = reportData();
    const model = buildReportModel(data);
    const doc = model.documents[0]!;
    expect(doc.findings!.heading).toBe('Findings (2)');
    expect(doc.findings!.entries).toHaveLength(2);
    expect(doc.findings!.table.rows).toHaveLength(2);
    expect(doc.ungrounded!.heading).toBe('Ungrounded findings (1)');
    expect(doc.ungrounded!.entries.map((e) => e.findingId)).toEqual([3]);
    expect(doc.findings!.entries.length + doc.ungrounded!.entries.length).toBe(data.inputs[0]!.document!.findings.length);
    // Review: the four states add up to the total, in the sentence every format shows.
    const c = doc.review!.counts;
    expect(c.confirmed + c.rejected + c.needsFollowUp + c.notReviewed).toBe(c.total);
    expect(doc.review!.countsSentence).toBe('2 confirmed, 1 rejected, 1 need follow-up, 1 not reviewed yet (5 in all); 1 no longer reported by the latest run');
    expect(doc.review!.tocLabel).toBe('Review (2 confirmed, 1 not reviewed yet)');
    // The manual finding and the one no longer reported have no finding entry: the review shows them in full.
    expect(doc.review!.entries.map((e) => [e.heading, e.manual])).toEqual([
      [`R-4: Manual ${MARKDOWN} (added by the auditor)`, true],
      ['R-5: Weak TLS', false],
    ]);
    // The executive summary adds up the documents' own lists.
    const summary = model.executiveSummary!;
    expect(summary.counts).toMatchObject({ findings: 3, grounded: 2, ungrounded: 1, documents: 2, unreviewedIds: 1, problems: 2 });
    expect(summary.counts.grounded + summary.counts.ungrounded).toBe(summary.counts.findings);
    expect(summary.counts.review).toMatchObject({ total: 5, confirmed: 2 });
    expect(sentenceText(summary.findingsSentence)).toBe(
      '3 findings in 2 documents; 2 grounded in the source text (67%), 1 not found in the text (listed apart, not verified).',
    );
    // Each section's contents entry carries its heading's count.
    for (const section of documentSections(doc)) {
      const count = /\((\d+)/.exec(section.heading)?.[1];
      if (count && section.key !== 'review') expect(section.tocLabel, section.key).toContain(`(${count}`);
    }
    expect(doc.mentions.tocLabel).toBe('ID mentions (1)');
    expect(doc.ocr!.heading).toBe('Pages read by OCR (1, 1 low confidence)');
    expect(doc.noText.sentence).toMatch(/^Pages 4\. /);
  });

  it('says how many sightings of a finding were not found in the text and are not listed among its sources', () => {
    const data = reportData();
    const findings = data.inputs[0]!.document!.findings;
    findings[1] = { ...findings[1]!, unfoundSightings: 3 };
    const entries = buildReportModel(data).documents[0]!.findings!.entries;
    expect(entries.map((e) => e.sourcesLabel)).toEqual(['Sources (1):', 'Sources (1; 3 more sightings not found in the text, not listed):']);
    expect(renderMarkdown(data)).toContain('Sources (1; 3 more sightings not found in the text, not listed):');
  });

  it('keeps document text literal; the HTML escapes it, the Markdown escapes it too, and both show it as written', () => {
    const data = reportData();
    const model = buildReportModel(data);
    expect(model.documents[0]!.findings!.entries[0]!.title).toBe(`Stored XSS ${SCRIPT}`);
    expect(model.documents[0]!.fileName).toBe(FILE_NAME);

    const html = renderHtml(data);
    expect(html).not.toContain('<script');
    expect(html).toContain('Stored XSS &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(htmlText(html)).toContain(`Stored XSS ${SCRIPT}`);

    const md = renderMarkdown(data);
    expect(md).not.toContain('<script');
    expect(md).toContain(`Stored XSS ${escapeMarkdown(SCRIPT)}`);
    // Markdown syntax from a document is escaped: no bold, link or heading comes from it.
    expect(md).toContain(escapeMarkdown(MARKDOWN));
    expect(md).not.toContain('[link](http://x)');
    expect(markdownText(md)).toContain(`Stored XSS ${SCRIPT}`);
    expect(markdownText(md)).toContain(MARKDOWN);
  });

  it('both formats carry every sentence of the model', () => {
    for (const data of [
      reportData(),
      { ...reportData(), run: { ...reportData().run, mode: 'rules-only' } },
      { ...reportData(), confirmedOnly: true },
    ] as ReportData[]) {
      const model = buildReportModel(data);
      const strings = modelStrings(model);
      expect(strings.length).toBeGreaterThan(100);
      const html = htmlText(renderHtml(data));
      const md = markdownText(renderMarkdown(data));
      for (const { path, text } of strings) {
        for (const piece of pieces(text)) {
          expect(html, `HTML lacks ${path}: ${piece}`).toContain(piece);
          expect(md, `Markdown lacks ${path}: ${piece}`).toContain(piece);
        }
      }
    }
  });

  it('a rules-only run has no findings sections in the model, and says why', () => {
    const data = { ...reportData(), run: { ...reportData().run, mode: 'rules-only' } } as ReportData;
    const model = buildReportModel(data);
    expect(model.executiveSummary).toBeNull();
    expect(model.notices.map((n) => n.key)).toEqual(['rules-only']);
    const doc = model.documents[0]!;
    expect(documentSections(doc).map((s) => s.key)).toEqual(['completeness', 'no-text', 'ocr', 'unreadable', 'mentions']);
    expect(doc.rulesOnlyNote).toMatch(/no findings for this document/);
  });
});
