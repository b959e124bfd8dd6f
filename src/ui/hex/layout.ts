/** Fixed geometry of the hex map, shared by the scroller, the rows and the tests. */

/** Bytes shown per row. */
export const BYTES_PER_ROW = 16;

/** Height of one row (and of the column header) in CSS px; rows never change height. */
export const ROW_HEIGHT = 20;

/** Rows rendered beyond each edge of the viewport, so a fast native scroll rarely shows blank space. */
export const OVERSCAN_ROWS = 8;

/**
 * The same in scaled mode (scroll-math.ts), where rows sit in a layer that stays put and move only when
 * they re-render: a row past the viewport is never seen before the next render, so none is drawn
 * (0 would do; 1 covers rounding). Half the rows of a far-scroll step, and half its layout and paint.
 */
export const SCALED_OVERSCAN_ROWS = 1;

/** Hex digits in the offset column: 8, or more for inputs past 4 GiB. */
export function offsetDigits(size: number): number {
  return Math.max(8, Math.max(0, size - 1).toString(16).length);
}
