/**
 * The no-GPU demo model (`bridgeServer --sim`): it answers from the dropped
 * document's own text, so a new user sees real findings, evidence and review
 * without a model. Extraction requests get one finding per finding-like
 * heading of the chunk (an issue ID such as SAMPLE-001 or PBI-12, or a
 * numbered heading that says finding / issue / vulnerability / weakness /
 * risk), with the severity the document states for it (a "Severity: High"
 * line, or "Rating  Severity: Medium  Impact: High") and, as evidence, the
 * first real sentence after it copied verbatim (label lines such as
 * "Asset ..." or "Status ..." are skipped), so grounding finds it.
 * Ask works as with a decent model: the retrieval judge keeps the passages
 * that share words with the question, and the answer cites the passage that
 * answers it ([n] with a verbatim quote), or says the documents do not hold
 * it. The chunking judge picks the strategy its facts point to (outline,
 * headings or pages) with a chunk size of 1200 tokens and a reason. Other
 * JSON requests (tree split) get a minimal valid reply, summaries
 * a sentence naming the findings of the part. Nothing here is clever: it is
 * a demo, not a model.
 */
import { promptBlocks } from '../fixtures/plantedFindings';
import { schemaResponder, type Responder, type SimChatRequest } from './index';

const ID = /\b([A-Z][A-Z0-9]{1,15}-\d{1,6})\b/;
const FINDING_WORDS = /\b(finding|issue|vulnerabilit(?:y|ies)|weakness|risk|deficienc(?:y|ies)|observation)\b/i;
const SEVERITY_WORDS = '(critical|high|medium|moderate|low|informational|info|note|gas)';
/**
 * "Severity: High" anywhere on the line ("Rating  Severity: Medium  Impact: High"), or a "Risk: Low" /
 * "Rating: Low" line, the colon optional where a table cell separated label and value ("Rating  Informational").
 */
const SEVERITY = new RegExp(`\\bseverity\\s*[:|\\-–]?\\s*${SEVERITY_WORDS}\\b|^\\s*(?:risk(?: rating)?|rating)\\s*[:|\\-–]?\\s*${SEVERITY_WORDS}\\b`, 'i');
/** Lines that label a fact of the finding ("Asset ...", "Status ...", "Impact: High"): never its evidence sentence. */
const LABEL_LINE =
  /^\s*(?:asset|assets|status|rating|severity|impact|likelihood|location|locations|type|category|target|file|files|difficulty|finding id|id)\b/i;
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

/** A contents line ("7.2 High Risk . . . . . 4"): it names a section, it is not one. */
const DOT_LEADER = /(?:\.\s?){4,}/;
/** Words of a heading that only classifies ("High Risk", "Risk Classification", "Gas Optimizations"): a chapter, never a finding. */
const CLASSIFYING =
  /^(?:critical|high|medium|moderate|low|informational|info|gas|optimi[sz]ations?|risks?|severity|classification|rating|matrix|levels?|and|of)$/i;
/** The last numbered part of a line that prints its chapter before it ("3. Detailed Findings 3.1. Lack of ..."). */
const LAST_NUMBERED = /(?:^|\s)(\d+(?:\.\d+)+\.?\s+\S.*)$/;

function onlyClassifies(text: string): boolean {
  const words = text.replace(/^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+/, '').match(/[A-Za-z]+/g) ?? [];
  return words.length > 0 && words.every((w) => CLASSIFYING.test(w));
}

function isFindingHeading(text: string): boolean {
  const t = text.trim();
  if (t.length < 6 || t.length > 160 || /[.;:]$/.test(t) || DOT_LEADER.test(t) || onlyClassifies(t)) return false;
  return (ID.test(t) && (NUMBERED.test(t) || t.indexOf(ID.exec(t)![1]!) < 12)) || (NUMBERED.test(t) && FINDING_WORDS.test(t));
}

/** A numbered heading whose next lines rate it ("3.1. Lack of input validations" over "... Severity Low"): a finding, whatever its words. */
function isRatedHeading(lines: readonly Line[], at: number): boolean {
  const t = lines[at]!.text.trim();
  if (!NUMBERED.test(t) || t.length > 160 || DOT_LEADER.test(t) || onlyClassifies(t)) return false;
  return lines.slice(at + 1, at + 5).some((next) => SEVERITY.test(next.text));
}

/** Finding-like headings of a chunk, each with its severity and its first sentence as verbatim evidence. */
export function demoFindings(chunk: string): DemoFinding[] {
  const lines = linesWithPages(chunk);
  const findings: DemoFinding[] = [];
  lines.forEach((line, at) => {
    if (!isFindingHeading(line.text) && !isRatedHeading(lines, at)) return;
    let severity: string | null = null;
    let evidence: Line | null = null;
    for (const next of lines.slice(at + 1, at + 16)) {
      if (isFindingHeading(next.text)) break;
      const stated = SEVERITY.exec(next.text);
      if (stated) severity ??= capitalise(stated[1] ?? stated[2]!);
      else if (!evidence && !LABEL_LINE.test(next.text) && next.text.trim().split(/\s+/).length >= 6) evidence = next;
    }
    if (!evidence) return;
    const id = ID.exec(line.text)?.[1] ?? null;
    const heading = LAST_NUMBERED.exec(line.text.trim())?.[1] ?? line.text;
    const title = heading
      .trim()
      .replace(NUMBERED.test(heading) ? /^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+/ : /^$/, '')
      .replace(id ?? /^$/, '')
      .replace(/^[\s:–-]+/, '')
      .trim();
    // The first sentence of the line, verbatim: a substring of the chunk, so grounding finds it.
    const sentence = /^.*?[.!?](?=\s|$)/.exec(evidence.text.trim())?.[0] ?? evidence.text.trim();
    findings.push({
      id,
      title: title || line.text.trim(),
      // Where the document states no severity, the demo says Medium, the middle of the usual scale.
      severity: severity ?? 'Medium',
      type: 'finding',
      description: sentence,
      evidence: sentence,
      page: evidence.page ?? line.page ?? 1,
    });
  });
  return findings;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

function isExtraction(req: SimChatRequest): boolean {
  return typeof req.format === 'object' && req.format !== null && /"findings"/.test(JSON.stringify(req.format));
}

export const demoResponder: Responder = (req) => {
  const { chunk } = promptBlocks(req);
  if (isExtraction(req)) {
    const findings = demoFindings(chunk ?? '');
    const summary =
      findings.length === 0
        ? 'No finding is reported in this part.'
        : findings.length === 1
          ? `${findings[0]!.severity}-severity finding: ${findings[0]!.title}.`
          : `${findings.length} findings: ${findings.map((f) => `${f.title} (${f.severity})`).join('; ')}.`;
    return JSON.stringify({ findings, summary });
  }
  if (req.format && isChunkingJudge(req)) return chunkingJudgeReply(req);
  if (req.format && isRetrievalJudge(req)) return judgeReply(req);
  if (req.format && isAnswer(req)) return answerReply(req);
  if (req.format) return schemaResponder(req);
  const headings = demoFindings(chunk ?? '').map((f) => f.title);
  return headings.length > 0
    ? `The document reports ${headings.length} finding${headings.length === 1 ? '' : 's'}: ${headings.join('; ')}.`
    : 'The document states no finding in this part.';
};

// --- The chunking judge, as a decent model would answer it ---------------------------------------------------

function isChunkingJudge(req: SimChatRequest): boolean {
  return /"targetChunkTokens"/.test(JSON.stringify(req.format));
}

/**
 * Reads the facts the tool measured (outline entries resolved, heading candidates, pages with text) and picks the
 * strategy its instructions describe for them, with a chunk size in the range they name and a reason in words.
 */
export function chunkingJudgeReply(req: SimChatRequest): string {
  const { user } = promptBlocks(req);
  const number = (pattern: RegExp) => Number(pattern.exec(user)?.[1] ?? 0);
  const resolved = number(/outline: \d+ entries, (\d+) resolved/);
  const headings = number(/heading candidates found: (\d+)/);
  const coverage = number(/pages with a text layer: \d+ of \d+ \((\d+)%\)/);
  const choice =
    coverage < 50
      ? { strategy: 'pages', overlapChars: 200, justification: `Only ${coverage}% of the pages have a text layer, so each page is read on its own.` }
      : resolved >= 3
        ? {
            strategy: 'outline',
            overlapChars: 0,
            justification: `The PDF outline has ${resolved} entries that resolve to pages, so its sections are the natural chunks.`,
          }
        : headings >= 3
          ? { strategy: 'headings', overlapChars: 0, justification: `There is no usable outline, but ${headings} heading lines mark the sections.` }
          : { strategy: 'pages', overlapChars: 200, justification: 'Neither an outline nor clear headings: one page per chunk keeps every part in view.' };
  return JSON.stringify({ strategy: choice.strategy, targetChunkTokens: 1200, overlapChars: choice.overlapChars, justification: choice.justification });
}

// --- Ask: the retrieval judge and the answer, as a decent model would give them ---------------------------

const STOP = new Set(
  'a an and are as at be by does do did for from give gives given has have how i in is it its of on or the this that to was were what when where which who why with report document documents'.split(
    ' ',
  ),
);

/** The words of a text that carry meaning, lower-cased, crudely stemmed (findings -> finding). */
function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[a-z0-9][a-z0-9-]*/g) ?? [];
  return new Set(words.filter((w) => w.length > 1 && !STOP.has(w)).map((w) => w.replace(/(?:ies)$/, 'y').replace(/(?<=[a-z]{3})s$/, '')));
}

function overlap(question: Set<string>, text: string): number {
  let n = 0;
  for (const w of contentWords(text)) if (question.has(w)) n++;
  return n;
}

function questionOf(req: SimChatRequest): string {
  const { user, context } = promptBlocks(req);
  return /Question:\s*(.*)/.exec(context ?? user)?.[1]?.trim() ?? '';
}

function isRetrievalJudge(req: SimChatRequest): boolean {
  return /"relevantIds"/.test(JSON.stringify(req.format));
}

function isAnswer(req: SimChatRequest): boolean {
  return /"notFound"/.test(JSON.stringify(req.format)) && /"citations"/.test(JSON.stringify(req.format));
}

/** Keeps the passages that share words with the question, most shared first. */
function judgeReply(req: SimChatRequest): string {
  const question = questionOf(req);
  const words = contentWords(question);
  const { chunk } = promptBlocks(req);
  const passages = (chunk ?? '')
    .split(/\n\n(?=id=\d+ \|)/)
    .map((text) => ({ id: Number(/^id=(\d+)/.exec(text)?.[1]), score: overlap(words, text) }))
    .filter((p) => Number.isInteger(p.id));
  const ranked = passages.filter((p) => p.score > 0).sort((a, b) => b.score - a.score || a.id - b.id);
  return JSON.stringify({
    refinedQuery: question,
    relevantIds: ranked.map((p) => p.id),
    rankedIds: ranked.map((p) => p.id),
    needsMore: false,
    justification:
      ranked.length > 0 ? `Passages ${ranked.map((p) => p.id).join(', ')} share the question's words.` : 'No passage speaks of what the question asks.',
  });
}

interface Passage {
  n: number;
  page: number;
  section: string;
  text: string;
}

function passagesOf(block: string): Passage[] {
  return block.split(/\n\n(?=\[\d+\] )/).flatMap((entry) => {
    const m = /^\[(\d+)\] [^\n]*?, pages? (\d+)(?:-\d+)?, section: ([^\n]*)\n([\s\S]*)$/.exec(entry);
    return m ? [{ n: Number(m[1]), page: Number(m[2]), section: m[3]!.trim(), text: m[4]! }] : [];
  });
}

function isFindingPassage(p: Passage): boolean {
  return p.section.startsWith('Finding: ');
}

/** The title of what a severity line rates: the finding of a finding passage, else the heading just above the line. */
function ratedTitle(p: Passage, severityLine: string): string {
  if (isFindingPassage(p)) return p.section.slice('Finding: '.length);
  const lines = p.text.split('\n');
  const above = lines
    .slice(0, lines.indexOf(severityLine))
    .reverse()
    .find((l) => isFindingHeading(l));
  return above
    ? (demoFindings(`${above}\n${severityLine}\nThis line stands for the evidence of the finding here.`)[0]?.title ?? above.trim())
    : (p.section.split(' > ').at(-1) ?? p.section);
}

/**
 * Answers from the passage that shares most with the question. A question about severity is answered with the
 * severity line of the earliest finding passage that has one (the first finding when asked about "the first");
 * anything else with the passage's sentence that shares most words. Each answer cites its passage with words
 * copied from it; a question nothing matches gets "not in the documents".
 */
function answerReply(req: SimChatRequest): string {
  const question = questionOf(req);
  const words = contentWords(question);
  const passages = passagesOf(promptBlocks(req).chunk ?? '');
  const notFound = JSON.stringify({ answer: 'The documents do not say.', notFound: true, citations: [] });
  if (/\bseverit/i.test(question)) {
    const rated = passages
      .map((p) => ({ p, line: p.text.split('\n').find((l) => SEVERITY.test(l)) }))
      .filter((r): r is { p: Passage; line: string } => r.line !== undefined)
      // "The first finding": the earliest in the document, a finding passage before the chunk that holds it.
      .sort((a, b) =>
        /\bfirst\b/i.test(question)
          ? a.p.page - b.p.page || Number(isFindingPassage(b.p)) - Number(isFindingPassage(a.p)) || a.p.n - b.p.n
          : overlap(words, b.p.text) - overlap(words, a.p.text),
      );
    const best = rated[0];
    if (best) {
      const m = SEVERITY.exec(best.line)!;
      const severity = capitalise(m[1] ?? m[2]!);
      const quote = best.line.trim().replace(/\s{2,}/g, ' ');
      return JSON.stringify({
        answer: `${severity} [${best.p.n}]: the report rates "${ratedTitle(best.p, best.line)}" ${severity}.`,
        notFound: false,
        citations: [{ n: best.p.n, quote }],
      });
    }
  }
  let best: { p: Passage; sentence: string; score: number } | null = null;
  for (const p of passages) {
    for (const sentence of p.text.replace(/\s*\n\s*/g, ' ').match(/[^.!?]+[.!?]/g) ?? []) {
      const score = overlap(words, sentence);
      if (score > (best?.score ?? 0)) best = { p, sentence: sentence.trim(), score };
    }
  }
  if (!best || best.score < Math.min(2, words.size)) return notFound;
  return JSON.stringify({ answer: `${best.sentence} [${best.p.n}]`, notFound: false, citations: [{ n: best.p.n, quote: best.sentence }] });
}
