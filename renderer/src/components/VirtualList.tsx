import { useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type HTMLAttributes, type ReactNode, type Ref } from 'react';

export interface VirtualListProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  count: number;
  /** One height for every row, or each row's own (a list with group headings). */
  rowHeight: number | ((index: number) => number);
  /** Render every row (the benchmark's baseline) instead of only the visible ones. */
  virtualize?: boolean;
  overscan?: number;
  /** Keeps this row in view when it changes (keyboard navigation). */
  scrollToIndex?: number | null;
  /** Renders row `index` at `style` (absolute position in the list). */
  renderRow?: (index: number, style: CSSProperties) => ReactNode;
  /** Or renders the rows [first, last) at once (to wrap them, e.g. in ARIA groups); `styleOf(i)` places row i. */
  renderRange?: (first: number, last: number, styleOf: (index: number) => CSSProperties) => ReactNode;
  listRef?: Ref<HTMLDivElement>;
}

/** Row i's top is offsets[i]; offsets[count] is the whole list's height. */
function offsetsOf(count: number, rowHeight: VirtualListProps['rowHeight']): number[] {
  const offsets = new Array<number>(count + 1);
  offsets[0] = 0;
  for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i]! + (typeof rowHeight === 'number' ? rowHeight : rowHeight(i));
  return offsets;
}

/** The row at pixel `y`: the last row whose top is <= y (binary search over the offsets). */
function rowAt(offsets: readonly number[], y: number): number {
  let low = 0;
  let high = offsets.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (offsets[mid]! <= y) low = mid;
    else high = mid - 1;
  }
  return Math.max(0, low);
}

/**
 * A virtual list: only the rows in view (plus `overscan`) exist in the DOM,
 * so 10,000 rows cost as much as 30. Rows are positioned absolutely inside a
 * spacer as tall as the whole list.
 */
export function VirtualList({
  count,
  rowHeight,
  virtualize = true,
  overscan = 8,
  scrollToIndex,
  renderRow,
  renderRange,
  listRef,
  style,
  ...rest
}: VirtualListProps) {
  const ref = useRef<HTMLDivElement | null>(null);
  // The caller's ref gets the same scrolling element.
  useImperativeHandle(listRef, () => ref.current!, []);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const offsets = useMemo(() => offsetsOf(count, rowHeight), [count, rowHeight]);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setHeight(element.clientHeight || 400);
    const observer = new ResizeObserver(() => setHeight(element.clientHeight || 400));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // A layout effect, and the new scroll position taken at once: the rows around the row brought into view are drawn
  // in the same frame as the change that asked for it. Waiting for the scroll event instead left a frame (more on a
  // busy machine) with the old rows, or none, in view, and aria-activedescendant naming a row not in the DOM.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || scrollToIndex === null || scrollToIndex === undefined || scrollToIndex < 0 || scrollToIndex >= count) return;
    const top = offsets[scrollToIndex]!;
    const bottom = offsets[scrollToIndex + 1]!;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (bottom > element.scrollTop + element.clientHeight) element.scrollTop = bottom - element.clientHeight;
    else return;
    setScrollTop(element.scrollTop);
  }, [scrollToIndex, offsets, count]);

  const first = virtualize ? Math.max(0, rowAt(offsets, scrollTop) - overscan) : 0;
  const last = virtualize ? Math.min(count, rowAt(offsets, scrollTop + height) + 1 + overscan) : count;
  const styleOf = (i: number): CSSProperties => ({ position: 'absolute', top: offsets[i], height: offsets[i + 1]! - offsets[i]!, left: 0, right: 0 });
  let rows: ReactNode;
  if (renderRange) rows = renderRange(first, last, styleOf);
  else {
    const list: ReactNode[] = [];
    for (let i = first; i < last; i++) list.push(renderRow?.(i, styleOf(i)));
    rows = list;
  }

  return (
    <div
      {...rest}
      ref={ref}
      style={{ overflowY: 'auto', position: 'relative', ...style }}
      // Without virtualization nothing depends on the scroll position: no re-render (an honest baseline).
      onScroll={virtualize ? (event) => setScrollTop(event.currentTarget.scrollTop) : undefined}
    >
      <div role="none" style={{ height: offsets[count], position: 'relative' }}>
        {rows}
      </div>
    </div>
  );
}
