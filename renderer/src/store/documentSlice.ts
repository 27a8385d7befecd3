/**
 * The open document, and what the views show of it.
 *
 * There is one open document for the whole window (`doc.openId`): the Document
 * view, the triage queue, the table of findings, the completeness panel and
 * the document's notes all show it, and every link that names a document (a
 * library button, a citation, a page link, a picker) opens it through
 * `doc.open` or `doc.show`. Each part of its data (the analysis, completeness,
 * mentions, tree-split attempts, health, and the tree and review in their own
 * slices) is loaded by the per-document loader: a part knows which document it
 * holds, and a view shows a part only when it holds the open document.
 */
import type { CompletenessView, DocumentAnalysis, DocumentHealth, MentionView, SplitAttemptView, ChunkResultView } from '../../../shared/contract';
import type { CommandName, CommandOutputs } from '../../../shared/contract';
import type { Result } from '../../../shared/errors';
import type { Store } from '.';
import type { View } from './navSlice';
import { errorMessage, perDocumentLoader, type PerDocumentSpec } from './perDocumentLoader';
import { patcher, type GetStore, type SetStore, type SliceCreator } from './slice';

/** The fields every per-document part has: the document it holds, whether that document's data came, and why not. */
export interface PartState {
  documentId: number | null;
  loading: boolean;
  /** The data of `documentId` came (false while switching documents). */
  loaded: boolean;
  error: string | null;
  /** Loads `documentId` into the part, unless it already holds it (`force` loads it again). */
  load(documentId: number, force?: boolean): Promise<void>;
}

export interface AnalysisPart extends PartState {
  analysis: DocumentAnalysis | null;
  /** Chunk results by node index (for the tree's status column). */
  byNode: Map<number, ChunkResultView>;
}
export interface CompletenessPart extends PartState {
  view: CompletenessView | null;
}
export interface MentionsPart extends PartState {
  mentions: MentionView[];
}
export interface SplitsPart extends PartState {
  attempts: SplitAttemptView[];
}
export interface HealthPart extends PartState {
  health: DocumentHealth | null;
}

/** The parts of the open document's data, as `doc.refresh` names them. */
export const DOCUMENT_PARTS = ['tree', 'analysis', 'completeness', 'mentions', 'splits', 'health', 'review'] as const;
export type DocumentPart = (typeof DOCUMENT_PARTS)[number];

/** Where in a document a link leads. */
export interface DocumentPlace {
  /** A chunk of the tree, shown with its text. */
  nodeIndex?: number;
  /** A page: the leaf chunk that holds it. */
  page?: number;
  /** A reviewed finding, made the active one of the queue. */
  reviewedId?: number;
  /** The reviewed finding that holds this merged finding (a citation names merged findings). */
  mergedFindingId?: number;
}

export interface DocSlice {
  /** The open document: every view that shows one document shows this one; null until one is opened. */
  openId: number | null;
  /** Makes `documentId` the open document and loads what the views show of it. */
  open(documentId: number): Promise<void>;
  /** Follows a link: opens the document in `view` at `place`; Back returns to where the link was. */
  show(documentId: number, view: View, place?: DocumentPlace): Promise<void>;
  /** Loads parts of the open document again (a run changed them); all parts when none are named. */
  refresh(parts?: readonly DocumentPart[]): void;
  /** Opens the document most worth showing when none is open yet (the first with findings, else the first). */
  ensureOpen(): void;
}

type PartName = 'analysis' | 'completeness' | 'mentions' | 'splits' | 'health';

/**
 * A per-document part of the store loaded by the per-document loader: the part's fields are patched in place
 * (the loader sees only its own part), and a load of the document the part already holds is skipped unless forced.
 */
export function partLoader<Name extends keyof Store, Data>(
  set: SetStore,
  get: GetStore,
  name: Name,
  spec: Omit<PerDocumentSpec<Store[Name] & PartState, number, Data, string | null>, 'error'>,
): (documentId: number, force?: boolean) => Promise<void> {
  const patch = patcher(set, name);
  const part = () => get()[name] as Store[Name] & PartState;
  const loader = perDocumentLoader<Store[Name] & PartState, number, Data, string | null>((p) => patch(p as Partial<Store[Name]>), part, {
    ...spec,
    empty: () => ({ ...spec.empty(), loaded: false }) as Partial<Store[Name] & PartState>,
    apply: (data, documentId) => ({ ...spec.apply(data, documentId), loaded: true }) as Partial<Store[Name] & PartState>,
    error: errorMessage,
  });
  return async (documentId, force = false) => {
    const now = part();
    if (!force && now.documentId === documentId && (now.loaded || now.loading) && now.error === null) return;
    await loader.load(documentId);
  };
}

/** A simple part: one command's answer for the document, kept as one field. */
function simplePart<Name extends PartName, C extends CommandName>(
  set: SetStore,
  get: GetStore,
  name: Name,
  command: (documentId: number) => Promise<Result<CommandOutputs[C]>>,
  fields: { empty: () => Partial<Store[Name]>; apply: (data: CommandOutputs[C]) => Partial<Store[Name]> },
): Pick<PartState, 'documentId' | 'loading' | 'loaded' | 'error' | 'load'> {
  return {
    documentId: null,
    loading: false,
    loaded: false,
    error: null,
    load: partLoader<Name, CommandOutputs[C]>(set, get, name, {
      fetch: command,
      empty: fields.empty as () => Partial<Store[Name] & PartState>,
      apply: fields.apply as (data: CommandOutputs[C]) => Partial<Store[Name] & PartState>,
    }),
  };
}

export const createDocumentParts: SliceCreator<PartName> = (set, get) => ({
  analysis: {
    ...simplePart<'analysis', 'documents.analysis'>(set, get, 'analysis', (documentId) => get().host.call('documents.analysis', { documentId }), {
      empty: () => ({ analysis: null, byNode: new Map() }),
      apply: (analysis) => ({ analysis, byNode: new Map(analysis.chunks.map((c) => [c.nodeIndex, c])) }),
    }),
    analysis: null,
    byNode: new Map(),
  },
  completeness: {
    ...simplePart<'completeness', 'completeness.get'>(set, get, 'completeness', (documentId) => get().host.call('completeness.get', { documentId }), {
      empty: () => ({ view: null }),
      apply: (view) => ({ view }),
    }),
    view: null,
  },
  mentions: {
    ...simplePart<'mentions', 'mentions.list'>(set, get, 'mentions', (documentId) => get().host.call('mentions.list', { documentId }), {
      empty: () => ({ mentions: [] }),
      apply: (mentions) => ({ mentions }),
    }),
    mentions: [],
  },
  splits: {
    ...simplePart<'splits', 'splitAttempts.list'>(set, get, 'splits', (documentId) => get().host.call('splitAttempts.list', { documentId }), {
      empty: () => ({ attempts: [] }),
      apply: (attempts) => ({ attempts }),
    }),
    attempts: [],
  },
  health: {
    ...simplePart<'health', 'documents.health'>(set, get, 'health', (documentId) => get().host.call('documents.health', { documentId }), {
      empty: () => ({ health: null }),
      apply: (health) => ({ health }),
    }),
    health: null,
  },
});

/** Each part's loader, by name. */
function partLoad(store: Store, part: DocumentPart): (documentId: number, force?: boolean) => Promise<void> {
  return store[part].load;
}

export const createDocSlice: SliceCreator<'doc'> = (set, get) => {
  const patch = patcher(set, 'doc');
  return {
    doc: {
      openId: null,
      async open(documentId) {
        if (get().doc.openId !== documentId) patch({ openId: documentId });
        await Promise.all(DOCUMENT_PARTS.map((part) => partLoad(get(), part)(documentId)));
      },
      async show(documentId, view, place = {}) {
        get().nav.follow(view);
        await get().doc.open(documentId);
        // Another link was followed meanwhile: its place is the one to show.
        if (get().doc.openId !== documentId) return;
        const tree = get().tree;
        if (place.nodeIndex !== undefined) await tree.select(place.nodeIndex);
        else if (place.page !== undefined) {
          const leaf = tree.tree?.nodes.find((n) => n.isLeaf && n.pageStart <= place.page! && place.page! <= n.pageEnd);
          if (leaf) await tree.select(leaf.index);
        }
        const review = get().review;
        const reviewed =
          place.reviewedId ??
          (place.mergedFindingId === undefined ? undefined : review.view?.findings.find((f) => f.mergedIds.includes(place.mergedFindingId!))?.id);
        if (reviewed !== undefined && review.documentId === documentId) review.setActive(reviewed);
      },
      refresh(parts = DOCUMENT_PARTS) {
        const documentId = get().doc.openId;
        if (documentId === null) return;
        for (const part of parts) void partLoad(get(), part)(documentId, true);
      },
      ensureOpen() {
        if (get().doc.openId !== null) return;
        const documents = get().library.documents;
        const first = documents.find((d) => (d.findingsCount ?? 0) > 0) ?? documents[0];
        if (first) void get().doc.open(first.id);
      },
    },
  };
};
