/**
 * The findings a run has reported for a document before its merge, as the user is shown them while it goes: the
 * status bar's and the library's "N findings so far" and the Findings view's "Arriving" list count the same
 * ones, so the two numbers never disagree (trial 2026-11-26: "4 findings so far" beside a view saying 0).
 * Findings seen only in a chunk's context are left out (the chunk that owns them reports them), and a finding
 * reported twice (overlapping chunks, a row of the document's own list beside its detailed section) counts once,
 * by its key and title, as the merge will join them at the end.
 */
import type { GroundedFinding, StoredFinding } from '../../../shared/findings';
import type { Database } from '../store';
import { listFindings } from '../extract';

export function arrivingFindings(findings: readonly StoredFinding[]): StoredFinding[] {
  const seen = new Set<string>();
  return findings
    .filter((f) => !f.grounding.inContextOnly)
    .filter((f) => {
      const key = arrivingKey(f);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** What makes two arriving findings one: the merge will join them at the end. */
const arrivingKey = (f: Pick<GroundedFinding, 'findingKey' | 'title'>) => `${f.findingKey ?? ''}|${f.title.trim().toLowerCase()}`;

/**
 * The count of arriving findings kept as the run commits them: started from what the document has (a resumed run),
 * then told each unit's and follow-up's findings, instead of reading every finding of the document again after each
 * (on a release note of hundreds of findings that re-read was the extraction's largest cost after the model's).
 */
export class ArrivingCount {
  private readonly seen = new Set<string>();

  constructor(stored: readonly StoredFinding[]) {
    this.add(stored);
  }

  /** Counts the findings just committed; returns the count so far. */
  add(findings: readonly Pick<GroundedFinding, 'findingKey' | 'title' | 'grounding'>[]): number {
    for (const f of findings) if (!f.grounding.inContextOnly) this.seen.add(arrivingKey(f));
    return this.seen.size;
  }

  get count(): number {
    return this.seen.size;
  }
}

/** How many findings the document has arriving in this run (see arrivingFindings). */
export function countArrivingFindings(db: Database, runId: number, documentId: number): number {
  return arrivingFindings(listFindings(db, runId, documentId)).length;
}
