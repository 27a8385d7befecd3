const LABELS: Record<string, string> = {
  queued: 'Queued',
  running: 'Running',
  paused: 'Paused',
  cancelled: 'Cancelled',
  failed: 'Failed',
  done: 'Done',
  stored: 'Stored',
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge--${status}`}>{LABELS[status] ?? status}</span>;
}
