/** The open document's chunk tree: its nodes, which are folded, the node with the focus and the one whose text is shown. */
import type { ChunkText, Highlight, TreeView } from '../../../shared/contract';
import type { ChunkNode } from '../../../shared/types';
import { partLoader, type PartState } from './documentSlice';
import { patcher, type SliceCreator } from './slice';

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

export interface TreePart extends PartState {
  tree: TreeView | null;
  meta: NodeMeta[];
  collapsed: Set<number>;
  /** Node index with keyboard focus, and the one whose text is shown. */
  activeIndex: number | null;
  selectedIndex: number | null;
  text: ChunkText | null;
  textError: string | null;
  setActive(index: number): void;
  toggle(index: number, expand?: boolean): void;
  /** Shows the node's text. */
  select(index: number): Promise<void>;
  /** Marks a stretch of the shown text ([start, end) in the document's canonical text), as a citation does. */
  mark(start: number, end: number, label: string): void;
}

export const createTreeSlice: SliceCreator<'tree'> = (set, get) => {
  const patch = patcher(set, 'tree');
  return {
    tree: {
      documentId: null,
      loading: false,
      loaded: false,
      error: null,
      tree: null,
      meta: [],
      collapsed: new Set(),
      activeIndex: null,
      selectedIndex: null,
      text: null,
      textError: null,
      load: partLoader<'tree', TreeView | null>(set, get, 'tree', {
        fetch: (documentId) => get().host.call('tree.get', { documentId }),
        empty: () => ({ tree: null, meta: [], collapsed: new Set(), activeIndex: null, selectedIndex: null, text: null, textError: null }),
        apply: (tree) => ({ tree, meta: tree ? indexTree(tree.nodes) : [], activeIndex: get().tree.activeIndex ?? tree?.nodes[0]?.index ?? null }),
      }),
      setActive: (index) => patch({ activeIndex: index }),
      toggle(index, expand) {
        const collapsed = new Set(get().tree.collapsed);
        const open = expand ?? collapsed.has(index);
        if (open) collapsed.delete(index);
        else collapsed.add(index);
        patch({ collapsed });
      },
      async select(index) {
        const documentId = get().tree.documentId;
        if (documentId === null) return;
        patch({ selectedIndex: index, activeIndex: index, textError: null });
        const result = await get().host.call('chunk.text', { documentId, nodeIndex: index });
        if (get().tree.selectedIndex !== index || get().tree.documentId !== documentId) return;
        patch(result.ok ? { text: result.data } : { text: null, textError: result.error.message });
      },
      mark(start, end, label) {
        const text = get().tree.text;
        if (!text) return;
        const from = Math.max(0, start - text.start);
        const to = Math.min(text.text.length, end - text.start);
        if (to <= from) return;
        const highlight: Highlight = { start: from, end: to, kind: 'evidence', label };
        patch({ text: { ...text, highlights: [...text.highlights, highlight] } });
      },
    },
  };
};
