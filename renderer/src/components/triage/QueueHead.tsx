import type { ReactNode } from 'react';
import { REVIEW_STATES } from '../../../../shared/review';
import { plural } from '../../format';
import { store, STATE_LABEL, UNRATED_FILTER, useStore } from '../../store';
import { DocumentHealthNote } from '../DocumentHealthNote';
import { DocumentPicker } from '../DocumentPicker';
import { SHORT_WINDOW, useMediaQuery } from '../useMediaQuery';
import { useOpenReview } from './useOpenReview';

const NO_SEVERITIES: string[] = [];

/** The queue's filters: text, severity, review state, and whether a decision moves on to the next new finding. */
function QueueFilters({ severities }: { severities: readonly string[] }) {
  const filter = useStore((s) => s.review.filter);
  const autoAdvance = useStore((s) => s.review.autoAdvance);
  const review = store().review;
  return (
    <div className="filters">
      <label className="inline-field">
        <span>Search</span>
        <input type="search" value={filter.search} onChange={(e) => review.setFilter({ search: e.currentTarget.value })} />
      </label>
      <label className="inline-field">
        <span>Severity</span>
        <select value={filter.severity} onChange={(e) => review.setFilter({ severity: e.currentTarget.value })}>
          <option value="">All</option>
          {severities.map((s) => (
            <option key={s} value={s === '' ? UNRATED_FILTER : s}>
              {s === '' ? 'Unrated' : s}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>State</span>
        <select value={filter.state} onChange={(e) => review.setFilter({ state: e.currentTarget.value as typeof filter.state })}>
          <option value="">All</option>
          {REVIEW_STATES.map((s) => (
            <option key={s} value={s}>
              {STATE_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field auto-advance">
        <input type="checkbox" checked={autoAdvance} onChange={(e) => review.setAutoAdvance(e.currentTarget.checked)} />
        <span>Next new finding after confirm or reject</span>
      </label>
    </div>
  );
}

/**
 * The queue's head: which document (the open one, chosen here too), how it stands (problems, counts left to
 * review) and the filters. In a short window the filters fold behind "Filters", so the queue keeps its rows.
 */
export function QueueHead({ modeSwitch }: { modeSwitch: ReactNode }) {
  const documents = useStore((s) => s.library.documents);
  const documentId = useStore((s) => s.doc.openId);
  const counters = useOpenReview((r) => r.view?.counters ?? null, null);
  const findings = useOpenReview((r) => r.view?.findings ?? null, null);
  const filter = useStore((s) => s.review.filter);
  const short = useMediaQuery(SHORT_WINDOW);
  const docName = documents.find((d) => d.id === documentId)?.fileName;
  const severities = findings ? [...new Set(findings.map((f) => f.effective.severity))] : NO_SEVERITIES;
  const active = [filter.search.trim() !== '', filter.severity !== '', filter.state !== ''].filter(Boolean).length;
  return (
    <div className="queue__head" data-testid="queue-head">
      <h2 id="review-title" title={docName}>
        Findings{docName ? ` in ${docName}` : ''}
      </h2>
      {modeSwitch}
      <DocumentPicker documents={documents} value={documentId} onChoose={(id) => void store().doc.open(id)} />
      {/* Problems only: a blank last page took two of the queue's lines at 800x600 (re-trial 2026-11-29 row 5). */}
      {documentId !== null ? <DocumentHealthNote quiet={false} /> : null}
      {counters ? (
        <p className="review-counters" data-testid="review-counters" data-left={counters.leftToReview}>
          <strong>{counters.leftToReview} left to review</strong> · {counters.confirmed} confirmed · {counters.rejected} rejected · {counters.needsFollowUp}{' '}
          need follow-up · {plural(counters.total, 'finding')} in all
          {counters.changed > 0 ? ` · ${counters.changed} changed by a re-run` : ''}
          {counters.vanished > 0 ? ` · ${counters.vanished} no longer reported` : ''}
        </p>
      ) : null}
      {short ? (
        <details className="filters-box" data-testid="queue-filters">
          <summary>Filters{active > 0 ? ` (${active} on)` : ''}</summary>
          <QueueFilters severities={severities} />
        </details>
      ) : (
        <QueueFilters severities={severities} />
      )}
    </div>
  );
}
