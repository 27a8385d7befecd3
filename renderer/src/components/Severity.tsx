/**
 * A severity shown by an icon, its word and a colour together (never colour alone):
 * rank 0 is the highest on the profile's scale.
 */
const ICONS = ['⬤', '▲', '◆', '▼', 'ℹ'];

export function severityTone(rank: number): number {
  return rank < 0 ? 4 : Math.min(rank, 4);
}

export function Severity({ label, rank }: { label: string; rank: number }) {
  const tone = severityTone(rank);
  return (
    <span className={`severity severity--${tone}`} data-rank={rank}>
      <span aria-hidden="true" className="severity__icon">
        {ICONS[tone]}
      </span>
      {label || 'Unrated'}
    </span>
  );
}
