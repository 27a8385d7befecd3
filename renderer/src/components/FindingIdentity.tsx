import type { IdConflict } from '../../../shared/contract';
import type { IdOrigin } from '../../../shared/findings';

export const ID_ORIGIN_TEXT: Record<IdOrigin, string> = {
  document: 'printed in the document',
  model: 'given by the model only, not printed in the document',
  none: 'none',
};

/** Where a finding's ID comes from, so a model's label is never taken for the document's own ID. */
export function IdOriginLine({ idLabel, idOrigin }: { idLabel: string; idOrigin: IdOrigin }) {
  return (
    <p className="muted" data-testid="id-origin" data-origin={idOrigin}>
      ID {idLabel}: {ID_ORIGIN_TEXT[idOrigin]}
    </p>
  );
}

/** Other findings the document gives the same ID or number; `onOpen` makes each one a way to it. */
export function IdConflictsNote({ conflicts, onOpen }: { conflicts: readonly IdConflict[]; onOpen?: (reviewedId: number) => void }) {
  if (conflicts.length === 0) return null;
  return (
    <div role="note" className="warning" data-testid="merge-conflicts">
      {conflicts.map((c) => (
        <p key={`${c.kind}-${c.key}-${c.otherLabel ?? c.otherTitle}`}>
          {c.kind === 'title'
            ? `“${c.otherTitle}” is described much like this finding, but the document prints a title with other words (${c.key}), so they are kept apart: check whether they are one finding.`
            : `The document also gives ${c.kind === 'id' ? `ID ${c.key}` : `number ${c.key}`} to “${c.otherTitle}”. Their titles and evidence disagree, so they are kept apart: check which is right.`}{' '}
          {onOpen && c.otherReviewedId !== undefined ? (
            <button type="button" className="link" onClick={() => onOpen(c.otherReviewedId!)}>
              Open {c.otherLabel}
            </button>
          ) : null}
        </p>
      ))}
    </div>
  );
}
