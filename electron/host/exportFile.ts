/** Every export of the app (reports, comparisons, conversations) is written here: into the exports folder, never through a link. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeOutputFile } from '../engine/util';

/** Writes `content` as `fileName` in `exportsDir` (created if needed) with writeOutputFile, and says where and how large. */
export function writeExport(exportsDir: string, fileName: string, content: string | Uint8Array): { path: string; bytes: number } {
  mkdirSync(exportsDir, { recursive: true });
  const path = join(exportsDir, fileName);
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  writeOutputFile(path, bytes);
  return { path, bytes: bytes.length };
}
