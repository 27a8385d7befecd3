/**
 * The no-GPU demo model (`bridgeServer --sim`): it answers from the dropped
 * document's own text, so a new user sees real findings, evidence and review
 * without a model. Extraction requests get one finding per finding-like
 * heading of the chunk (an issue ID such as SAMPLE-001 or PBI-12, or a
 * numbered heading that says finding / issue / vulnerability / weakness /
 * risk), with the severity stated under it and, as evidence, the first
 * sentence after it copied verbatim (so grounding finds it). Other JSON
 * requests (judge, tree split) get a minimal valid reply, summaries a line
 * naming what the part covers. Nothing here is clever: it is a demo, not a
 * model.
 */
import { promptBlocks } from '../fixtures/plantedFindings';
import { schemaResponder, type Responder, type SimChatRequest } from './index';

const ID = /\b([A-Z][A-Z0-9]{1,15}-\d{1,6})\b/;
const FINDING_WORDS = /\b(finding|issue|vulnerabilit(?:y|ies)|weakness|risk|deficienc(?:y|ies)|observation)\b/i;
const SEVERITY = /^\s*(?:severity|risk(?: rating)?|rating)\s*[:\-–]\s*([A-Za-z]+)/i;
const NUMBERED = /^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+\S/;

export interface DemoFinding {
  id: string | null;
  title: string;
  severity: string;
  type: string;
  description: string;
  evidence: string;
  page: number;
}

interface Line {
  text: string;
  page: number | null;
}

function linesWithPages(chunk: string): Line[] {
  const out: Line[] = [];
  let page: number | null = null;
  for (const raw of chunk.split('\n')) {
    const markers = [...raw.matchAll(/\[page (\d+)\]/g)];
    if (markers.length > 0) page = Number(markers[markers.length - 1]![1]);
    const text = raw.replace(/\[page \d+\]/g, '').trimEnd();
    if (text.trim() !== '' || markers.length === 0) out.push({ text, page });
  }
  return out;
}

function isFindingHeading(text: string): boolean {
  const t = text.trim();
  if (t.length < 6 || t.length > 160 || /[.;:]$/.test(t)) return false;
  return (ID.test(t) && (NUMBERED.test(t) || t.indexOf(ID.exec(t)![1]!) < 12)) || (NUMBERED.test(t) && FINDING_WORDS.test(t));
}

/** Finding-like headings of a chunk, each with its severity and its first sentence as verbatim evidence. */
export function demoFindings(chunk: string): DemoFinding[] {
  const lines = linesWithPages(chunk);
  const findings: DemoFinding[] = [];
  lines.forEach((line, at) => {
    if (!isFindingHeading(line.text)) return;
    let severity = 'Medium';
    let evidence: Line | null = null;
    for (const next of lines.slice(at + 1, at + 8)) {
      if (isFindingHeading(next.text)) break;
      const stated = SEVERITY.exec(next.text);
      if (stated) severity = stated[1]!;
      else if (!evidence && next.text.trim().split(/\s+/).length >= 6) evidence = next;
    }
    if (!evidence) return;
    const id = ID.exec(line.text)?.[1] ?? null;
    const title = line.text
      .trim()
      .replace(NUMBERED.test(line.text) ? /^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+/ : /^$/, '')
      .replace(id ?? /^$/, '')
      .replace(/^[\s:–-]+/, '')
      .trim();
    // The first sentence of the line, verbatim: a substring of the chunk, so grounding finds it.
    const sentence = /^.*?[.!?](?=\s|$)/.exec(evidence.text.trim())?.[0] ?? evidence.text.trim();
    findings.push({
      id,
      title: title || line.text.trim(),
      severity,
      type: 'finding',
      description: `${title || 'This finding'}: ${sentence}`,
      evidence: sentence,
      page: evidence.page ?? line.page ?? 1,
    });
  });
  return findings;
}

function isExtraction(req: SimChatRequest): boolean {
  return typeof req.format === 'object' && req.format !== null && /"findings"/.test(JSON.stringify(req.format));
}

export const demoResponder: Responder = (req) => {
  const { chunk } = promptBlocks(req);
  if (isExtraction(req)) {
    const findings = demoFindings(chunk ?? '');
    const summary = findings.length > 0 ? `This part reports: ${findings.map((f) => f.title).join('; ')}.` : 'This part states no finding.';
    return JSON.stringify({ findings, summary });
  }
  if (req.format) return schemaResponder(req);
  const headings = demoFindings(chunk ?? '').map((f) => f.title);
  return headings.length > 0 ? `The document reports ${headings.length} finding${headings.length === 1 ? '' : 's'}: ${headings.join('; ')}.` : 'The document states no finding in this part.';
};
