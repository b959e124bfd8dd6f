/** Which batch and frame the tables and the inspector show, derived from selectionStore. */
import { useRef } from "react";
import { useStore } from "../state/store.ts";
import { selectionStore, type LoadedInput, type Selection } from "../state/app-state.ts";

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

/** The frame the inspector shows: the selected frame, else the first complete frame of the shown batch, else -1. */
export function useShownFrame(input: LoadedInput): number {
  const selected = useStore(selectionStore, frameOfSelection);
  const batch = useShownBatch(input);
  if (selected >= 0 && selected < input.analysis.frames.count) return selected;
  const b = input.analysis.batches[batch];
  return b && b.frameCount > 0 ? b.firstFrame : -1;
}
