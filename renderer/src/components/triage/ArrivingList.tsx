import { plural } from '../../format';
import { useOpenReview } from './useOpenReview';
import { Severity } from '../Severity';

/**
 * Findings a run has reported for the open document before its merge: shown as they arrive, and kept while the run
 * is paused or was cancelled part-way (they join the queue, merged and reviewable, once the run finishes).
 */
export function ArrivingList() {
  const arriving = useOpenReview((r) => r.arriving, null);
  const stopped = arriving?.inputStatus === 'paused' || arriving?.inputStatus === 'cancelled';
  if (!arriving || arriving.runId === null || (stopped && arriving.findings.length === 0)) return null;
  return (
    <section className="queue-section arriving" aria-labelledby="arriving-title" data-testid="arriving" data-input-status={arriving.inputStatus ?? 'running'}>
      <h3 id="arriving-title">
        {stopped
          ? `Reported by run #${arriving.runId} before it ${arriving.inputStatus === 'paused' ? 'was paused' : 'was cancelled'}`
          : `Arriving from run #${arriving.runId}`}{' '}
        ({arriving.findings.length})
      </h3>
      <p className="hint">
        {stopped
          ? `${plural(arriving.findings.length, 'finding')} reported so far; they join the queue, merged and reviewable, when the run is resumed and finishes (Runs tab).`
          : 'Reported by the parts analysed so far; they join the queue, merged and reviewable, when the run finishes.'}
      </p>
      <ul className="arriving__list">
        {arriving.findings.map((f) => (
          <li key={f.findingId} data-testid="arriving-finding">
            <Severity label={f.severity} rank={f.severityRank} /> {f.findingKey ? <code>{f.findingKey}</code> : null} {f.title}{' '}
            <span className="muted">
              {f.page !== null ? `p. ${f.page}` : ''}
              {f.grounded ? '' : ' · not grounded'}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
