/**
 * Pages as the PDF workers finish them, in any order, handed on strictly in page order and only once the document
 * info has been: the page sink's contract (pageSource.ts) is info first, then every page in order.
 */
import type { RawPage } from './rawExtractor.mjs';

export interface PageOrder {
  /** Keeps a finished page (read, or the stand-in for one pdf.js failed on) until its turn. */
  add(page: RawPage): void;
  /** The document info has gone to the sink: pages may follow it. */
  infoDelivered(): void;
  /** Hands every page whose turn has come to the sink; true once all `pageCount` pages have gone. */
  deliver(pageCount: number): boolean;
}

export function createPageOrder(sink: (page: RawPage) => void): PageOrder {
  const finished = new Map<number, RawPage>();
  let infoDelivered = false;
  let nextToDeliver = 1;
  return {
    add: (page) => void finished.set(page.pageNumber, page),
    infoDelivered: () => {
      infoDelivered = true;
    },
    deliver(pageCount) {
      if (!infoDelivered) return false;
      for (let page = finished.get(nextToDeliver); page !== undefined; page = finished.get(nextToDeliver)) {
        finished.delete(nextToDeliver);
        nextToDeliver++;
        sink(page);
      }
      return nextToDeliver > pageCount;
    },
  };
}
