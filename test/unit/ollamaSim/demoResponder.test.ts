/**
 * The no-GPU demo model answers as a decent model would (issue 27, trial rows 4, 5 and 31): the severity a report
 * prints beside a bare "Rating" cell, numbered sections rated below their heading, no finding made of a contents
 * line or of a chapter that only classifies risks, and a chunking decision with a reason and a usable chunk size.
 */
import { describe, expect, it } from 'vitest';
import { chunkingJudgeReply, demoFindings } from '../../ollama-sim/demoResponder';
import type { SimChatRequest } from '../../ollama-sim';

const judgeRequest = (facts: string): SimChatRequest =>
  ({
    model: 'qwen3:8b',
    messages: [
      { role: 'system', content: 'You choose how an audit tool cuts a document into chunks.' },
      { role: 'user', content: `${facts}\n\nSample:\nsome text` },
    ],
    format: { type: 'object', properties: { strategy: {}, targetChunkTokens: {}, overlapChars: {}, justification: {} } },
  }) as unknown as SimChatRequest;

describe('demo model findings', () => {
  it('reads a severity printed after a bare Rating label, as a table cell leaves it', () => {
    const chunk = [
      'ACME-14 Insecure Parser Dependency',
      'Status Closed: See Resolution',
      'Rating Informational',
      'Description',
      'The parser dependency has a known flaw in its slice method today.',
    ].join('\n');
    expect(demoFindings(chunk).map((f) => [f.id, f.severity])).toEqual([['ACME-14', 'Informational']]);
  });

  it('takes a numbered section rated below its heading as a finding, titled without the chapter printed before it', () => {
    const chunk = [
      '3. Detailed Findings 3.1. Lack of input validations',
      'Target Staking library',
      'Category Code Maturity Severity Low',
      'Description',
      'The code does not properly validate user inputs in several areas.',
    ].join('\n');
    const found = demoFindings(chunk);
    expect(found.map((f) => [f.title, f.severity])).toEqual([['Lack of input validations', 'Low']]);
    expect(chunk).toContain(found[0]!.evidence);
  });

  it('makes no finding of a contents line with dot leaders or of a chapter that only classifies risks', () => {
    const chunk = [
      '7.2 High Risk . . . . . . . . . . . . . . . . . . 4',
      '7.3 Medium Risk . . . . . . . . . . . . . . . . 5',
      '3.2 Risk Classification',
      'Severity: High when the impact and the likelihood are both high for the protocol.',
      'The ratings below follow the usual matrix of impact and likelihood for each issue.',
    ].join('\n');
    expect(demoFindings(chunk)).toEqual([]);
  });

  it('without a rating, a numbered heading needs a finding word (a plain section is no finding)', () => {
    const chunk = ['2.1 Scope of the review', 'The review covered the staking contracts and their deployment scripts in full.'].join('\n');
    expect(demoFindings(chunk)).toEqual([]);
  });
});

describe('demo chunking judge', () => {
  it('follows the outline when its entries resolve, with a chunk size in the instructed range and a reason', () => {
    const reply = JSON.parse(
      chunkingJudgeReply(
        judgeRequest(
          'pages: 38\noutline: 26 entries, 26 resolved to a page\nheading candidates found: 70\npages with a text layer: 37 of 38 (97%)\ntext length: 53508 characters',
        ),
      ),
    ) as Record<string, unknown>;
    expect(reply.strategy).toBe('outline');
    expect(reply.targetChunkTokens).toBeGreaterThanOrEqual(300);
    expect(reply.targetChunkTokens).toBeLessThanOrEqual(2000);
    expect(reply.justification).toContain('26 entries');
  });

  it('uses the headings without an outline, and pages for a document that is mostly scans', () => {
    const headings = JSON.parse(
      chunkingJudgeReply(judgeRequest('pages: 10\noutline: none\nheading candidates found: 12\npages with a text layer: 10 of 10 (100%)')),
    ) as Record<string, unknown>;
    expect(headings.strategy).toBe('headings');
    const scans = JSON.parse(
      chunkingJudgeReply(judgeRequest('pages: 19\noutline: none\nheading candidates found: 0\npages with a text layer: 2 of 19 (11%)')),
    ) as Record<string, unknown>;
    expect(scans.strategy).toBe('pages');
    expect(scans.justification).toContain('11%');
  });
});
