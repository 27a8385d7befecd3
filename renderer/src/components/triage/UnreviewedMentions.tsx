import { memo, useState } from 'react';
import { useOpenPart } from '../../store';
import { SourcePlace } from '../source/SourcePlace';

/** Chips shown before "Show all": a document with thousands of unreviewed IDs stays quick to draw. */
const MENTIONS_SHOWN = 60;

/** IDs the open document mentions that no finding covers; each opens its places beside the queue. */
export const UnreviewedMentions = memo(function UnreviewedMentions({ onOpen, openId }: { onOpen(id: string): void; openId: string | null }) {
  const unreviewed = useOpenPart('analysis', (a) => a.analysis?.unreviewedMentions ?? null, null);
  const [all, setAll] = useState(false);
  const shown = unreviewed && !all ? unreviewed.slice(0, MENTIONS_SHOWN) : unreviewed;
  return (
    <section aria-labelledby="unreviewed-title" className="queue-section" data-testid="unreviewed-section">
      <h3 id="unreviewed-title">Unreviewed ID mentions ({unreviewed?.length ?? 0})</h3>
      <p className="hint">IDs the document mentions that no finding covers: read those places, the model may have missed a finding.</p>
      {unreviewed && unreviewed.length > 0 ? (
        <ul className="chips" aria-label="Unreviewed ID mentions">
          {shown!.map((m) => (
            <li key={m.id} data-testid="unreviewed-mention" data-id={m.id}>
              <button type="button" className="chip" aria-pressed={openId === m.id} onClick={() => onOpen(m.id)}>
                <code>{m.id}</code> <span className="muted">{m.pages.length === 1 ? `p. ${m.pages[0]}` : `pp. ${m.pages.join(', ')}`}</span>
              </button>
            </li>
          ))}
          {shown!.length < unreviewed.length ? (
            <li>
              <button type="button" className="chip" onClick={() => setAll(true)}>
                Show all {unreviewed.length.toLocaleString()}
              </button>
            </li>
          ) : null}
        </ul>
      ) : (
        <p className="empty">None.</p>
      )}
    </section>
  );
});

/** One unreviewed ID's places in the open document, beside the queue. */
export function MentionDetail({ documentId, id, onBack }: { documentId: number; id: string; onBack(): void }) {
  const mention = useOpenPart('mentions', (m) => m.mentions.find((x) => x.id === id), undefined);
  return (
    <section className="review-detail" aria-labelledby="mention-title" data-testid="mention-detail">
      <button type="button" className="button button--small" onClick={onBack}>
        ← Back to the finding
      </button>
      <h2 id="mention-title">
        Mention of <code>{id}</code>
      </h2>
      <p className="hint">No finding covers this ID. Read its places; if one states a finding, select its text in the document and add it by hand.</p>
      {mention ? (
        <SourcePlace
          key={id}
          documentId={documentId}
          places={mention.occurrences.map((o) => ({ start: o.start, end: o.end, page: o.page, label: `“${o.raw}”` }))}
        />
      ) : (
        <p className="muted">Loading its places…</p>
      )}
    </section>
  );
}
