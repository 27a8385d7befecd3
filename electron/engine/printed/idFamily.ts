/**
 * Which unreviewed ID mentions are finding IDs. A report names standards,
 * licences and advisories in the same shape as its finding IDs (EIP-4844,
 * ERC-20, BIP-0332, AGPL-3, CVE-2021-22569): those are references, and
 * listing them as "mentioned but no finding covers it" buries the real gaps.
 * An ID counts when it is of the document's own family (the prefix its
 * findings' IDs use, or the IDs printed in its lists of findings), or of one
 * of the profile's own patterns (PBI-12, CR-7: what the user asked to track).
 * The generic finding-ID shape alone (FAA-2020, IEEE-754, MAX-8) outside the
 * document's family says nothing.
 */
import type { ListedEntry } from '../../../shared/completeness';
import type { MergedFinding } from '../../../shared/findings';
import type { IdPattern } from '../../../shared/idPatterns';
import { findIdMentions, idFamily, isReferenceId, normalizeId } from '../rules';
import { caseFoldedAscii, wordSequenceMatches } from '../util';

export { idFamily, isReferenceId };

/** The profile pattern for any finding-ID shape (PREFIX-12): matches too much to count without a family. */
const GENERIC_PATTERN_NAME = 'finding';

/** An ID string (letters, then a number), as opposed to a bare section number. */
const ID_SHAPE = /^[A-Za-z][A-Za-z0-9]*(?:[-\s_][A-Za-z0-9]+)*[-\s_]\d+$/;

/** The families the document's own finding IDs belong to: the found findings' IDs and the IDs its lists print. */
export function ownIdFamilies(findingKeys: readonly (string | null)[], listed: readonly Pick<ListedEntry, 'id'>[]): Set<string> {
  const families = new Set<string>();
  for (const key of [...findingKeys, ...listed.map((e) => e.id)]) if (key && ID_SHAPE.test(key)) families.add(idFamily(key));
  return families;
}

/** The mentions that are finding IDs of this document, and the ones that are references (or of another family, or of no known one). */
export function splitMentions<T extends { id: string }>(
  mentions: readonly T[],
  families: ReadonlySet<string>,
  idPatterns: readonly IdPattern[],
): { findingIds: T[]; references: T[] } {
  const specific = idPatterns.filter((p) => p.name !== GENERIC_PATTERN_NAME).map((p) => new RegExp(`^(?:${p.source})$`, p.caseSensitive ? '' : 'i'));
  const findingIds: T[] = [];
  const references: T[] = [];
  for (const m of mentions) {
    // The user's own patterns (PBI-12, CR-7: what the profile says to track) always count; the generic shape only
    // within the document's family.
    const own = families.has(idFamily(m.id)) || (!isReferenceId(m.id) && specific.some((re) => re.test(normalizeId(m.id))));
    (own ? findingIds : references).push(m);
  }
  return { findingIds, references };
}

/** How far before a quote its finding's heading may be printed (heading, severity and ID lines, a sub-heading). */
const HEADING_BLOCK_CHARS = 600;

/**
 * IDs printed in the heading block of a found finding that carries no ID of its own: between its title's last
 * occurrence before one of its quotes and the quote ("5. TOCTOU of gateway endpoint authentication / Severity: Low /
 * Finding ID: TOB-ETCD-005 / Description / <quote>"). Only a block naming exactly one ID counts: that ID is the
 * finding's, found, though the finding was not keyed by it (its quote cites another ID, say).
 */
export function headingBlockIds(text: string, findings: readonly MergedFinding[], idPatterns: readonly IdPattern[]): Set<string> {
  const out = new Set<string>();
  for (const f of findings) {
    if (f.findingKey !== null) continue;
    const title = titlePattern(f.title);
    if (!title) continue;
    for (const s of f.sources) {
      if (!s.grounded || s.evidenceStart === null) continue;
      const from = Math.max(0, s.evidenceStart - HEADING_BLOCK_CHARS);
      const before = text.slice(from, s.evidenceStart);
      const heading = lastOccurrence(before, title);
      if (!heading) continue;
      const block = before.slice(heading.index + heading.length);
      const ids = new Set(findIdMentions(block, [], idPatterns).map((m) => m.normalized));
      if (ids.size === 1) out.add([...ids][0]!);
    }
  }
  return out;
}

/** The title's words in order, anything but letters and digits between them (line breaks, hyphens, quotes), in any case. */
function titlePattern(title: string): { words: string[]; regex: () => RegExp } | null {
  const words = title.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length < 2) return null;
  return { words, regex: () => new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^\\p{L}\\p{N}]+'), 'giu') };
}

/**
 * The title's last occurrence in `text`. Plain ASCII words (nearly every title) are found without a regular
 * expression (util/wordSequence.ts: compiling one per title was most of the completeness check's time); others with it.
 */
function lastOccurrence(text: string, title: NonNullable<ReturnType<typeof titlePattern>>): { index: number; length: number } | undefined {
  const folded = caseFoldedAscii(text, title.words);
  if (folded) {
    let last: { index: number; length: number } | undefined;
    for (const m of wordSequenceMatches(folded.text, folded.words, { caseFolded: true })) last = m;
    return last;
  }
  const m = [...text.matchAll(title.regex())].at(-1);
  return m ? { index: m.index, length: m[0].length } : undefined;
}
