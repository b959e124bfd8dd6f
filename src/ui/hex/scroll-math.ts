/**
 * Scroll geometry of the hex map. Browsers cap an element's height (about 33.5M px in Chromium,
 * 17.9M px in Firefox), so a 256 MiB input (16M rows of 20 px) cannot get its natural height.
 * Past MAX_SCROLL_HEIGHT the scroll area is capped and the scroll position maps linearly onto
 * the rows (vscode-hexeditor's virtualScrollContainer does the same); below it the mapping is
 * the identity, so small inputs scroll natively. Positions are fractional rows.
 */

/** Tallest scroll area we create, well under every browser's cap. */
export const MAX_SCROLL_HEIGHT = 8_000_000;

/** How rows map onto the scroll area. */
export interface ScrollGeometry {
  readonly rows: number;
  readonly rowHeight: number;
  /** Height of the rows' scroll area in px: rows × rowHeight, capped at the maximum. */
  readonly contentHeight: number;
  /** True when the natural height exceeds the maximum and positions are scaled. */
  readonly scaled: boolean;
}

function clamp(value: number, lo: number, hi: number): number {
  return value < lo ? lo : value > hi ? hi : value;
}

/** The geometry of `rows` rows of rowHeight px, capped at maxHeight px. */
export function scrollGeometry(rows: number, rowHeight: number, maxHeight = MAX_SCROLL_HEIGHT): ScrollGeometry {
  const natural = rows * rowHeight;
  return { rows, rowHeight, contentHeight: Math.min(natural, maxHeight), scaled: natural > maxHeight };
}

/** The largest top row: the last row then sits at the bottom of a viewport of viewportHeight px. */
export function maxTopRow(g: ScrollGeometry, viewportHeight: number): number {
  return Math.max(0, g.rows - viewportHeight / g.rowHeight);
}

/** The (fractional) row at the top of a viewport of viewportHeight px scrolled to scrollTop. */
export function topRowAt(g: ScrollGeometry, scrollTop: number, viewportHeight: number): number {
  const maxTop = maxTopRow(g, viewportHeight);
  if (!g.scaled) return clamp(scrollTop / g.rowHeight, 0, maxTop);
  const maxScroll = g.contentHeight - viewportHeight;
  if (maxScroll <= 0) return 0;
  return clamp(scrollTop / maxScroll, 0, 1) * maxTop;
}

/** The scrollTop that puts topRow at the top of the viewport (the inverse of topRowAt). */
export function scrollTopFor(g: ScrollGeometry, topRow: number, viewportHeight: number): number {
  const maxTop = maxTopRow(g, viewportHeight);
  const row = clamp(topRow, 0, maxTop);
  if (!g.scaled) return row * g.rowHeight;
  const maxScroll = Math.max(0, g.contentHeight - viewportHeight);
  return maxTop === 0 ? 0 : (row / maxTop) * maxScroll;
}

/** Rows [first, end) to render for a viewport whose top is at topRow, with overscan rows each side. */
export function rowWindow(g: ScrollGeometry, topRow: number, viewportHeight: number, overscan: number): { first: number; end: number } {
  if (g.rows === 0) return { first: 0, end: 0 };
  const first = clamp(Math.floor(topRow) - overscan, 0, g.rows - 1);
  const end = clamp(Math.ceil(topRow + viewportHeight / g.rowHeight) + overscan, first + 1, g.rows);
  return { first, end };
}

/**
 * How many row elements a viewport of viewportHeight px keeps: more than any window of rendered rows (rowWindow's,
 * or the virtualizer's, which counts the sticky header's row too), so keying rows by `row % slots` gives the rows of
 * every window distinct keys that do not change as it moves: a row keeps its element while it stays in view, and
 * the rows that leave hand theirs to the rows that come in, instead of every row being re-created when the number
 * of rendered rows changes by one.
 */
export function rowSlots(viewportHeight: number, rowHeight: number, overscan: number): number {
  return Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 2 * overscan + 4;
}

/** True when the whole of `row` lies inside the viewport. */
export function isRowVisible(g: ScrollGeometry, topRow: number, row: number, viewportHeight: number): boolean {
  return row >= topRow - 1e-6 && row + 1 <= topRow + viewportHeight / g.rowHeight + 1e-6;
}

/**
 * The top row that brings `row` into view. "nearest" scrolls as little as possible (and not at all
 * when the row is visible); "center" puts the row in the middle unless it is already visible.
 */
export function revealTopRow(g: ScrollGeometry, topRow: number, row: number, viewportHeight: number, align: "nearest" | "center"): number {
  const maxTop = maxTopRow(g, viewportHeight);
  if (isRowVisible(g, topRow, row, viewportHeight)) return clamp(topRow, 0, maxTop);
  const visible = viewportHeight / g.rowHeight;
  if (align === "center") return clamp(row + 0.5 - visible / 2, 0, maxTop);
  return clamp(row < topRow ? row : row + 1 - visible, 0, maxTop);
}

/** Rows moved by one wheel event: pixels are divided by the row height, lines are rows, pages are viewports. */
export function wheelRows(deltaY: number, deltaMode: number, rowHeight: number, viewportHeight: number): number {
  if (deltaMode === 1) return deltaY;
  if (deltaMode === 2) return deltaY * Math.max(1, Math.floor(viewportHeight / rowHeight) - 1);
  return deltaY / rowHeight;
}
