import { useStore } from '../../store';
import type { ReviewSlice } from '../../store/reviewSlice';

/** What a triage section shows of the review: `pick` of it while it holds the open document, else `fallback`. */
export function useOpenReview<T>(pick: (review: ReviewSlice) => T, fallback: T): T {
  return useStore((s) => (s.review.documentId !== null && s.review.documentId === s.doc.openId ? pick(s.review) : fallback));
}
