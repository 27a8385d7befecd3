/**
 * "Open" and "Show in folder" after an export. The renderer may ask main to open a file only if main
 * itself saw that file come out of an export in this session (the host's exports folder or the copy the
 * user saved): a path the window makes up is refused, so a compromised page cannot open arbitrary files.
 */
import type { ExportResult } from '../../shared/contract';

export interface Revealer {
  /** Records the files an export produced. */
  remember(result: Pick<ExportResult, 'path' | 'savedTo'>): void;
  /** The file, when it may be opened or shown; null otherwise. */
  allowed(path: string): string | null;
}

export function createRevealer(): Revealer {
  const produced = new Set<string>();
  return {
    remember(result) {
      produced.add(result.path);
      if (result.savedTo) produced.add(result.savedTo);
    },
    allowed: (path) => (produced.has(path) ? path : null),
  };
}
