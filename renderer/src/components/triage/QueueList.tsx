import { useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import type { ReviewIdentity } from '../../../../shared/contract';
import type { ReviewedFinding } from '../../../../shared/review';
import { VIRTUALIZE } from '../../flags';
import { Badges, StateBadge } from '../review/ReviewDetail';
import { Severity } from '../Severity';
import { PageLabel, printedIdOf } from '../source/PageLabel';
import { SHORT_WINDOW, useMediaQuery } from '../useMediaQuery';
import { VirtualList } from '../VirtualList';

const GROUP_ROW_HEIGHT = 28;
/** A row: a line of badges and two lines of title; in a short window one line of title, so more rows fit. */
const ITEM_ROW_HEIGHT = 84;
const SHORT_ITEM_ROW_HEIGHT = 58;
/** Rows the queue keeps in view however little room the window leaves (1024x700 shows 5 and more, 800x600 3). */
const MIN_VISIBLE_ROWS = 3;

type QueueGroupKey = 'grounded' | 'ungrounded';
const GROUP_TITLE: Record<QueueGroupKey, string> = { grounded: 'Grounded', ungrounded: 'Not grounded: the quote was not found in the document' };

/** The queue as rows of one list: each group's heading, then its findings (so the list can be virtual). */
type QueueRow = { kind: 'group'; group: QueueGroupKey; count: number } | { kind: 'item'; group: QueueGroupKey; f: ReviewedFinding; position: number };

function rowsOf(queue: readonly ReviewedFinding[]): QueueRow[] {
  const rows: QueueRow[] = [];
  let position = 0;
  for (const group of ['grounded', 'ungrounded'] as const) {
    const items = queue.filter((f) => f.grounded === (group === 'grounded'));
    if (items.length === 0) continue;
    rows.push({ kind: 'group', group, count: items.length });
    for (const f of items) rows.push({ kind: 'item', group, f, position: ++position });
  }
  return rows;
}

function QueueItem({
  f,
  id,
  active,
  position,
  size,
  style,
  onPick,
}: {
  f: ReviewedFinding;
  id: string | null;
  active: boolean;
  position: number;
  size: number;
  style: CSSProperties;
  onPick(): void;
}) {
  return (
    <div
      id={`review-item-${f.id}`}
      role="option"
      aria-selected={active}
      aria-posinset={position}
      aria-setsize={size}
      data-state={f.state}
      data-review-id={f.id}
      className={`review-item${active ? ' review-item--active' : ''}`}
      style={style}
      onClick={onPick}
    >
      <div className="review-item__line">
        <StateBadge state={f.state} /> <Severity label={f.effective.severity} rank={f.severityRank} /> <Badges f={f} />
        <span className="review-item__where muted">
          <span className="review-item__label-id">{f.label} · </span>
          <PageLabel documentId={f.documentId} page={f.mainPage} testId="queue-page" />
        </span>
      </div>
      <div className="review-item__title" title={f.effective.title}>
        {id ? <code>{id}</code> : null} {f.effective.title}
      </div>
    </div>
  );
}

/**
 * The room the queue has: from its top to the bottom of the column it scrolls in, so the rows fill the window and
 * the hints and sections below are one scroll away. Measured again when the window or the head above changes.
 */
function useRoomBelow(anchor: RefObject<HTMLDivElement | null>): number | null {
  const [room, setRoom] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = anchor.current;
    const column = element?.closest('.split__list');
    if (!element || !column) return;
    const measure = () => {
      // The queue's top within the column's content (the same wherever the column is scrolled to).
      const top = element.getBoundingClientRect().top - column.getBoundingClientRect().top + column.scrollTop;
      setRoom(Math.floor(column.clientHeight - top - parseFloat(getComputedStyle(column).paddingBottom || '0')));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(column);
    for (const child of column.firstElementChild?.children ?? []) observer.observe(child);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [anchor]);
  return room;
}

/** The queue itself: a virtual listbox of findings in their groups, driven by the keyboard. */
export function QueueList({
  queue,
  activeId,
  identity,
  listRef,
  onKeyDown,
  onPick,
}: {
  queue: readonly ReviewedFinding[];
  activeId: number | null;
  identity: Record<number, ReviewIdentity>;
  listRef: RefObject<HTMLDivElement | null>;
  onKeyDown(event: KeyboardEvent<HTMLDivElement>): void;
  onPick(id: number): void;
}) {
  const short = useMediaQuery(SHORT_WINDOW);
  const itemHeight = short ? SHORT_ITEM_ROW_HEIGHT : ITEM_ROW_HEIGHT;
  const rows = useMemo(() => rowsOf(queue), [queue]);
  const rowHeight = useMemo(() => (i: number) => (rows[i]!.kind === 'group' ? GROUP_ROW_HEIGHT : itemHeight), [rows, itemHeight]);
  const anchor = useRef<HTMLDivElement>(null);
  const room = useRoomBelow(anchor);
  const activeRow = rows.findIndex((r) => r.kind === 'item' && r.f.id === activeId);
  const active = queue.find((f) => f.id === activeId);
  const all = rows.reduce((sum, _, i) => sum + rowHeight(i), 2);
  const least = Math.min(all, GROUP_ROW_HEIGHT + MIN_VISIBLE_ROWS * itemHeight + 2);
  // As tall as its rows, at most the room down to the bottom of the window, never fewer than three rows.
  const height = Math.max(least, Math.min(all, room ?? 480));
  return (
    <div ref={anchor} className="queue__list" data-short={short ? 'true' : 'false'}>
      <VirtualList
        listRef={listRef}
        className="review-list"
        role="listbox"
        aria-label="Findings to review"
        tabIndex={0}
        data-testid="review-list"
        style={{ height }}
        onKeyDown={onKeyDown}
        {...(active ? { 'aria-activedescendant': `review-item-${active.id}` } : {})}
        count={rows.length}
        rowHeight={rowHeight}
        virtualize={VIRTUALIZE}
        scrollToIndex={activeRow}
        renderRange={(first, last, styleOf) => {
          // The rows in view, in their ARIA group (a group's heading may have scrolled away: the group keeps its name).
          const groups = new Map<QueueGroupKey, ReactNode[]>();
          for (let i = first; i < last; i++) {
            const row = rows[i]!;
            const nodes = groups.get(row.group) ?? [];
            nodes.push(
              row.kind === 'group' ? (
                <div key={`group-${row.group}`} role="presentation" className={`queue__group queue__group--${row.group}`} style={styleOf(i)}>
                  {GROUP_TITLE[row.group]} ({row.count})
                </div>
              ) : (
                <QueueItem
                  key={row.f.id}
                  f={row.f}
                  id={printedIdOf(row.f, identity[row.f.id])}
                  active={row.f.id === activeId}
                  position={row.position}
                  size={queue.length}
                  style={styleOf(i)}
                  onPick={() => onPick(row.f.id)}
                />
              ),
            );
            groups.set(row.group, nodes);
          }
          const counts = new Map(rows.flatMap((r) => (r.kind === 'group' ? [[r.group, r.count] as const] : [])));
          return [...groups].map(([group, nodes]) => (
            <div key={group} role="group" aria-label={`${GROUP_TITLE[group]} (${counts.get(group)})`} className="queue__rows">
              {nodes}
            </div>
          ));
        }}
      />
    </div>
  );
}
