import { useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type CSSProperties, type HTMLAttributes, type ReactNode, type Ref } from 'react';

export interface VirtualListProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  count: number;
  rowHeight: number;
  /** Render every row (the benchmark's baseline) instead of only the visible ones. */
  virtualize?: boolean;
  overscan?: number;
  /** Keeps this row in view when it changes (keyboard navigation). */
  scrollToIndex?: number | null;
  renderRow: (index: number, style: CSSProperties) => ReactNode;
  listRef?: Ref<HTMLDivElement>;
}

/**
 * A fixed-row-height virtual list: only the rows in view (plus `overscan`)
 * exist in the DOM, so 10,000 rows cost as much as 30. Rows are positioned
 * absolutely inside a spacer as tall as the whole list.
 */
export function VirtualList({ count, rowHeight, virtualize = true, overscan = 8, scrollToIndex, renderRow, listRef, style, ...rest }: VirtualListProps) {
  const ref = useRef<HTMLDivElement | null>(null);
  // The caller's ref gets the same scrolling element.
  useImperativeHandle(listRef, () => ref.current!, []);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setHeight(element.clientHeight || 400);
    const observer = new ResizeObserver(() => setHeight(element.clientHeight || 400));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = ref.current;
    if (!element || scrollToIndex === null || scrollToIndex === undefined || scrollToIndex < 0) return;
    const top = scrollToIndex * rowHeight;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + rowHeight > element.scrollTop + element.clientHeight) element.scrollTop = top + rowHeight - element.clientHeight;
  }, [scrollToIndex, rowHeight]);

  const first = virtualize ? Math.max(0, Math.floor(scrollTop / rowHeight) - overscan) : 0;
  const last = virtualize ? Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + overscan) : count;
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) rows.push(renderRow(i, { position: 'absolute', top: i * rowHeight, height: rowHeight, left: 0, right: 0 }));

  return (
    <div
      {...rest}
      ref={ref}
      style={{ overflowY: 'auto', position: 'relative', ...style }}
      // Without virtualization nothing depends on the scroll position: no re-render (an honest baseline).
      onScroll={virtualize ? (event) => setScrollTop(event.currentTarget.scrollTop) : undefined}
    >
      <div role="none" style={{ height: count * rowHeight, position: 'relative' }}>
        {rows}
      </div>
    </div>
  );
}
