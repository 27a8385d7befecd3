import { create } from 'zustand';
import type { ChunkText, TreeView } from '../../../shared/contract';
import type { ChunkNode } from '../../../shared/types';
import { invoke } from '../api';
import { errorMessage, perDocumentLoader } from './perDocumentLoader';
import { useAppStore } from './useAppStore';

/** Per-node facts the tree needs for ARIA and keyboard moves, computed once per tree. */
export interface NodeMeta {
  depth: number;
  posInSet: number;
  setSize: number;
  hasChildren: boolean;
}

export function indexTree(nodes: readonly ChunkNode[]): NodeMeta[] {
  const meta: NodeMeta[] = nodes.map(() => ({ depth: 0, posInSet: 1, setSize: 1, hasChildren: false }));
  const childCount = new Map<number | null, number>();
  const byIndex = new Map<number, number>(nodes.map((n, i) => [n.index, i]));
  nodes.forEach((node, i) => {
    const parent = node.parentIndex === null ? undefined : byIndex.get(node.parentIndex);
    const position = (childCount.get(node.parentIndex) ?? 0) + 1;
    childCount.set(node.parentIndex, position);
    meta[i]!.posInSet = position;
    if (parent !== undefined) {
      meta[i]!.depth = meta[parent]!.depth + 1;
      meta[parent]!.hasChildren = true;
    }
  });
  nodes.forEach((node, i) => (meta[i]!.setSize = childCount.get(node.parentIndex) ?? 1));
  return meta;
}

/** Positions (into `nodes`) of the rows shown: pre-order, skipping descendants of collapsed nodes. */
export function visibleRows(nodes: readonly ChunkNode[], meta: readonly NodeMeta[], collapsed: ReadonlySet<number>): number[] {
  const rows: number[] = [];
  let skipBelowDepth = Infinity;
  nodes.forEach((node, i) => {
    const depth = meta[i]!.depth;
    if (depth > skipBelowDepth) return;
    skipBelowDepth = Infinity;
    rows.push(i);
    if (collapsed.has(node.index)) skipBelowDepth = depth;
  });
  return rows;
}

interface TreeState {
  documentId: number | null;
  tree: TreeView | null;
  meta: NodeMeta[];
  loading: boolean;
  error: string | null;
  collapsed: Set<number>;
  /** Node index with keyboard focus, and the one whose text is shown. */
  activeIndex: number | null;
  selectedIndex: number | null;
  text: ChunkText | null;
  textError: string | null;
  open(documentId: number): Promise<void>;
  reload(): Promise<void>;
  setActive(index: number): void;
  toggle(index: number, expand?: boolean): void;
  select(index: number): Promise<void>;
}

export const useTreeStore = create<TreeState>()((set, get) => {
  const loader = perDocumentLoader<TreeState, number, TreeView | null, string | null>(set, get, {
    fetch: (documentId) => invoke('tree.get', { documentId }),
    empty: () => ({ tree: null, meta: [], collapsed: new Set(), activeIndex: null, selectedIndex: null, text: null }),
    apply: (tree) => ({ tree, meta: tree ? indexTree(tree.nodes) : [], activeIndex: get().activeIndex ?? tree?.nodes[0]?.index ?? null }),
    error: errorMessage,
  });
  return {
  documentId: null,
  tree: null,
  meta: [],
  loading: false,
  error: null,
  collapsed: new Set(),
  activeIndex: null,
  selectedIndex: null,
  text: null,
  textError: null,
  async open(documentId) {
    useAppStore.getState().noteDocument(documentId);
    if (get().documentId === documentId && get().tree) return;
    await loader.load(documentId);
  },
  async reload() {
    const documentId = get().documentId;
    if (documentId !== null) await loader.load(documentId);
  },
  setActive: (index) => set({ activeIndex: index }),
  toggle(index, expand) {
    const collapsed = new Set(get().collapsed);
    const open = expand ?? collapsed.has(index);
    if (open) collapsed.delete(index);
    else collapsed.add(index);
    set({ collapsed });
  },
  async select(index) {
    const documentId = get().documentId;
    if (documentId === null) return;
    set({ selectedIndex: index, activeIndex: index, textError: null });
    const result = await invoke('chunk.text', { documentId, nodeIndex: index });
    if (get().selectedIndex !== index) return;
    set(result.ok ? { text: result.data } : { text: null, textError: result.error.message });
  },
  };
});
