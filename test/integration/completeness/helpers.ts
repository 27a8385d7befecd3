/**
 * Simulator answers for the completeness tests: extraction replies that
 * report the findings whose detailed heading a chunk shows (the model finding
 * exactly what is there, so the check is what is tested), and answers to the
 * stated-totals call.
 */
import type { SimChatRequest, SimReply } from '../../ollama-sim/index';
import { promptBlocks } from '../../fixtures/plantedFindings';
import { STATED_TOTALS_INSTRUCTIONS } from '../../../electron/engine/completeness';
import type { TextPdfSpec } from '../../fixtures/pdfFactory';

export interface HeadingFinding {
  /** The detailed section's heading line, exactly as the PDF prints it. */
  heading: string;
  title: string;
  severity: string;
  id?: string | null;
}

/** Whether a request is the completeness check's stated-totals call. */
export function isStatedTotalsRequest(req: Pick<SimChatRequest, 'messages' | 'format'>): boolean {
  const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
  return system.startsWith(STATED_TOTALS_INSTRUCTIONS.split('\n')[0]!) && JSON.stringify(req.format ?? null).includes('"counts"');
}

export function isExtractionRequest(req: Pick<SimChatRequest, 'format'>): boolean {
  return typeof req.format === 'object' && req.format !== null && JSON.stringify(req.format).includes('"findings"');
}

const squash = (t: string) => t.replace(/\s+/g, ' ');

/** The page marker above a position of the chunk text. */
function pageAbove(chunk: string, index: number): number | null {
  const markers = [...chunk.slice(0, index).matchAll(/\[page (\d+)\]/g)];
  return markers.length > 0 ? Number(markers.at(-1)![1]) : null;
}

/** Reports each finding in the chunk that shows its heading; summaries are one sentence; other JSON gets `{}`. */
export function headingResponder(
  findings: readonly HeadingFinding[],
  statedTotals: (req: SimChatRequest) => SimReply = () => JSON.stringify({ counts: [] }),
): (req: SimChatRequest) => SimReply {
  return (req) => {
    if (isStatedTotalsRequest(req)) return statedTotals(req);
    if (!isExtractionRequest(req)) return req.format ? '{}' : 'A summary.';
    const chunk = promptBlocks(req).chunk ?? '';
    const reported = findings.flatMap((f) => {
      const at = chunk.indexOf(f.heading);
      if (at < 0 && !squash(chunk).includes(squash(f.heading))) return [];
      return [
        {
          id: f.id ?? null,
          type: 'vulnerability',
          title: f.title,
          severity: f.severity,
          description: `${f.title}.`,
          evidence: f.heading,
          page: pageAbove(chunk, Math.max(0, at)) ?? 1,
        },
      ];
    });
    return JSON.stringify({ findings: reported, summary: reported.length > 0 ? `Reports ${reported.map((f) => f.title).join('; ')}.` : 'No findings here.' });
  };
}

/** A generated audit report's findings, as its detailed headings print them. */
export const FINDINGS: HeadingFinding[] = [
  { heading: '1. SQL injection in the report export', title: 'SQL injection in the report export', severity: 'High' },
  { heading: '2. Missing CSRF token on the settings form', title: 'Missing CSRF token on the settings form', severity: 'Medium' },
  { heading: '3. Weak password policy for operators', title: 'Weak password policy for operators', severity: 'Low' },
];

/** Four pages: summary with totals, summary table, two pages of detailed findings. */
export function reportSpec(summaryLines: string[], options: { lowTitle?: string } = {}): TextPdfSpec {
  const lowTitle = options.lowTitle ?? FINDINGS[2]!.title;
  return {
    title: 'Generated Audit Report',
    footer: 'Example Corp Portal Review | Page',
    pages: [
      {
        blocks: [
          { kind: 'heading', text: 'Executive Summary' },
          { kind: 'body', lines: ['We reviewed the customer portal in March.', ...summaryLines] },
        ],
      },
      {
        blocks: [
          { kind: 'heading', text: 'Summary of Findings' },
          {
            kind: 'body',
            lines: [
              'No Title Severity Status',
              '1 SQL injection in the report export High Open',
              '2 Missing CSRF token on the settings form Medium Open',
              `3 ${lowTitle} Low Fixed`,
            ],
          },
        ],
      },
      {
        blocks: [
          { kind: 'heading', text: 'Detailed Findings' },
          { kind: 'heading', text: FINDINGS[0]!.heading, size: 12.5 },
          {
            kind: 'body',
            lines: [
              'Severity: High',
              'The export endpoint builds SQL from the filter text.',
              'Any customer can read other customers\u2019 invoices.',
              'Bind parameters instead.',
              'This was confirmed with a test account.',
              'The fix is small.',
            ],
          },
          { kind: 'heading', text: FINDINGS[1]!.heading, size: 12.5 },
          { kind: 'body', lines: ['Severity: Medium', 'The settings form accepts cross-site posts.'] },
        ],
      },
      {
        blocks: [
          { kind: 'heading', text: `3. ${lowTitle}`, size: 12.5 },
          { kind: 'body', lines: ['Severity: Low', 'Operators may choose four-character passwords.'] },
        ],
      },
    ],
  };
}
