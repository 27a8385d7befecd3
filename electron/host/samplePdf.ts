/**
 * The sample document of the first-run screen: a short audit report written
 * as a real PDF (text layer, two pages, Helvetica) without any dependency, so
 * a new user can try the whole flow on a file that is known to work. Its
 * findings have IDs, severities and verbatim sentences; one ID is mentioned
 * without a finding (what the "unreviewed mentions" list is for).
 */
const PAGES: string[][] = [
  [
    'Sample Audit Report: Document Portal 2025',
    '',
    '1 Introduction',
    'This sample report shows how Offline Audit reads a report. It reviews the document portal',
    'of a fictional company. Change request CR-2041 is out of scope for this review.',
    '',
    '2 Findings',
    '',
    '2.1 SAMPLE-001 Passwords are stored with an outdated hash',
    'Severity: High',
    'The portal stores user passwords as unsalted SHA-1 hashes in the accounts table.',
    'An attacker who copies the table can recover most passwords within hours.',
    'Recommendation: hash passwords with Argon2id and a per-user salt.',
  ],
  [
    '2.2 SAMPLE-002 Uploaded files are not scanned',
    'Severity: Medium',
    'Files uploaded through the portal are stored and shared without a malware scan.',
    'Recommendation: scan every upload before it is shared with other users.',
    '',
    '2.3 SAMPLE-003 Audit log can be edited by administrators',
    'Severity: Low',
    'Administrators can change entries of the audit log from the settings page.',
    'Recommendation: make the audit log append-only and export it daily.',
    '',
    '3 Conclusion',
    'Three findings were identified. SAMPLE-001 should be fixed first.',
  ],
];

const escapePdfText = (line: string) => line.replace(/[\\()]/g, (c) => `\\${c}`);

/** The title large, numbered headings bold and larger than the body: the structure a real report shows. */
function fontOf(line: string, first: boolean): string {
  if (first) return '/F2 16';
  return /^\d+(\.\d+)* /.test(line) ? '/F2 13' : '/F1 11';
}

function pageStream(lines: readonly string[], firstPage: boolean): string {
  return lines.map((line, i) => `BT ${fontOf(line, firstPage && i === 0)} Tf 60 ${760 - i * 20} Td (${escapePdfText(line)}) Tj ET`).join('\n');
}

/** The sample report's bytes. */
export function samplePdf(): Buffer {
  const objects: string[] = [];
  const pageIds = PAGES.map((_, i) => 5 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${PAGES.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  PAGES.forEach((lines, i) => {
    const stream = pageStream(lines, i === 0);
    objects[pageIds[i]!] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`;
    objects[pageIds[i]! + 1] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out, 'latin1');
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
