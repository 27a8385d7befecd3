/**
 * One document's data in a store, loaded the one way every per-document
 * store loads it: the store says which document it shows, switching to
 * another clears what it showed, and an answer that comes back after the
 * store moved on (to another document, or to a newer load of the same one)
 * is dropped, so a slow answer can never paint one document's data, or its
 * error, over another's.
 */
import type { ErrorInfo, Result } from '../../../shared/errors';

/** The fields a per-document store keeps for its loader. */
export interface PerDocumentFields<Key, Err> {
  /** The document shown; null before the first load (for a store whose key may be null, such as "all documents", too). */
  documentId: Key | null;
  loading: boolean;
  /** Why the last load of this document failed; cleared on switching documents and on a load that succeeds. */
  error: Err;
}

export interface PerDocumentSpec<State extends PerDocumentFields<Key, Err>, Key, Data, Err> {
  fetch(documentId: Key): Promise<Result<Data>>;
  /** What the store shows for a document whose data has not come yet: set on switching documents. */
  empty(): Partial<State>;
  /** The store's state for the data that came. */
  apply(data: Data, documentId: Key): Partial<State>;
  /** The error as the store keeps it (a sentence for most stores; the review keeps the whole ErrorInfo). */
  error(error: ErrorInfo): Err;
  /** The store's state when a load fails (besides `error` and `loading`); nothing by default: what was shown stays. */
  failed?(): Partial<State>;
}

export interface PerDocumentLoader<Key> {
  /** Shows `documentId` and loads it; resolves true when this answer was applied, false when it came too late. */
  load(documentId: Key): Promise<boolean>;
}

export function perDocumentLoader<State extends PerDocumentFields<Key, Err>, Key, Data, Err>(
  set: (patch: Partial<State>) => void,
  get: () => State,
  spec: PerDocumentSpec<State, Key, Data, Err>,
): PerDocumentLoader<Key> {
  let latest = 0;
  return {
    async load(documentId) {
      const ticket = ++latest;
      const switching = get().documentId !== documentId;
      set({ documentId, loading: true, ...(switching ? { ...spec.empty(), error: null } : {}) } as Partial<State>);
      const result = await spec.fetch(documentId);
      // A newer load started meanwhile (this document again, or another one): its answer is the one to show.
      if (ticket !== latest || get().documentId !== documentId) return false;
      if (result.ok) set({ ...spec.apply(result.data, documentId), loading: false, error: null } as Partial<State>);
      else set({ ...spec.failed?.(), loading: false, error: spec.error(result.error) } as Partial<State>);
      return true;
    },
  };
}

/** The error as a sentence: how most stores show it. */
export const errorMessage = (error: ErrorInfo): string => error.message;
