/** Selection actions shared by every view, so the hex map, tables and diagnostics link the same way. */
import { batchAt, frameAt } from "../../core/view/frame-view.ts";
import { lowerBound, partitionPoint, upperBound } from "../../lib/binary-search.ts";
import { lowerBoundByStart } from "../../lib/range-index.ts";
import type { Analysis } from "../../core/model/model.ts";
import { cursorStore, documentStore, hoverStore, revealStore, selectionStore, type ByteSpan, type Selection } from "./app-state.ts";
import { frameBatch, frameEnd } from "../../core/model/frame-columns.ts";

function analysis(): Analysis | null {
  return documentStore.get().input?.analysis ?? null;
}

/** Selects [start, end) and the batch/frame holding its first byte; moves the cursor there. */
export function selectRange(start: number, end: number, origin: Selection["origin"]): void {
  const a = analysis();
  if (!a) return;
  const clampedStart = Math.max(0, Math.min(start, Math.max(0, a.size - 1)));
  selectionStore.set({
    start: clampedStart,
    end: Math.max(clampedStart, Math.min(end, a.size)),
    batch: batchAt(a, clampedStart),
    frame: frameAt(a, clampedStart),
    origin,
  });
  cursorStore.set(clampedStart);
}

/** Selects a whole complete frame by its index in the frame columns. */
export function selectFrame(frame: number, origin: Selection["origin"]): void {
  const a = analysis();
  if (!a || frame < 0 || frame >= a.frames.count) return;
  const start = a.frames.start[frame] as number;
  selectionStore.set({ start, end: frameEnd(a.frames, frame), batch: frameBatch(a.batches, frame), frame, origin });
  cursorStore.set(start);
}

/** Selects a whole batch by index. */
export function selectBatch(batch: number, origin: Selection["origin"]): void {
  const a = analysis();
  const b = a?.batches.at(batch);
  if (!a || !b) return;
  selectionStore.set({ start: b.start, end: b.end, batch, frame: -1, origin });
  cursorStore.set(b.start);
}

/** Moves to the next (+1) or previous (−1) complete frame from the cursor. */
export function stepFrame(direction: 1 | -1): void {
  const a = analysis();
  if (!a || a.frames.count === 0) return;
  const cursor = cursorStore.get();
  const starts = a.frames.start;
  const n = a.frames.count;
  // Next: the first frame starting after the cursor; previous: the last one starting before it.
  const target = direction > 0 ? upperBound(starts, cursor, 0, n) : lowerBound(starts, cursor, 0, n) - 1;
  if (target >= n) return;
  if (target >= 0) selectFrame(target, "keyboard");
}

/** Moves to the next (+1) or previous (−1) diagnostic from the cursor, wrapping around. */
export function stepProblem(direction: 1 | -1): void {
  const a = analysis();
  if (!a || a.diagnostics.length === 0) return;
  const cursor = cursorStore.get();
  const current = selectionStore.get();
  const list = a.diagnostics;
  // Binary searches over the sorted list: a key press must not walk 200,000 diagnostics.
  let index: number;
  if (direction > 0) {
    const currentEnd = current?.end ?? Infinity;
    index = partitionPoint(0, list.length, (i) => list[i]!.start < cursor || (list[i]!.start === cursor && list[i]!.end <= currentEnd));
    if (index >= list.length) index = 0;
  } else {
    index = lowerBoundByStart(list, cursor) - 1;
    if (index < 0) index = list.length - 1;
  }
  const d = list[index]!;
  selectRange(d.start, Math.max(d.end, d.start + 1), "keyboard");
}

// Hovering a row reveals its bytes only after the pointer rests, so sweeping across a table does not scroll the hex map.
const REVEAL_DWELL_MS = 250;
let revealTimer: ReturnType<typeof setTimeout> | null = null;

/** Highlights a range for a hovered row and, once the pointer rests on it, scrolls the hex map to it. */
export function hoverRange(range: ByteSpan | null): void {
  hoverStore.set(range);
  if (revealTimer !== null) clearTimeout(revealTimer);
  revealTimer =
    range === null
      ? null
      : setTimeout(() => {
          revealTimer = null;
          revealStore.set({ start: range.start });
        }, REVEAL_DWELL_MS);
}
