/**
 * Itemised lists whose items are findings: a changelog's "- Fix ...", a release note's bullets of fixes without issue
 * IDs, a numbered list of observations. Nothing but the list says such a finding exists (no ID, no summary-table row),
 * so a model that skips one of them in a long reply loses it without a trace. The list is the trace: when most of
 * its items were reported as findings, the model itself read it as a list of findings, and an item that no finding's
 * evidence touches is one it skipped. Those items are asked for again (extract/followUp.ts) and, still uncovered,
 * named by the completeness check with their page.
 *
 * A list whose items were mostly not reported (scope, methodology, a recommendation's steps) says nothing: its items
 * are not findings, and no place is raised for them.
 */
import { LIST_ITEM_START } from '../../../shared/canonical';
import type { TextLine } from './textLines';
import { oneLine } from './textLines';

export interface ListItem {
  /** From the item's marker to the end of its last line (wrapped lines included). */
  start: number;
  end: number;
  page: number;
  /** The item on one line, marker included. */
  text: string;
}

export interface ItemList {
  items: ListItem[];
}

/** An item that no finding covers, in a list most of whose items are findings. */
export interface UncoveredItem {
  item: ListItem;
  /** Items of its list that findings cover, and all its items. */
  covered: number;
  total: number;
}

/** A list has at least this many items: two or three bullets are a sentence's enumeration, not a list of findings. */
const MIN_ITEMS = 5;
/** Lines after an item's marker line that still belong to it (a wrapped item), or to the gap before the next item. */
const MAX_ITEM_LINES = 3;
/** A list is a list of findings when findings cover at least this many of its items and this share. */
const MIN_COVERED = 4;
const FINDINGS_LIST_SHARE = 0.6;

interface Open {
  kind: string;
  lastNumber: number;
  items: ListItem[];
  /** Non-item lines since the last item's marker line. */
  since: number;
  /** The last item still runs on (no line between has ended it). */
  wrapping: boolean;
}

/**
 * The itemised lists of the text, page headers and footers stepped over, in text order. A list that overlaps one
 * of `listings` (the document's summary table, contents or register of findings, listedEntries.ts: checked entry
 * by entry already) is left out.
 */
export function findItemLists(lines: readonly TextLine[], listings: readonly { entries: readonly { start: number; end: number }[] }[] = []): ItemList[] {
  const spans = listings.filter((l) => l.entries.length > 0).map((l) => ({ start: l.entries[0]!.start, end: l.entries.at(-1)!.end }));
  return itemLists(lines).filter((list) => !spans.some((s) => s.start < list.items.at(-1)!.end && list.items[0]!.start < s.end));
}

function itemLists(lines: readonly TextLine[]): ItemList[] {
  const lists: ItemList[] = [];
  const keep = (list: Open | null) => {
    if (list && list.items.length >= MIN_ITEMS) lists.push({ items: list.items });
  };
  let open: Open | null = null;
  for (const line of lines) {
    if (line.running || line.text.trim() === '') continue;
    const marker = LIST_ITEM_START.exec(line.text);
    const bullet = marker?.[1];
    const number = bullet ? null : Number(marker?.[2] ?? NaN);
    const kind = bullet ?? (Number.isFinite(number) ? 'number' : null);
    const item: ListItem = { start: line.start, end: line.end, page: line.page, text: oneLine(line.text) };
    if (kind === null) {
      if (!open) continue;
      const current = open;
      current.since++;
      if (current.since > MAX_ITEM_LINES) {
        keep(current);
        open = null;
        continue;
      }
      // A wrapped item's next line continues its sentence in lower case; anything else (a group heading, the prose
      // after the list, a wrapped line that opens with a name) stands between items without belonging to one: the
      // item's first line is where a quote of it starts.
      if (current.wrapping && /^\s*\p{Ll}/u.test(line.text)) {
        const last = current.items.at(-1)!;
        last.end = line.end;
        last.text = oneLine(`${last.text} ${line.text}`);
      } else current.wrapping = false;
      continue;
    }
    if (!open || open.kind !== kind || (kind === 'number' && number !== open.lastNumber + 1)) {
      keep(open);
      open = null;
      // A numbered list starts at 1: "3. Results" after prose is a heading, not a list.
      if (kind === 'number' && number !== 1) continue;
      open = { kind, lastNumber: 0, items: [], since: 0, wrapping: true };
    }
    const current = open;
    current.items.push(item);
    current.since = 0;
    current.wrapping = true;
    if (kind === 'number') current.lastNumber = number!;
  }
  keep(open);
  return lists;
}

/**
 * The items of lists of findings that no evidence span touches: a list counts when `spans` (the grounded evidence of
 * the findings the analysis reported) cover at least MIN_COVERED of its items and FINDINGS_LIST_SHARE of them.
 */
export function itemsWithoutFinding(lists: readonly ItemList[], spans: readonly { start: number; end: number }[]): UncoveredItem[] {
  const touched = (item: ListItem) => spans.some((s) => s.start < item.end && item.start < s.end);
  return lists.flatMap((list) => {
    const uncovered = list.items.filter((item) => !touched(item));
    const covered = list.items.length - uncovered.length;
    if (covered < MIN_COVERED || covered / list.items.length < FINDINGS_LIST_SHARE) return [];
    return uncovered.map((item) => ({ item, covered, total: list.items.length }));
  });
}
