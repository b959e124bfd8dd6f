/**
 * An Analysis as it crosses between threads: its batch table's columns (batch-table.ts) travel as
 * typed arrays that transfer without a copy, and are wrapped again on the other side.
 */
import { BatchTable, type PackedBatches } from "./batch-table.ts";
import type { Analysis } from "./model.ts";

export { packedBatchBuffers, type PackedBatches } from "./batch-table.ts";

/** An Analysis with its batches as columns, as the worker posts it. */
export type WireAnalysis = Omit<Analysis, "batches"> & { readonly batches: PackedBatches };

/** The analysis as it crosses to another thread (transferring the buffers detaches the sender's table). */
export function analysisToWire(a: Analysis): WireAnalysis {
  return { ...a, batches: a.batches.packed };
}

/** The analysis that crossed, whole again. */
export function analysisFromWire(w: WireAnalysis): Analysis {
  return { ...w, batches: BatchTable.fromPacked(w.batches) };
}
