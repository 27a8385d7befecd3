/**
 * IDs that are references, not findings: standards, proposals, licences, advisories and weakness catalogues cited
 * by a document (ERC-20, EIP-4626, CVE-2021-22569, RFC 7231, AGPL-3), and ranges of code lines (L90-91). Shaped
 * like finding IDs, they are never a finding's key: two findings that name ERC-20 are not one finding, a release
 * note's register is not made of them, and none is offered as a finding the model may have missed.
 */

/** Prefixes of standards, proposals, licences, advisories and weakness catalogues. */
const REFERENCE_PREFIXES = new Set([
  'EIP',
  'ERC',
  'BIP',
  'SIP',
  'TIP',
  'LIP',
  'SLIP',
  'CAIP',
  'NIP',
  'KIP',
  'FIP',
  'XIP',
  'ZIP',
  'PEP',
  'JEP',
  'JSR',
  'SWC',
  'CVE',
  'CWE',
  'CAPEC',
  'GHSA',
  'RUSTSEC',
  'OSV',
  'NVD',
  'RFC',
  'ISO',
  'IEC',
  'NIST',
  'FIPS',
  'SP',
  'PCI',
  'SOC',
  'OWASP',
  'ASVS',
  'GPL',
  'AGPL',
  'LGPL',
  'MPL',
  'BSD',
  'APACHE',
  'CC',
  'MIT',
  'EPL',
  'SPDX',
  'BY',
  'SA',
  'SHA',
  'UTF',
  'AES',
  'TLS',
  'SSL',
  'HTTP',
  'RSA',
  'MD',
  'PKCS',
  'ECDSA',
  'ED',
  'X',
  'P',
  'SECP',
]);

/** The family of an ID: its first part, upper case ("TOB-MOSQ-CR-7" is of TOB, "LID-02" of LID). */
export function idFamily(id: string): string {
  return (id.split(/[-\s_]/)[0] ?? id).toUpperCase();
}

/**
 * A range of code lines as reports cite them from a repository ("L90-91", "L219-249": GitHub's #L90-L91 without
 * its second L): shaped like an ID of the family "L90", it points at code, never at a finding.
 */
const CODE_LINE_RANGE = /^L\d+-L?\d+$/i;

/** Whether an ID is a reference (its family is a standard's, an advisory's, a licence's..., or it is a range of code lines), never a finding's. */
export function isReferenceId(id: string): boolean {
  return REFERENCE_PREFIXES.has(idFamily(id)) || CODE_LINE_RANGE.test(id.trim());
}
