import type { ReviewIdentity } from '../../../../shared/contract';
import type { ReviewedFinding } from '../../../../shared/review';
import { usePrintedLabel } from './usePrintedLabel';

/**
 * "p. 8", or "p. 8, printed 7" where the document numbers its pages otherwise: the queue row, the finding's header
 * and the source heading name a page the same way (and the reports too).
 */
export function PageLabel({
  documentId,
  page,
  capital = false,
  testId = 'page-label',
}: {
  documentId: number;
  page: number | null;
  capital?: boolean;
  testId?: string;
}) {
  const printed = usePrintedLabel(documentId, page);
  if (page === null) return <>{capital ? 'Page unknown' : 'page ?'}</>;
  return (
    <span data-testid={testId}>
      {capital ? 'Page' : 'p.'} {page}
      {/* Its own element: a narrow queue row leaves it out rather than cut it ("p. 12, printe"). */}
      {printed ? <span className="page-label__printed">, printed {printed}</span> : null}
    </span>
  );
}

/** The ID to show for a finding: the document's printed ID or number ("TOB-PE-3", "No. 7.3.5"), never the model's own label. */
export function printedIdOf(f: Pick<ReviewedFinding, 'findingKey'>, identity: ReviewIdentity | undefined): string | null {
  if (f.findingKey) return f.findingKey;
  return identity?.idOrigin === 'document' ? identity.idLabel : null;
}
