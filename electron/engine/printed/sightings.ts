/**
 * Every sighting of a finding in what the model was shown. A model often reports a finding once per unit and
 * quotes its first occurrence, a summary-table row or a contents line, although the unit also holds the
 * finding's detailed section: the finding would then never be on the page where it is described. So where a
 * reported finding's title is printed again in the unit as a heading, a row or a contents line (at a line start,
 * after a number, an ID or punctuation only: never a mention inside a sentence), that place is recorded as one
 * more sighting of it: the same finding, quoting the printed line, grounded exactly there. The merge joins the
 * sightings and takes the detailed heading as the main page.
 */
import { pageAt } from '../../../shared/canonical';
import { RECORDED_FINDING_TYPE, readByRules, type ExtractionProfile, type GroundedFinding } from '../../../shared/findings';
import type { ExtractedDocument } from '../../../shared/types';
import { normalizeForMatch, NormalizedViews } from './grounding';
import { identifyFinding } from './identity';
import { headsSection, lineOf, OPENING_WINDOW_CHARS, sectionOpening, titleLines } from './sections';

/**
 * The unit's findings, plus one sighting for each place a reported (grounded) title is printed again in the unit
 * at a line start where no reported finding of the unit is grounded, when every quote the model gave for that
 * title in the unit is a title line (a row, a contents line, a heading): a model that also quoted the finding's
 * description saw its detailed section. Ungrounded findings add nothing: their title is the model's word only.
 */
export function withEveryTitleSighting(
  doc: Pick<ExtractedDocument, 'text' | 'pages'>,
  profile: ExtractionProfile,
  reported: readonly GroundedFinding[],
  unit: { start: number; end: number },
): GroundedFinding[] {
  // The unit's text normalised once for every title looked up in it.
  const views = new NormalizedViews(doc.text);
  const findings = reported.map((f) => {
    const own = rowOwnTitle(doc.text, profile, f, unit, views);
    return own ? { ...f, title: own } : f;
  });
  const out = [...findings];
  const taken = findings.filter((f) => f.grounding.status === 'grounded').map((f) => ({ start: f.grounding.start!, end: f.grounding.end! }));
  const done = new Set<string>();
  const words = (text: string) => ` ${(normalizeForMatch(text).text.match(/[\p{L}\p{N}]+/gu) ?? []).join(' ')} `;
  for (const f of findings) {
    // A row the rules read (listedRows.ts) is no report of the model's: its title printed elsewhere says nothing of what
    // the model saw. A recorded finding's section was chosen by the rules (recordedDetails.ts): its other lines are not sections.
    if (f.grounding.status !== 'grounded' || readByRules(f) || f.type === RECORDED_FINDING_TYPE) continue;
    const key = normalizeForMatch(f.title).text;
    if (done.has(key)) continue;
    done.add(key);
    // The model also quoted the finding's own text (its description): it saw the detailed section, nothing is missing.
    // A title line holds the title's first words (a wrapped table row interleaves its other cells after them).
    const lead = ` ${words(f.title).trim().split(' ').slice(0, 3).join(' ')} `;
    const sameTitle = findings.filter((g) => g.grounding.status === 'grounded' && normalizeForMatch(g.title).text === key);
    if (sameTitle.some((g) => !words(g.evidence).includes(lead))) continue;
    for (const line of titleLines(doc.text, f.title, unit.start, unit.end, views)) {
      if (taken.some((t) => t.start < line.end && line.start < t.end)) continue;
      const { start, end } = line;
      const grounding = { status: 'grounded' as const, match: 'exact' as const, score: 1, start, end, page: pageAt(doc.pages, start), inContextOnly: false };
      const identity = identifyFinding(doc.text, profile, { modelId: f.id, title: f.title, grounding, region: unit });
      // The sentence around the other quote is no description of this place: a heading's is its opening sentence, a
      // row or a contents line has none (its neighbours are other findings).
      const own = lineOf(doc.text, start);
      const description = headsSection(doc.text, own, unit.end)
        ? (sectionOpening(doc.text, own.end, Math.min(unit.end, own.end + OPENING_WINDOW_CHARS))?.sentence ?? '')
        : '';
      out.push({
        ...f,
        description,
        evidence: doc.text.slice(start, end),
        page: grounding.page,
        grounding,
        findingKey: identity.idKey,
        printedNumber: identity.printedNumber,
      });
      taken.push({ start, end });
    }
  }
  return out;
}

/**
 * The title a quoted table row prints for itself, when the model gave the row another (a sibling's) title: the
 * row's text before its severity cell, when it shares most words with the model's title, the unit also prints it as
 * a line of its own (its heading) and the model's title is not how the row opens. A row belongs to the finding it names, never to the one the model
 * said (issue 24: near-identical sibling titles). Null when the quote is no such row.
 */
export function rowOwnTitle(
  text: string,
  profile: ExtractionProfile,
  f: GroundedFinding,
  unit: { start: number; end: number },
  views = new NormalizedViews(text),
): string | null {
  if (f.grounding.status !== 'grounded' || f.grounding.start === null) return null;
  const words = (t: string) => normalizeForMatch(t).text.match(/[\p{L}\p{N}]+/gu) ?? [];
  const quote = words(f.evidence).join(' ');
  const title = words(f.title).join(' ');
  if (title === '' || quote.startsWith(title)) return null;
  // A severity cell is capitalised ("High", "HIGH"); "high" inside a sentence is no cell.
  const capitalised = (w: string) => [w.charAt(0).toUpperCase() + w.slice(1), w.toUpperCase()];
  const labels = [...profile.severities, ...Object.keys(profile.severityAliases)].flatMap(capitalised).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const cell = new RegExp(`\\s(?:\\|\\s*)?(?:${labels.join('|')})\\b`).exec(f.evidence);
  if (!cell) return null;
  // Before the severity cell: the row's number or ID, then its title.
  const candidate = f.evidence
    .slice(0, cell.index)
    .replace(/^[\s|#]*(?:\d+(?:\.\d+)*\.?|[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+)?[\s|:.)-]*/, '')
    .replace(/\s*\|\s*$/, '')
    .trim();
  if (words(candidate).length < 2 || words(candidate).join(' ') === title) return null;
  // Only a sibling's title is a mix-up: the two share most words ("Unused errors / constants can be removed"). A row
  // of other cells (a "Target ... Likelihood Low" block) is no title of another finding.
  const own = new Set(words(f.title).filter((w) => w.length > 2));
  const theirs = words(candidate).filter((w) => w.length > 2);
  const shared = theirs.filter((w) => own.has(w)).length;
  if (shared * 2 < Math.min(own.size, new Set(theirs).size)) return null;
  const elsewhere = titleLines(text, candidate, unit.start, unit.end, views).filter((l) => l.end <= f.grounding.start! || l.start >= f.grounding.end!);
  return elsewhere.length > 0 ? candidate : null;
}
