/** The document library: every stored document, the last drop's outcome, and the sample document of the first run. */
import type { DocumentSummary, ImportResult, OllamaStatus } from '../../../shared/contract';
import type { ErrorInfo } from '../../../shared/errors';
import { fileToBase64 } from '../api';
import { patcher, type SliceCreator } from './slice';

export interface ImportOutcome {
  accepted: string[];
  rejected: { name: string; error: ErrorInfo }[];
  runId: number | null;
}

export interface LibrarySlice {
  documents: DocumentSummary[];
  loaded: boolean;
  error: string | null;
  importing: boolean;
  lastImport: ImportOutcome | null;
  /** Ollama was down when files were dropped for a full analysis: what the drop zone says at once. */
  ollamaDown: OllamaStatus | null;
  load(): Promise<void>;
  /** Imports files, and says at once when the full analysis they start cannot reach Ollama. */
  importFiles(files: readonly File[]): Promise<ImportResult | null>;
  /** Adds the sample document; once its run is done the user lands on its first finding, as the welcome promises. */
  trySample(): Promise<void>;
}

export const createLibrarySlice: SliceCreator<'library'> = (set, get, api) => {
  const patch = patcher(set, 'library');
  const library = () => get().library;

  async function sendFiles(files: readonly File[]): Promise<ImportResult | null> {
    // Files the browser cannot read are rejected here with the reason; the host checks the rest (PDF header, size).
    const unreadable: ImportOutcome['rejected'] = [];
    const uploads: { name: string; bytes: string }[] = [];
    for (const file of files) {
      try {
        uploads.push({ name: file.name, bytes: await fileToBase64(file) });
      } catch (error) {
        unreadable.push({
          name: file.name,
          error: { code: 'FILE_NOT_FOUND', message: `${file.name} could not be read (${(error as Error).message}). Check the file and try again.` },
        });
      }
    }
    const result = uploads.length > 0 ? await get().host.call('documents.import', { files: uploads }) : null;
    const outcome: ImportOutcome = {
      accepted: result?.ok ? result.data.accepted.map((a) => a.name) : [],
      rejected: [...unreadable, ...(result?.ok ? result.data.rejected : result ? uploads.map((u) => ({ name: u.name, error: result.error })) : [])],
      runId: result?.ok ? result.data.runId : null,
    };
    patch({ lastImport: outcome });
    return result?.ok ? result.data : null;
  }

  // Drops are imported one after another, each as its own run: a second drop made while the first is still being
  // sent waits its turn instead of being lost (two quick drops used to import only the first).
  let importsDone: Promise<unknown> = Promise.resolve();
  let importsWaiting = 0;

  /** Once run `runId` is done, shows its document's first finding (the sample's promise). */
  function followToFirstFinding(runId: number): void {
    const stop = api.subscribe((state) => {
      const run = state.runs.runs.find((r) => r.id === runId);
      if (!run || run.active || (run.status !== 'done' && run.status !== 'failed' && run.status !== 'cancelled')) return;
      stop();
      const documentId = run.inputs.find((i) => i.documentId !== null)?.documentId;
      if (run.status !== 'done' || documentId === undefined || documentId === null) return;
      void get()
        .doc.show(documentId, 'findings')
        .then(() => {
          const first = get().review.view?.findings[0];
          if (first && get().review.documentId === documentId) get().review.setActive(first.id);
        });
    });
  }

  return {
    library: {
      documents: [],
      loaded: false,
      error: null,
      importing: false,
      lastImport: null,
      ollamaDown: null,
      async load() {
        const result = await get().host.call('documents.list', {});
        patch(result.ok ? { documents: result.data, loaded: true, error: null } : { error: result.error.message, loaded: true });
      },
      async importFiles(files) {
        if (files.length === 0) return null;
        importsWaiting += 1;
        patch({ importing: true });
        const turn = importsDone.then(async () => {
          // Files go in whatever Ollama's state (the rules-only part and the stored text need no model), but a full
          // analysis with Ollama down is answered at once with what to do instead of a run that fails later.
          const [result, status] = await Promise.all([sendFiles(files), get().ollama.check()]);
          const full = (get().settings.settings?.analysisMode ?? 'full') === 'full';
          patch({ ollamaDown: result && result.accepted.length > 0 && full && status && !status.reachable ? status : null });
          return result;
        });
        importsDone = turn.catch(() => undefined);
        try {
          return await turn;
        } finally {
          importsWaiting -= 1;
          if (importsWaiting === 0) patch({ importing: false });
        }
      },
      async trySample() {
        const sample = await get().host.call('documents.sample', {});
        if (!sample.ok) return patch({ error: sample.error.message });
        const bytes = Uint8Array.from(atob(sample.data.bytes), (c) => c.charCodeAt(0));
        const imported = await library().importFiles([new File([bytes], sample.data.name, { type: 'application/pdf' })]);
        if (imported?.runId) followToFirstFinding(imported.runId);
      },
    },
  };
};
