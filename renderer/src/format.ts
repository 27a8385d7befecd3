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

/** "45 s", "8 min 59 s", "1 h 3 min": rounded once, so seconds never read 60. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(1, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${whole % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * The run's one time-left figure, from the host's estimator (the same on the run card and in the status bar):
 * "about 37 s left", or "estimating time left" while the host has no rate for what the run is doing now.
 */
export function timeLeftText(etaSeconds: number | null | undefined): string {
  return etaSeconds === null || etaSeconds === undefined ? 'estimating time left' : `about ${formatDuration(etaSeconds)} left`;
}

/** "page 3", "pages 3-7, 9". */
export function formatPageList(pages: readonly number[]): string {
  return `${new Set(pages).size === 1 ? 'page' : 'pages'} ${formatPageRanges(pages)}`;
}
