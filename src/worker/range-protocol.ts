/** The messages between the analysis worker and the range workers it starts for a large File (all cores on the page). */
import type { PackedBatches } from "../core/model/batch-wire.ts";
import type { DiagnosticCode } from "../format/diagnostics.ts";
import type { RangeResult } from "../core/walk/range-walk.ts";
import type { RangePlan } from "../core/walk/stream-analyze.ts";

/** Analysis worker → range worker, first: the compiled kernel (no worker compiles it again) and how to walk. */
export interface RangeWorkerInit {
  readonly type: "init";
  readonly kernelModule: WebAssembly.Module;
  /** The whole input's size (a range's walk checks batch lengths against it). */
  readonly size: number;
  readonly keepFrames: boolean;
  readonly maxDiagnostics: number;
  /** Codes dropped whatever the batch (a segment drops offset-discontinuity); a function cannot cross. */
  readonly dropCodes: readonly DiagnosticCode[];
}

/** Analysis worker → range worker: walk this range, whose bytes (from plan.start) come along, transferred. */
export interface RangeWorkerJob {
  readonly type: "job";
  readonly id: number;
  readonly plan: RangePlan;
  readonly bytes: Uint8Array;
}

/**
 * Analysis worker → range worker, last: buffers the analysis worker is done with. The worker only holds
 * them until it is terminated, right after; a detached buffer's memory otherwise waits for a collection in
 * the analysis worker (about 200 MiB at 1 GiB), and a worker that ends frees its memory at once.
 */
export interface RangeWorkerDiscard {
  readonly type: "discard";
}

/** A range's result as it crosses: its batches packed (core/model/batch-wire.ts). */
export type WireRangeResult = Omit<RangeResult, "batches"> & { readonly batches: PackedBatches };

/** Range worker → analysis worker: ready for jobs, a range's result (columns transferred), or why it failed. */
export type RangeWorkerReply =
  | { readonly type: "ready" }
  | { readonly type: "done"; readonly id: number; readonly result: WireRangeResult; readonly spare: ArrayBuffer }
  | { readonly type: "failed"; readonly id: number | null; readonly message: string };
