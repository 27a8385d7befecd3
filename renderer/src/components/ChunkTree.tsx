import { useMemo, type KeyboardEvent } from 'react';
import { VIRTUALIZE } from '../flags';
import { store, useOpenPart, useStore, visibleRows, type NodeMeta } from '../store';
import { strategyName } from '../../../shared/plainWords';
import { VirtualList } from './VirtualList';
import { plural } from '../format';

const ROW_HEIGHT = 30;
const NO_META: NodeMeta[] = [];
const NONE_COLLAPSED = new Set<number>();

/** "8–10", "3": the column is headed Pages, so the cell holds only the numbers and the title keeps the width. */
const pages = (a: number, b: number) => (a === b ? `${a}` : `${a}–${b}`);

const STATUS_LABELS: Record<string, string> = { queued: 'queued', running: 'running', done: 'done', failed: 'failed' };

/**
 * The document's chunk tree, virtualized: focus stays on the tree and the
 * active row is announced with aria-activedescendant, so rows can come and go
 * as the list scrolls. Arrows move and expand/collapse, Home/End jump,
 * Enter or Space shows the node's text.
 */
export function ChunkTree() {
  const tree = useOpenPart('tree', (t) => t.tree, null);
  const meta = useOpenPart('tree', (t) => t.meta, NO_META);
  const collapsed = useOpenPart('tree', (t) => t.collapsed, NONE_COLLAPSED);
  const activeIndex = useOpenPart('tree', (t) => t.activeIndex, null);
  const selectedIndex = useOpenPart('tree', (t) => t.selectedIndex, null);
  const { setActive, toggle, select } = store().tree;
  const analysis = useOpenPart('analysis', (a) => a.analysis, null);
  // The root is the document: named by its file, never by the PDF's metadata title (often a template's or a draft's).
  const fileName = useStore((s) => s.library.documents.find((d) => d.id === s.doc.openId)?.fileName ?? null);
  const byNode = useOpenPart('analysis', (a) => a.byNode, null);
  // Chunk results belong to the tree their run cut; an older run's statuses do not apply to a newer tree.
  const statuses = analysis && byNode && tree && analysis.treeId === tree.treeId ? byNode : null;
  const nodes = useMemo(() => tree?.nodes ?? [], [tree]);
  const rows = useMemo(() => visibleRows(nodes, meta, collapsed), [nodes, meta, collapsed]);
  const activeRow = activeIndex === null ? -1 : rows.findIndex((r) => nodes[r]!.index === activeIndex);

  if (!tree) return null;

  const moveTo = (row: number) => {
    const target = rows[Math.max(0, Math.min(rows.length - 1, row))];
    if (target !== undefined) setActive(nodes[target]!.index);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = activeRow < 0 ? 0 : activeRow;
    const position = rows[current];
    const node = position === undefined ? undefined : nodes[position];
    const info = position === undefined ? undefined : meta[position];
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
        moveTo(current + 1);
        break;
      case 'ArrowUp':
        moveTo(current - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(rows.length - 1);
        break;
      case 'PageDown':
        moveTo(current + 15);
        break;
      case 'PageUp':
        moveTo(current - 15);
        break;
      case 'ArrowRight':
        if (node && info?.hasChildren) {
          if (collapsed.has(node.index)) toggle(node.index, true);
          else moveTo(current + 1);
        }
        break;
      case 'ArrowLeft':
        if (node && info?.hasChildren && !collapsed.has(node.index)) toggle(node.index, false);
        else if (node?.parentIndex !== null && node?.parentIndex !== undefined) setActive(node.parentIndex);
        break;
      case 'Enter':
      case ' ':
        if (node) void select(node.index);
        break;
      default:
        handled = false;
    }
    if (handled) event.preventDefault();
  };

  return (
    <div className="tree-wrap">
      <div className="tree-header" aria-hidden="true">
        <span>Title</span>
        <span>Level</span>
        <span>Pages</span>
        <span>Size</span>
        <span>Origin</span>
        <span>Status</span>
      </div>
      <VirtualList
        role="tree"
        aria-label={`Chunk tree (${nodes.length} nodes)`}
        tabIndex={0}
        className="tree"
        data-testid="chunk-tree"
        count={rows.length}
        rowHeight={ROW_HEIGHT}
        virtualize={VIRTUALIZE}
        scrollToIndex={activeRow}
        {...(activeIndex === null ? {} : { 'aria-activedescendant': `tree-node-${activeIndex}` })}
        onKeyDown={onKeyDown}
        renderRow={(row, style) => {
          const position = rows[row]!;
          const node = nodes[position]!;
          const info = meta[position]!;
          const expanded = info.hasChildren ? !collapsed.has(node.index) : undefined;
          const result = statuses?.get(node.index);
          return (
            <div
              key={node.index}
              id={`tree-node-${node.index}`}
              role="treeitem"
              aria-level={info.depth + 1}
              aria-setsize={info.setSize}
              aria-posinset={info.posInSet}
              aria-selected={selectedIndex === node.index}
              {...(expanded === undefined ? {} : { 'aria-expanded': expanded })}
              data-status={result?.status}
              className={`tree-row${activeIndex === node.index ? ' tree-row--active' : ''}${selectedIndex === node.index ? ' tree-row--selected' : ''}${result?.status === 'failed' ? ' tree-row--failed' : ''}`}
              style={style}
              title={node.section.path.length > 0 ? node.section.path.join(' › ') : node.title}
              onClick={() => void select(node.index)}
            >
              <span className="tree-row__title" title={node.title} style={{ paddingLeft: info.depth * 16 }}>
                <span
                  className="tree-row__twisty"
                  aria-hidden="true"
                  onClick={(event) => {
                    if (!info.hasChildren) return;
                    event.stopPropagation();
                    toggle(node.index);
                  }}
                >
                  {info.hasChildren ? (expanded ? '▾' : '▸') : '·'}
                </span>
                {node.parentIndex === null ? (fileName ?? (node.title || 'Document')) : node.title || '(untitled)'}
              </span>
              <span className="tree-row__cell">L{node.section.level}</span>
              <span className="tree-row__cell">{pages(node.pageStart, node.pageEnd)}</span>
              <span className="tree-row__cell">{(node.end - node.start).toLocaleString()} ch</span>
              <span className="tree-row__cell">{node.origin}</span>
              <span className="tree-row__cell">
                {result ? (
                  <span
                    className={`chunk-status chunk-status--${result.status}`}
                    title={result.error ? result.error.message : plural(result.findingCount, 'finding')}
                  >
                    {STATUS_LABELS[result.status] ?? result.status}
                    {result.status === 'done' && result.findingCount > 0 ? ` · ${result.findingCount}` : ''}
                  </span>
                ) : null}
              </span>
            </div>
          );
        }}
      />
      <p className="hint">
        {nodes.length.toLocaleString()} nodes, cut by {strategyName(tree.strategy)}
        {statuses && analysis
          ? `; chunks: ${analysis.counts.done} done, ${analysis.counts.failed} failed, ${analysis.counts.queued + analysis.counts.running} to do`
          : ''}
        . Arrows move, → ← expand and collapse, Home/End jump, Enter shows the text.
      </p>
    </div>
  );
}
