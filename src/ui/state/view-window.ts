/**
 * What the hex map shows and where it is asked to go, for views beside it (the overview, the
 * tables that follow the scroll): the hex map publishes its visible byte window and obeys jumps.
 */
import { createStore } from "./store.ts";

/** The half-open byte range of the hex map's visible rows, or null when nothing is shown. */
export interface ViewWindow {
  readonly start: number;
  readonly end: number;
  readonly size: number;
}

/** The hex map's visible window; it sets this as it scrolls. */
export const viewWindowStore = createStore<ViewWindow | null>(null);

/** A request to scroll the hex map so `byte` sits in the middle of the view; seq tells repeats apart. */
export const jumpStore = createStore<{ readonly byte: number; readonly seq: number } | null>(null);

let seq = 0;

/** Asks the hex map to centre `byte` (without selecting it). */
export function jumpToByte(byte: number): void {
  jumpStore.set({ byte, seq: ++seq });
}

/**
 * The hex map's window once it has held still for SETTLE_MS (and at least every SETTLE_MAX_MS while
 * it keeps moving): what the tables follow, so a fast scroll through many batches switches the
 * Frames table a few times, not once per painted frame. The Overview follows viewWindowStore itself.
 */
export const settledViewWindowStore = createStore<ViewWindow | null>(null);

/** Quiet time after the last scroll before the tables follow. */
export const SETTLE_MS = 80;
/** Longest the tables lag behind a scroll that does not stop. */
export const SETTLE_MAX_MS = 400;

let settleTimer: ReturnType<typeof setTimeout> | null = null;
let movingSince = -1;

function settleNow(): void {
  settleTimer = null;
  movingSince = -1;
  settledViewWindowStore.set(viewWindowStore.get());
}

/**
 * The timer's settle runs in a task of its own after the next frame is painted: while the map keeps
 * scrolling, the tables' follow (a re-render, and their virtualizers reading their scroll height) then
 * never shares a frame with the rows the scroll just rendered, nor forces their layout.
 */
function settle(): void {
  settleTimer = null;
  movingSince = -1;
  const set = (): void => settledViewWindowStore.set(viewWindowStore.get());
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => setTimeout(set, 0));
  else setTimeout(set, 0);
}

/** Publishes the hex map's window, skipping a set when nothing changed. */
export function publishViewWindow(next: ViewWindow | null): void {
  const now = viewWindowStore.get();
  if (now === next || (now && next && now.start === next.start && now.end === next.end && now.size === next.size)) return;
  viewWindowStore.set(next);
  // Another input (or none): the tables must not follow the previous one's window.
  if (!next || !now || next.size !== now.size) {
    if (settleTimer !== null) clearTimeout(settleTimer);
    settleNow();
    return;
  }
  const t = Date.now();
  if (movingSince < 0) movingSince = t;
  if (settleTimer !== null) clearTimeout(settleTimer);
  settleTimer = setTimeout(settle, Math.max(0, Math.min(SETTLE_MS, movingSince + SETTLE_MAX_MS - t)));
}
