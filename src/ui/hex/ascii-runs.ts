/**
 * The ASCII column of a row is drawn as runs: the bytes next to each other that share every mark (kind, unit
 * edge, diagnostic, hover, selection, coverage, cursor) are one span of their characters, not a span each. A row
 * of payload is then one or a few boxes instead of sixteen, which halves the boxes a scroll frame lays out and
 * paints. A run's span names its first byte (`data-a`); the byte under the pointer is found from its position.
 */

/** Bytes [from, to) of a row (indexes in the row) that share the class `cls`. */
export interface AsciiRun {
  readonly from: number;
  readonly to: number;
  readonly cls: string;
}

/** The runs of equal class in a row's per-byte classes, in order. */
export function asciiRuns(classes: readonly string[]): AsciiRun[] {
  const runs: AsciiRun[] = [];
  let from = 0;
  for (let i = 1; i <= classes.length; i++) {
    if (i < classes.length && classes[i] === classes[from]) continue;
    runs.push({ from, to: i, cls: classes[from] as string });
    from = i;
  }
  return runs;
}

/** Which of the `count` equal-width characters of a box `width` px wide starting at `left` lies under `x`, clamped. */
export function charAt(x: number, left: number, width: number, count: number): number {
  if (count <= 1 || !(width > 0)) return 0;
  return Math.max(0, Math.min(count - 1, Math.floor(((x - left) / width) * count)));
}
