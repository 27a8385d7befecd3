/**
 * The one-to-one assignment of rows to columns with the best total weight
 * (the Hungarian method, O(n²·m)). Used where several findings compete for
 * the entries of one listing: taking each finding's best entry in turn lets
 * the first of two near-identical siblings take both rows' best matches, and
 * leaves a row its own finding would have matched "without a finding".
 */
import { runToEnd, type Steps } from '../util';

/**
 * `weights[r][c]` > 0 is what pairing row r with column c is worth; 0 (or
 * less) means the two may not be paired. Returns, per row, its column or -1.
 */
export function bestAssignment(weights: readonly (readonly number[])[]): number[] {
  return runToEnd(bestAssignmentSteps(weights));
}

/** bestAssignment pausing after each row it places (util/slices.ts), to run in slices. */
export function* bestAssignmentSteps(weights: readonly (readonly number[])[]): Steps<number[]> {
  const rows = weights.length;
  const cols = rows === 0 ? 0 : weights[0]!.length;
  if (rows === 0 || cols === 0) return new Array<number>(rows).fill(-1);
  // The method wants no more rows than columns: transpose when there are more rows.
  if (rows > cols) {
    const byCol = yield* bestAssignmentSteps(Array.from({ length: cols }, (_, c) => weights.map((row) => row[c]!)));
    const out = new Array<number>(rows).fill(-1);
    byCol.forEach((r, c) => {
      if (r >= 0) out[r] = c;
    });
    return out;
  }
  let top = 0;
  for (const row of weights) for (const w of row) if (w > top) top = w;
  // Minimum cost = maximum weight; a forbidden pair costs as much as pairing nothing.
  const cost = (r: number, c: number) => top - Math.max(0, weights[r]![c]!);
  // e-maxx formulation, 1-based: u, v potentials, p[col] = row matched to col, way[] the augmenting path.
  const u = new Array<number>(rows + 1).fill(0);
  const v = new Array<number>(cols + 1).fill(0);
  const p = new Array<number>(cols + 1).fill(0);
  const way = new Array<number>(cols + 1).fill(0);
  for (let i = 1; i <= rows; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Array<number>(cols + 1).fill(Infinity);
    const used = new Array<boolean>(cols + 1).fill(false);
    do {
      used[j0] = true;
      const i0 = p[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= cols; j++) {
        if (used[j]) continue;
        const cur = cost(i0 - 1, j - 1) - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= cols; j++) {
        if (used[j]) {
          u[p[j]!] = u[p[j]!]! + delta;
          v[j] = v[j]! - delta;
        } else minv[j] = minv[j]! - delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
    yield;
  }
  const out = new Array<number>(rows).fill(-1);
  for (let j = 1; j <= cols; j++) {
    const r = p[j]! - 1;
    if (r >= 0 && weights[r]![j - 1]! > 0) out[r] = j - 1;
  }
  return out;
}
