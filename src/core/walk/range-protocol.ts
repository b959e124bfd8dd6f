/**
 * The one protocol of the range pools: the page's Web Workers (src/worker/range-workers.ts) and the CLI's
 * worker_threads (cli/range-pool.ts) send these messages and run these functions. A host supplies only the
 * transport and where a range's bytes come from (posted with the job, or read from a file by path).
 */
import type { KernelWalker } from "../../checksum/kernel/wasm-kernel.ts";
import type { DiagnosticCode } from "../../format/diagnostics.ts";
import { releaseBuffer } from "../../lib/release-buffer.ts";
import { BatchTable, packedBatchBuffers, type PackedBatches } from "../model/batch-table.ts";
import { frameColumnBuffers, KeptColumnsBuilder } from "../model/frame-columns-build.ts";
import { FRAME_HEADER_SIZE } from "../../format/fields.ts";
import { widePositions } from "../model/model.ts";
import { InputShrank, dropCodesFinding, walkRange, type ByteSource, type RangeResult } from "./range-walk.ts";
import type { RangePlan } from "./stream-analyze.ts";

/** How every range of one input is walked, the same for each of its jobs. */
export interface RangeWalkSettings {
  /** The whole input's size (a range's walk checks batch lengths against it). */
  readonly size: number;
  readonly keepFrames: boolean;
  readonly maxDiagnostics: number;
  /** Codes dropped whatever the batch (a segment drops offset-discontinuity); a function cannot cross. */
  readonly dropCodes: readonly DiagnosticCode[];
}

/** Pool → range worker, first: the kernel compiled once by the pool, so no worker compiles it again. */
export interface RangeWorkerInit {
  readonly type: "init";
  readonly kernelModule: WebAssembly.Module;
}

/** Pool → range worker: walk this range; its bytes (from plan.start) come along, transferred, or are read from `path`. */
export interface RangeWorkerJob {
  readonly type: "job";
  readonly id: number;
  readonly plan: RangePlan;
  readonly settings: RangeWalkSettings;
  readonly bytes?: Uint8Array;
  readonly path?: string;
}

/**
 * Pool → range worker, last: buffers the pool is done with. The worker only holds them until it is
 * terminated, right after; a detached buffer's memory otherwise waits for a collection in the pool's
 * thread (about 200 MiB at 1 GiB on the page), and a worker that ends frees its memory at once.
 */
export interface RangeWorkerDiscard {
  readonly type: "discard";
}

/** What a pool sends a range worker. */
export type RangeWorkerMessage = RangeWorkerInit | RangeWorkerJob | RangeWorkerDiscard;

/** A range's result as it crosses: its batches packed (core/model/batch-wire.ts). */
export type WireRangeResult = Omit<RangeResult, "batches"> & { readonly batches: PackedBatches };

/** Range worker → pool: ready for jobs, a range's result (columns transferred), or why it failed (`shrank`: the input got shorter meanwhile). */
export type RangeWorkerReply =
  | { readonly type: "ready" }
  | { readonly type: "done"; readonly id: number; readonly result: WireRangeResult; readonly spare: ArrayBuffer | null }
  | { readonly type: "failed"; readonly id: number | null; readonly message: string; readonly shrank: boolean };

/** How a worker walks its jobs: `pack` makes the buffers frame columns are packed into (none: sent as walked); `windowBytes` for a source in memory. */
export interface RangeJobHost {
  readonly pack?: (bytes: number) => ArrayBuffer;
  readonly windowBytes?: number;
}

/** Walks one job over `source` in a range worker: the reply to post and the buffers to transfer with it. */
export function walkRangeJob(
  kernel: KernelWalker,
  source: ByteSource,
  job: RangeWorkerJob,
  host: RangeJobHost = {},
): { reply: RangeWorkerReply; transfer: ArrayBuffer[] } {
  const { settings, plan } = job;
  // With `pack`, the frames are walked straight into one buffer the pool can free once joined (a plain buffer from
  // here would wait for its collection), with room for as many frames as the range can hold: nothing to copy after.
  const packed =
    settings.keepFrames && host.pack
      ? new KeptColumnsBuilder(Math.floor((plan.end - plan.start) / FRAME_HEADER_SIZE) + 1, widePositions(plan.end), host.pack)
      : undefined;
  const result: { -readonly [K in keyof RangeResult]: RangeResult[K] } = walkRange(kernel, source, {
    ...plan,
    keepFrames: settings.keepFrames,
    maxDiagnostics: settings.maxDiagnostics,
    windowBytes: host.windowBytes,
    dropFinding: dropCodesFinding(settings.dropCodes),
    frames: packed,
  });
  if (packed) result.frames = packed.finish(true);
  // Batches packed: a range of small batches holds hundreds of thousands, slow to clone one by one.
  const table = host.pack ? result.batches.packedInto(host.pack) : result.batches;
  if (table !== result.batches) for (const b of packedBatchBuffers(result.batches.packed)) releaseBuffer(b);
  const batches = table.packed;
  // The range's own buffer goes back for the next chunk: no fresh 16 MiB (zeroed, page-faulted) per range.
  const spare = job.bytes ? (job.bytes.buffer as ArrayBuffer) : null;
  const transfer = [
    ...(spare ? [spare] : []),
    ...new Set(result.frames ? frameColumnBuffers(result.frames) : []),
    ...packedBatchBuffers(batches),
    result.diagnosticGroupEnds.buffer as ArrayBuffer,
  ];
  return { reply: { type: "done", id: job.id, result: { ...result, batches }, spare }, transfer };
}

/** The reply of a job (or of the worker's start, `id` null) that threw `err`. */
export function failedReply(id: number | null, err: unknown): RangeWorkerReply {
  if (err instanceof InputShrank) return { type: "failed", id, message: err.message, shrank: true };
  return { type: "failed", id, message: err instanceof Error ? err.message : String(err), shrank: false };
}

/** The pool's side of one range worker: its jobs in flight by id, settled by its replies. */
export class RangeJobs {
  private readonly waiting = new Map<number, { resolve: (r: RangeResult) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private failure: Error | null = null;

  /** Jobs sent and not answered yet. */
  get inFlight(): number {
    return this.waiting.size;
  }

  /** Whether the worker failed as a whole (every later job fails at once). */
  get failed(): boolean {
    return this.failure !== null;
  }

  /** A new job for `plan`, and the promise its reply settles; `send` posts it (null once the worker failed). */
  start(
    plan: RangePlan,
    settings: RangeWalkSettings,
    extra: Pick<RangeWorkerJob, "bytes" | "path">,
    send: (job: RangeWorkerJob) => void,
  ): Promise<RangeResult> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const answer = new Promise<RangeResult>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    send({ type: "job", id, plan, settings, ...extra });
    return answer;
  }

  /** Settles the job a reply answers (a result's batches unpacked); `onSpare` gets a done range's buffer back. Returns true for "ready". */
  settle(reply: RangeWorkerReply, onSpare: (buffer: ArrayBuffer) => void = () => undefined): boolean {
    if (reply.type === "ready") return true;
    if (reply.type === "failed" && reply.id === null) {
      this.fail(new Error(reply.message));
      return false;
    }
    const w = this.waiting.get(reply.id as number);
    if (!w) return false;
    this.waiting.delete(reply.id as number);
    if (reply.type === "done") {
      if (reply.spare) onSpare(reply.spare);
      w.resolve({ ...reply.result, batches: BatchTable.fromPacked(reply.result.batches) });
    } else w.reject(reply.shrank ? new InputShrank(reply.message) : new Error(reply.message));
    return false;
  }

  /** The worker is gone: every job in flight, and every later one, fails with `err`. */
  fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}
