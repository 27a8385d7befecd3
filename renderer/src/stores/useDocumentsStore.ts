import { create } from 'zustand';
import type { DocumentSummary, ImportResult } from '../../../shared/contract';
import type { ErrorInfo } from '../../../shared/errors';
import { fileToBase64, invoke } from '../api';

export interface ImportOutcome {
  accepted: string[];
  rejected: { name: string; error: ErrorInfo }[];
  runId: number | null;
}

interface DocumentsState {
  documents: DocumentSummary[];
  loaded: boolean;
  error: string | null;
  importing: boolean;
  lastImport: ImportOutcome | null;
  load(): Promise<void>;
  importFiles(files: readonly File[]): Promise<ImportResult | null>;
}

export const useDocumentsStore = create<DocumentsState>()((set, get) => ({
  documents: [],
  loaded: false,
  error: null,
  importing: false,
  lastImport: null,
  async load() {
    const result = await invoke('documents.list', {});
    set(result.ok ? { documents: result.data, loaded: true, error: null } : { error: result.error.message, loaded: true });
  },
  async importFiles(files) {
    if (files.length === 0 || get().importing) return null;
    set({ importing: true });
    // Files the browser cannot read are rejected here with the reason; the host checks the rest (PDF header, size).
    const unreadable: ImportOutcome['rejected'] = [];
    const uploads: { name: string; bytes: string }[] = [];
    for (const file of files) {
      try {
        uploads.push({ name: file.name, bytes: await fileToBase64(file) });
      } catch (error) {
        unreadable.push({ name: file.name, error: { code: 'FILE_NOT_FOUND', message: `${file.name} could not be read (${(error as Error).message}). Check the file and try again.` } });
      }
    }
    const result = uploads.length > 0 ? await invoke('documents.import', { files: uploads }) : null;
    const outcome: ImportOutcome = {
      accepted: result?.ok ? result.data.accepted.map((a) => a.name) : [],
      rejected: [...unreadable, ...(result?.ok ? result.data.rejected : result ? uploads.map((u) => ({ name: u.name, error: result.error })) : [])],
      runId: result?.ok ? result.data.runId : null,
    };
    set({ importing: false, lastImport: outcome });
    return result?.ok ? result.data : null;
  },
}));
