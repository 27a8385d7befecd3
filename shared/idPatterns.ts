/**
 * Issue-ID patterns: plain data (a name, a regular-expression source, whether
 * case matters) so users can edit them in settings and extraction profiles,
 * and every layer can read them.
 */
export interface IdPattern {
  name: string;
  /** Regular-expression source, matched against text with invisible characters removed and dashes unified. */
  source: string;
  /** Default false: "cr-42" in running text is still CR-42. */
  caseSensitive?: boolean;
}

/**
 * Standard and algorithm names that have the shape of a finding ID (SHA-256,
 * UTF-8, ISO-27001, CWE-79). Listing them as unreviewed IDs would bury the
 * real ones, so the generic pattern skips them.
 */
const NOT_FINDING_PREFIXES = ['SHA', 'AES', 'UTF', 'ISO', 'IEC', 'RFC', 'HTTP', 'TLS', 'SSL', 'MD', 'RSA', 'CWE', 'COVID', 'PKCS', 'X', 'ES', 'HS', 'RS', 'PS'];

export const DEFAULT_ID_PATTERNS: readonly IdPattern[] = [
  { name: 'PBI', source: String.raw`\bPBI-\d+\b` },
  { name: 'CR', source: String.raw`\bCR-\d+\b` },
  { name: 'CVE', source: String.raw`\bCVE-\d{4}-\d{4,}\b` },
  // Audit-firm finding IDs: an upper-case prefix, optional upper-case parts, a number: TOB-ACME-12, TOB-MOSQ-CR-1, LID-02.
  // Case-sensitive so ordinary hyphenated words never match.
  {
    name: 'finding',
    source: String.raw`\b(?!(?:${NOT_FINDING_PREFIXES.join('|')})-)[A-Z][A-Z0-9]{1,7}(?:-[A-Z][A-Z0-9]{0,9})*-\d{1,5}\b`,
    caseSensitive: true,
  },
];
