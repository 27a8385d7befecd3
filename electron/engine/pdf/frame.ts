/** Text items and lines in a reading frame (see lineBuilder.ts): `u` runs along the baseline, `v` grows towards the next line. */

/** An item in its reading frame. */
export interface FrameItem {
  text: string;
  /** Whitespace-only items carry a gap, not content: they never define columns or start lines. */
  blank: boolean;
  u: number;
  v: number;
  width: number;
  size: number;
  bold: boolean;
  hasEOL: boolean;
}

export interface FrameLine {
  /** Baseline of the line's largest item. */
  v: number;
  size: number;
  /** Left to right. */
  items: FrameItem[];
}
