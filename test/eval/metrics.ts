import type { MergedFinding } from '../../shared/findings';
import { normalizeId } from '../../electron/engine/rules';
import type { TruthFinding } from './labelledSet';

export interface DocumentScore {
  truth: number;
  reported: number;
  grounded: number;
  /** Truth findings matched by a grounded finding. */
  found: number;
  /** Grounded findings that match no truth finding. */
  extra: number;
  /** Truth findings matched by more than one grounded finding (a merge that should have happened). */
  duplicates: number;
}

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 2);

/**
 * Title similarity: Dice coefficient of the word sets, at least 0.75. Robust
 * to reordering ("Login rate limiting missing" / "Missing rate limiting on
 * login"), strict enough to keep "... on login" and "... on password reset" apart.
 */
function titleMatches(truthTitle: string, reported: string): boolean {
  const t = new Set(words(truthTitle));
  const r = new Set(words(reported));
  if (t.size === 0 || r.size === 0) return false;
  const shared = [...t].filter((w) => r.has(w)).length;
  return (2 * shared) / (t.size + r.size) >= 0.75;
}

/**
 * A reported finding matches a truth finding by ID when both have one,
 * otherwise by title; its pages must include the truth page (±1: reports
 * restate findings in tables a page away from the detailed section).
 */
export function matches(truth: TruthFinding, finding: MergedFinding): boolean {
  const pages = finding.sources.map((s) => s.page).filter((p): p is number => p !== null);
  const nearPage = pages.some((p) => Math.abs(p - truth.page) <= 1);
  if (truth.id && finding.findingKey) return normalizeId(truth.id) === finding.findingKey && nearPage;
  return nearPage && truth.titles.some((title) => titleMatches(title, finding.title));
}

export function scoreDocument(truth: readonly TruthFinding[], findings: readonly MergedFinding[]): DocumentScore {
  const grounded = findings.filter((f) => f.grounded);
  const matchedBy = truth.map((t) => grounded.filter((f) => matches(t, f)).length);
  return {
    truth: truth.length,
    reported: findings.length,
    grounded: grounded.length,
    found: matchedBy.filter((n) => n > 0).length,
    extra: grounded.filter((f) => !truth.some((t) => matches(t, f))).length,
    duplicates: matchedBy.filter((n) => n > 1).length,
  };
}

export function summarize(scores: readonly DocumentScore[]) {
  const sum = (key: keyof DocumentScore) => scores.reduce((a, s) => a + s[key], 0);
  const grounded = sum('grounded');
  return {
    recall: sum('truth') === 0 ? 1 : sum('found') / sum('truth'),
    precision: grounded === 0 ? 1 : (grounded - sum('extra')) / grounded,
    groundedShare: sum('reported') === 0 ? 1 : grounded / sum('reported'),
    duplicates: sum('duplicates'),
  };
}
