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
import type { IdPattern } from '../../../shared/idPatterns';
import { normalizeId } from '../rules';

/** The profile pattern for any finding-ID shape (PREFIX-12): matches too much to count without a family. */
const GENERIC_PATTERN_NAME = 'finding';

/** Prefixes of standards, proposals, licences, advisories and weakness catalogues: references, not findings. */
const REFERENCE_PREFIXES = new Set([
  'EIP', 'ERC', 'BIP', 'SIP', 'TIP', 'LIP', 'SLIP', 'CAIP', 'NIP', 'KIP', 'FIP', 'XIP', 'ZIP', 'PEP', 'JEP', 'JSR', 'SWC',
  'CVE', 'CWE', 'CAPEC', 'GHSA', 'RUSTSEC', 'OSV', 'NVD', 'RFC', 'ISO', 'IEC', 'NIST', 'FIPS', 'SP', 'PCI', 'SOC', 'OWASP', 'ASVS',
  'GPL', 'AGPL', 'LGPL', 'MPL', 'BSD', 'APACHE', 'CC', 'MIT', 'EPL', 'SPDX', 'BY', 'SA',
  'SHA', 'UTF', 'AES', 'TLS', 'SSL', 'HTTP', 'RSA', 'MD', 'PKCS', 'ECDSA', 'ED', 'X', 'P', 'SECP',
]);

/** The family of an ID: its first part, upper case ("TOB-MOSQ-CR-7" is of TOB, "LID-02" of LID). */
export function idFamily(id: string): string {
  return (id.split(/[-\s_]/)[0] ?? id).toUpperCase();
}

/** An ID string (letters, then a number), as opposed to a bare section number. */
const ID_SHAPE = /^[A-Za-z][A-Za-z0-9]*(?:[-\s_][A-Za-z0-9]+)*[-\s_]\d+$/;

/** The families the document's own finding IDs belong to: the found findings' IDs and the IDs its lists print. */
export function ownIdFamilies(findingKeys: readonly (string | null)[], listed: readonly Pick<ListedEntry, 'id'>[]): Set<string> {
  const families = new Set<string>();
  for (const key of [...findingKeys, ...listed.map((e) => e.id)]) if (key && ID_SHAPE.test(key)) families.add(idFamily(key));
  return families;
}

export function isReferenceId(id: string): boolean {
  return REFERENCE_PREFIXES.has(idFamily(id));
}

/** The mentions that are finding IDs of this document, and the ones that are references (or of another family, or of no known one). */
export function splitMentions<T extends { id: string }>(mentions: readonly T[], families: ReadonlySet<string>, idPatterns: readonly IdPattern[]): { findingIds: T[]; references: T[] } {
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
