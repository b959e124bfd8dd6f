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

/** Publishes the hex map's window, skipping a set when nothing changed. */
export function publishViewWindow(next: ViewWindow | null): void {
  const now = viewWindowStore.get();
  if (now === next || (now && next && now.start === next.start && now.end === next.end && now.size === next.size)) return;
  viewWindowStore.set(next);
}
