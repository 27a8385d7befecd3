import { pageAt } from '../../../shared/canonical';
import type { IdMention, PageSpan } from '../../../shared/types';
import { normalizeForIds, normalizeId } from './normalize';
import type { IdPattern } from './patterns';

/**
 * Finds every ID mention in a document's canonical text. When two patterns
 * match overlapping text (CR-1 inside TOB-MOSQ-CR-1), the longest match wins so
 * an ID is listed once under its full name.
 */
export function findIdMentions(text: string, pages: readonly PageSpan[], patterns: readonly IdPattern[]): IdMention[] {
  const view = normalizeForIds(text);
  const candidates: { pattern: string; start: number; end: number }[] = [];
  for (const pattern of patterns) {
    const regex = new RegExp(pattern.source, pattern.caseSensitive ? 'g' : 'gi');
    for (const match of view.text.matchAll(regex)) {
      if (match[0].length === 0) continue;
      candidates.push({ pattern: pattern.name, start: match.index, end: match.index + match[0].length });
    }
  }
  candidates.sort((a, b) => a.start - b.start || b.end - a.end);
  const mentions: IdMention[] = [];
  let coveredUntil = -1;
  for (const candidate of candidates) {
    if (candidate.start < coveredUntil) continue;
    coveredUntil = candidate.end;
    const start = view.originalOffset[candidate.start]!;
    const end = view.originalOffset[candidate.end - 1]! + 1;
    const raw = text.slice(start, end);
    mentions.push({ patternName: candidate.pattern, raw, normalized: normalizeId(raw), start, end, page: pageAt(pages, start) });
  }
  return mentions;
}

/** Checks patterns compile and cannot match the empty string; returns a sentence per bad pattern. */
export function validatePatterns(patterns: readonly IdPattern[]): string[] {
  const problems: string[] = [];
  for (const pattern of patterns) {
    try {
      const regex = new RegExp(pattern.source, pattern.caseSensitive ? '' : 'i');
      if (regex.test('')) problems.push(`Pattern "${pattern.name}" matches empty text; make it require at least one character.`);
    } catch (error) {
      problems.push(`Pattern "${pattern.name}" is not a valid regular expression: ${(error as Error).message}`);
    }
  }
  return problems;
}
