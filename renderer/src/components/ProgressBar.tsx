/** A labelled progress bar; `value` 0..1, or null when the amount of work is not known yet. */
export function ProgressBar({ value, label, small = false }: { value: number | null; label: string; small?: boolean }) {
  const percent = value === null ? null : Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <div
      className={`progress${small ? ' progress--small' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      {...(percent === null ? {} : { 'aria-valuenow': percent, 'aria-valuetext': `${percent}%` })}
    >
      <div className={`progress__fill${percent === null ? ' progress__fill--unknown' : ''}`} style={{ width: `${percent ?? 100}%` }} />
    </div>
  );
}
