/**
 * Pairing the findings of an earlier and a later version of a report. Rules, in order, each on what the
 * earlier rules left unpaired:
 *
 *  1. printed-id: both print the same finding ID (compared as `comparableId`: "TOB-X-01" = "tob x 1").
 *     When their titles and evidence share nothing, the same ID may name another finding after a
 *     renumbering: not paired by the ID (later rules, or a candidate, decide).
 *  2. number-title: the same printed number ("7", "3.2") and titles the merge would call the same.
 *  3. similarity: titles and evidence the merge would call the same (merge/similarity.ts), one best match
 *     on each side, and never siblings (see `areSiblings`).
 *
 * Unsure pairs (a shared ID with disagreeing titles, siblings, a match that is not the only one, a
 * similarity just under the bar) are returned as candidates for the auditor: never silently paired.
 */
import { compareFindings } from '../merge';
import { contentWords, textSimilarity, comparableId } from '../printed';
import type { PairRule } from '../../../shared/compare';

export interface PairingItem {
  id: string | null;
  number: string | null;
  title: string;
  description: string;
  /** The quotes of the finding, joined. */
  evidence: string;
}

export interface Match {
  earlier: number;
  later: number;
  rule: Exclude<PairRule, 'auditor'>;
  score: number;
}

export interface Candidate {
  earlier: number;
  later: number;
  reason: string;
  score: number;
}

/** Titles or evidence this similar, though not the same by the merge's rules, make a candidate worth showing. */
export const CANDIDATE_SCORE = 0.35;
/** Evidence this similar is the same passage reworded or reprinted. */
export const SAME_EVIDENCE = 0.8;
/** Siblings are paired only when they quote the very same words: their evidence often differs in one word only. */
export const IDENTICAL_EVIDENCE = 0.999;

/**
 * Words that frame a finding's title without saying which thing it is about ("Lack of ...", "Missing ...",
 * "Possible ..."): a retitled heading often swaps them, so they never make two titles siblings.
 */
const FRAMING_WORDS = new Set(
  'lack missing absent absence insufficient inadequate improper incorrect wrong invalid possible potential could can may might allow allows lead result due use usage issue vulnerability risk problem several multiple unchecked unsafe unprotected no'.split(
    ' ',
  ),
);

/**
 * Siblings: near-identical findings that differ in a word naming what they are about ("Missing rate
 * limiting on login" / "... on password reset", "Reentrancy in deposit" / "... in withdraw"). They share at
 * least two content words and each has a distinguishing word of its own that is not a framing word. The
 * merge's rule, applied between versions: they are never paired by similarity, only offered as a candidate,
 * unless they quote the very same words (evidence differing in one word is the siblings' own passages).
 */
export function areSiblings(a: Pick<PairingItem, 'title'>, b: Pick<PairingItem, 'title'>): boolean {
  const wa = contentWords(a.title);
  const wb = contentWords(b.title);
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  const own = (x: Set<string>, y: Set<string>) => [...x].some((w) => !y.has(w) && !FRAMING_WORDS.has(w));
  return shared >= 2 && own(wa, wb) && own(wb, wa);
}

function sameById(a: PairingItem, b: PairingItem): boolean {
  return a.id !== null && b.id !== null && comparableId(a.id) === comparableId(b.id);
}

/** Whether two sides sharing an ID still talk about the same thing (a renumbering reuses IDs for other findings). */
export function agreeEnough(a: PairingItem, b: PairingItem): boolean {
  // A side read from a bare ID mention without words beside it has no title to disagree with.
  if (a.title === '' || b.title === '') return true;
  if (compareFindings(asComparable(a), asComparable(b)).same) return true;
  return textSimilarity(a.title, b.title) >= CANDIDATE_SCORE || (a.evidence !== '' && textSimilarity(a.evidence, b.evidence) >= CANDIDATE_SCORE);
}

function asComparable(item: PairingItem): { title: string; description: string } {
  return { title: item.title, description: `${item.description} ${item.evidence}` };
}

export function pairFindings(earlier: readonly PairingItem[], later: readonly PairingItem[]): { matches: Match[]; candidates: Candidate[] } {
  const matches: Match[] = [];
  const candidates: Candidate[] = [];
  const pairedEarlier = new Set<number>();
  const pairedLater = new Set<number>();
  const pair = (e: number, l: number, rule: Match['rule'], score: number) => {
    matches.push({ earlier: e, later: l, rule, score });
    pairedEarlier.add(e);
    pairedLater.add(l);
  };
  const idMismatch: Candidate[] = [];

  // 1. The printed ID, when exactly one finding on each side prints it.
  for (const [e, a] of earlier.entries()) {
    if (a.id === null) continue;
    const sameE = earlier.filter((x) => sameById(x, a));
    const sameL = [...later.entries()].filter(([, b]) => sameById(a, b));
    if (sameE.length !== 1 || sameL.length !== 1) continue;
    const [l, b] = sameL[0]!;
    if (agreeEnough(a, b)) pair(e, l, 'printed-id', 1);
    else
      idMismatch.push({
        earlier: e,
        later: l,
        reason: `Both print ${a.id}, but the titles differ ("${a.title}" / "${b.title}"): the ID may have been reused after a renumbering.`,
        score: round(textSimilarity(a.title, b.title)),
      });
  }

  // 2. The printed number with a title the merge calls the same (not siblings).
  for (const [e, a] of earlier.entries()) {
    if (pairedEarlier.has(e) || a.number === null) continue;
    const options = [...later.entries()].filter(
      ([l, b]) =>
        !pairedLater.has(l) &&
        b.number === a.number &&
        compareFindings({ title: a.title, description: '' }, { title: b.title, description: '' }).same &&
        !areSiblings(a, b),
    );
    if (options.length === 1) pair(e, options[0]![0], 'number-title', 1);
  }

  // 3. Title and evidence similarity, best first; a match must be the only one on both sides and not between siblings.
  const scored: { e: number; l: number; same: boolean; score: number; siblings: boolean; sameEvidence: boolean }[] = [];
  for (const [e, a] of earlier.entries()) {
    if (pairedEarlier.has(e)) continue;
    for (const [l, b] of later.entries()) {
      if (pairedLater.has(l)) continue;
      const similarity = compareFindings(asComparable(a), asComparable(b));
      const evidence = a.evidence !== '' && b.evidence !== '' ? textSimilarity(a.evidence, b.evidence) : 0;
      const score = Math.max(similarity.score, textSimilarity(a.title, b.title), evidence);
      if (!similarity.same && score < CANDIDATE_SCORE) continue;
      scored.push({
        e,
        l,
        same: similarity.same || evidence >= SAME_EVIDENCE,
        score,
        siblings: areSiblings(a, b),
        sameEvidence: evidence >= IDENTICAL_EVIDENCE,
      });
    }
  }
  scored.sort((x, y) => y.score - x.score || x.e - y.e || x.l - y.l);
  const sureOf = (s: (typeof scored)[number]) => s.same && (!s.siblings || s.sameEvidence);
  const offered = new Set<string>();
  for (const s of scored) {
    if (pairedEarlier.has(s.e) || pairedLater.has(s.l)) continue;
    const rivals = scored.filter((r) => r !== s && !pairedEarlier.has(r.e) && !pairedLater.has(r.l) && (r.e === s.e || r.l === s.l) && sureOf(r));
    if (sureOf(s) && rivals.length === 0) {
      pair(s.e, s.l, 'similarity', round(s.score));
      continue;
    }
    const reason =
      s.siblings && s.same
        ? `Near-identical titles that differ in what they are about ("${earlier[s.e]!.title}" / "${later[s.l]!.title}"): siblings are never paired without the auditor.`
        : sureOf(s)
          ? 'Similar to more than one finding on the other side: the auditor chooses.'
          : 'Similar titles or evidence, but not enough to pair without the auditor.';
    offered.add(`${s.e}:${s.l}`);
    candidates.push({ earlier: s.e, later: s.l, reason, score: round(s.score) });
  }
  // An ID shared by two findings that disagree stays a candidate when nothing else paired them.
  for (const c of idMismatch) {
    if (!pairedEarlier.has(c.earlier) && !pairedLater.has(c.later) && !offered.has(`${c.earlier}:${c.later}`)) candidates.push(c);
  }
  return {
    matches: matches.sort((x, y) => x.earlier - y.earlier),
    candidates: candidates.filter((c) => !pairedEarlier.has(c.earlier) && !pairedLater.has(c.later)).sort((x, y) => x.earlier - y.earlier || y.score - x.score),
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
