import { useEffect, useState } from 'react';
import { printedLabelOf } from '../../sourceCache';

/**
 * The number the document prints on a PDF page when it differs from the page's position ("7" on PDF page 8),
 * or null: the source heading and the queue rows cite pages the way the exported reports do.
 */
export function usePrintedLabel(documentId: number, page: number | null): string | null {
  const [printed, setPrinted] = useState<{ documentId: number; page: number; label: string | null } | null>(null);
  useEffect(() => {
    if (page === null) return;
    let cancelled = false;
    void printedLabelOf(documentId, page).then((label) => !cancelled && setPrinted({ documentId, page, label }));
    return () => {
      cancelled = true;
    };
  }, [documentId, page]);
  return printed?.documentId === documentId && printed.page === page ? printed.label : null;
}
