/**
 * The report formats and how a file name picks one. Here rather than in the
 * engine's report module so that the CLI can check its --out and --format
 * before it loads the engine (its first line comes at once, see cli/analyze.ts).
 */
export const REPORT_FORMATS = ['md', 'html', 'pdf', 'csv', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function isReportFormat(value: string): value is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(value);
}

/** The format a file name asks for (".md", ".markdown", ".htm" accepted), or undefined. */
export function formatFromPath(filePath: string): ReportFormat | undefined {
  const ext = /\.([a-z]+)$/i.exec(filePath)?.[1]?.toLowerCase();
  if (ext === 'markdown') return 'md';
  if (ext === 'htm') return 'html';
  return ext !== undefined && isReportFormat(ext) ? ext : undefined;
}
