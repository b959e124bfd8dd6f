/** Which batch and frame the tables and the inspector show, derived from selectionStore. */
import { useCallback, useRef } from "react";
import { useStore } from "../state/store.ts";
import { selectionStore, type LoadedInput, type Selection } from "../state/app-state.ts";
import { settledViewWindowStore, type ViewWindow } from "../state/view-window.ts";
import { batchAt } from "../../core/view/frame-view.ts";

/** The selection's batch index, or -1 (a stable selector for useStore). */
export const batchOfSelection = (s: Selection | null): number => s?.batch ?? -1;
/** The selection's frame index in the frame columns, or -1 (a stable selector for useStore). */
export const frameOfSelection = (s: Selection | null): number => s?.frame ?? -1;
/** The selection itself (a stable selector for useStore). */
export const wholeSelection = (s: Selection | null): Selection | null => s;

/**
 * The batch whose header and frames are shown: the selected batch; when the selection lies
 * outside every batch (or there is none yet), the last batch shown for this input, at first 0.
 */
export function useShownBatch(input: LoadedInput): number {
  const selected = useStore(selectionStore, batchOfSelection);
  // Remembered per input so a click on bytes outside any batch does not jump back to batch 0.
  const last = useRef<{ input: LoadedInput; batch: number }>({ input, batch: 0 });
  if (last.current.input !== input) last.current = { input, batch: 0 };
  if (selected >= 0 && selected < input.analysis.batches.length) last.current.batch = selected;
  return last.current.batch;
}

/**
 * The batch under the middle of the hex map's view once it settles, or -1; re-renders its caller only when that
 * batch changes, never per scrolled row.
 */
export function useBatchInView(input: LoadedInput): number {
  const { analysis } = input;
  const select = useCallback((w: ViewWindow | null) => (w && w.size === analysis.size ? batchAt(analysis, Math.floor((w.start + w.end) / 2)) : -1), [analysis]);
  return useStore(settledViewWindowStore, select);
}

/**
 * The batch whose frames the Frames table lists: the selected batch, or the batch the hex map
 * scrolled into, whichever changed last (so scrolling the map carries the table along, and a new
 * selection wins until the map moves into another batch).
 */
export function useFollowedBatch(input: LoadedInput): number {
  const selected = useShownBatch(input);
  const inView = useBatchInView(input);
  const last = useRef({ input, selected, inView, shown: selected });
  const l = last.current;
  if (l.input !== input) last.current = { input, selected, inView, shown: selected };
  else if (l.selected !== selected) last.current = { input, selected, inView, shown: selected };
  else if (l.inView !== inView) last.current = { input, selected, inView, shown: inView >= 0 ? inView : l.shown };
  return last.current.shown;
}

/** The frame the inspector shows: the selected frame, else the first complete frame of the shown batch, else -1. */
export function useShownFrame(input: LoadedInput): number {
  const selected = useStore(selectionStore, frameOfSelection);
  const batch = useShownBatch(input);
  if (selected >= 0 && selected < input.analysis.frames.count) return selected;
  const b = input.analysis.batches.at(batch);
  return b && b.frameCount > 0 ? b.firstFrame : -1;
}
