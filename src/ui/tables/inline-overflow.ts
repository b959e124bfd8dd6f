/**
 * The Verdict and Checksum columns stay in sight when a narrow panel scrolls a table sideways: pinned to its
 * box's right edge. Not with position: sticky, which made every pinned cell (one per rendered row of each
 * table) a composited layer of its own, and the page's every paint, each frame the hex map scrolls, spent most
 * of its time layerizing a hundred of them: the cells are shifted with `left` instead, by a CSS variable per
 * column that changes only when the table scrolls sideways or resizes.
 */
import { useLayoutEffect } from "react";

/** Ids (data-col) of the columns pinned to the right edge. */
export const PINNED_COLUMNS = ["verdict", "checksum"] as const;

/**
 * How far (px, ≤ 0) to shift a column whose natural right edge is at `naturalRight` (in the scrolled content)
 * so that it never passes the right edge of a box `boxWidth` wide scrolled to `scrollLeft`: what `position:
 * sticky; right: 0` does.
 */
export function pinShift(naturalRight: number, scrollLeft: number, boxWidth: number): number {
  return Math.min(0, scrollLeft + boxWidth - naturalRight);
}

/**
 * Keeps the pinned columns of the table in `box` (a `.tbl-scroll`) in sight: marks the box
 * `data-overflow-inline` while its content is wider than it, and sets `--tbl-pin-<column>` on it as it
 * scrolls sideways. Attributes and variables are written to the DOM directly: no re-render per scroll.
 */
export function usePinnedColumns(box: HTMLElement | null): void {
  useLayoutEffect(() => {
    if (!box) return;
    // The columns' natural right edges, measured when the box or its table resizes.
    let natural: { col: string; right: number }[] = [];
    const applied = new Map<string, number>();
    let width = 0;
    let lastLeft = Number.NaN;
    const place = (): void => {
      if (natural.length === 0) return;
      // A vertical scroll (the tables following the hex map) changes nothing here.
      const left = box.scrollLeft;
      if (left === lastLeft) return;
      lastLeft = left;
      for (const { col, right } of natural) {
        const shift = pinShift(right, left, width);
        if (applied.get(col) === shift) continue;
        applied.set(col, shift);
        box.style.setProperty(`--tbl-pin-${col}`, `${shift}px`);
      }
    };
    // Runs in the ResizeObserver's callback, after layout: its reads force none.
    const measure = (): void => {
      const over = box.scrollWidth > box.clientWidth + 0.5;
      box.toggleAttribute("data-overflow-inline", over);
      width = box.clientWidth;
      natural = [];
      if (over) {
        for (const col of PINNED_COLUMNS) {
          const cell = box.querySelector<HTMLElement>(`[role="columnheader"][data-col="${col}"]`);
          if (cell) natural.push({ col, right: cell.offsetLeft + cell.offsetWidth - (applied.get(col) ?? 0) });
        }
      }
      lastLeft = Number.NaN;
      place();
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    box.addEventListener("scroll", place, { passive: true });
    return () => {
      observer.disconnect();
      box.removeEventListener("scroll", place);
    };
  }, [box]);
}
