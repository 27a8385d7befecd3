/**
 * The planted report (test/fixtures/plantedFindings) as a PDF the drop zone
 * accepts, and the simulator script the UI specs and the host tests run the
 * real pipeline against: extraction answered from the planted truth, and an
 * LLM tree split that fails validation once (a chapter starting at a line
 * outside the text) and then passes.
 */
import { makeTextPdf } from '../fixtures/pdfFactory';
import { plantedReport, plantedResponder, type PlantedReport } from '../fixtures/plantedFindings';
import { isJudge, isReview, isSplit, chapters, PASS, plausibleSplit } from '../integration/treesplit/helpers';
import type { Responder, SimChatRequest } from '../ollama-sim/index';

/** Words onto lines of at most `width` characters (the PDF factory draws each line as given, it never wraps). */
export function wrapLine(line: string, width = 88): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(/\s+/).filter(Boolean)) {
    if (current && current.length + 1 + word.length > width) {
      out.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) out.push(current);
  return out;
}

/** One PDF page per planted page; summary-table rows keep their column spacing (they are short). */
export async function plantedPdf(report: PlantedReport = plantedReport()): Promise<Uint8Array> {
  return makeTextPdf({
    title: 'Internal Audit Report',
    pages: report.pageTexts.map((text) => ({
      blocks: [{ kind: 'body' as const, lines: text.split('\n').flatMap((line) => (line.length <= 88 ? [line] : wrapLine(line))) }],
    })),
  });
}

export interface ScriptOptions {
  /** Wait before each extraction reply, so a run can be watched, cancelled and resumed (default 0). */
  extractDelayMs?: number;
}

export interface ScriptedModel {
  responder: Responder;
  /** Tree-split requests answered so far. */
  splitCalls(): number;
}

/**
 * Extraction from the planted truth; the first tree-split proposal starts its
 * last chapter before the one ahead of it (validation fails, the next attempt
 * is told why), later ones are plausible; reviews pass; the judge gets the planted
 * responder's '{}' (it falls back) unless the strategy is forced.
 */
export function scriptedModel(report: PlantedReport = plantedReport(), options: ScriptOptions = {}): ScriptedModel {
  const planted = plantedResponder(report);
  let splits = 0;
  const delay = options.extractDelayMs ?? 0;
  const responder: Responder = async (req: SimChatRequest) => {
    if (isReview(req)) return PASS;
    if (isSplit(req)) {
      splits += 1;
      return splits === 1 ? chapters([1, 12, 6]) : plausibleSplit(req);
    }
    if (isJudge(req)) return planted(req);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    return planted(req);
  };
  return { responder, splitCalls: () => splits };
}
