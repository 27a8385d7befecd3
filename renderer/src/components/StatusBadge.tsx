import type { Outcome } from '../../../shared/runOutcome';

const LABELS: Record<string, string> = {
  queued: 'Queued',
  running: 'Running',
  paused: 'Paused',
  cancelled: 'Cancelled',
  failed: 'Failed',
  done: 'Done',
  stored: 'Not analysed',
};
const ICONS: Record<string, string> = { ok: '✓', warn: '!', bad: '✕', busy: '↻', idle: '•' };
const TONES: Record<string, Outcome['tone']> = {
  queued: 'idle',
  running: 'busy',
  paused: 'warn',
  cancelled: 'warn',
  failed: 'bad',
  done: 'ok',
  stored: 'idle',
};

/** A status as a badge with an icon and a word; an outcome (e.g. "Done with problems") overrides the plain status. */
export function StatusBadge({ status, outcome }: { status: string; outcome?: Outcome }) {
  const tone = outcome?.tone ?? TONES[status] ?? 'idle';
  return (
    <span className={`badge badge--${tone}`} data-status={status}>
      <span aria-hidden="true">{ICONS[tone]} </span>
      {outcome?.label ?? LABELS[status] ?? status}
    </span>
  );
}
