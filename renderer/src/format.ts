/** Words and numbers the way the user reads them: plurals, durations and dates in the user's locale. */
import { formatPageRanges } from '../../shared/canonical';

export { plural } from '../../shared/runOutcome';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** "23 Nov 2026, 22:14" in the user's locale; today's times as the time only. */
export function formatWhen(iso: string, now = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return at.toDateString() === now.toDateString() ? `today ${time.format(at)}` : dateTime.format(at);
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** "page 3", "pages 3-7, 9". */
export function formatPageList(pages: readonly number[]): string {
  return `${new Set(pages).size === 1 ? 'page' : 'pages'} ${formatPageRanges(pages)}`;
}
