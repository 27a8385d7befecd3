/**
 * A whole-run ETA from what the window has seen: the run's overall fraction
 * (all inputs, all phases) against the time since the window first saw it
 * progress. The host's own estimate covers the extraction of the file at
 * hand; this one covers every file left, and it steadies as the run goes.
 */
export interface PaceSample {
  at: number;
  overall: number;
}

/** Seconds left for the whole run, or null until there is enough progress to tell. */
export function wholeRunEta(first: PaceSample | undefined, latest: PaceSample): number | null {
  if (!first) return null;
  const done = latest.overall - first.overall;
  const seconds = (latest.at - first.at) / 1000;
  if (done < 0.02 || seconds < 2 || latest.overall >= 1) return null;
  return (seconds / done) * (1 - latest.overall);
}
