/**
 * A File opened on demand, walked as it streams in: the analysis worker reads it once through its
 * byte stream (stream-ranges.ts), cuts batch-aligned ranges in memory, and walks each itself or hands
 * it (bytes transferred) to a range worker of its own, each with the kernel it compiled once; the
 * results are merged in input order, so the Analysis equals a one-thread walk of the same bytes.
 */
import { compileKernel, type KernelWalker } from "../checksum/kernel/wasm-kernel.ts";
import { mergeRanges } from "../core/range-merge.ts";
import { dropCodesFinding, walkRange, type ByteSource, type RangeResult } from "../core/range-walk.ts";
import type { Analysis } from "../core/model.ts";
import { MEMORY_WINDOW_BYTES, type RangePlan } from "../core/stream-analyze.ts";
import type { DiagnosticCode } from "../format/diagnostics.ts";
import type { RangeWorkerInit, RangeWorkerReply } from "./range-protocol.ts";
import { rangeSource, streamRanges, type SequentialRead } from "./stream-ranges.ts";
import { releaseBuffer } from "../lib/release-buffer.ts";

/** Files from this size on are walked by more than one thread (below, one thread is done before a worker boots). */
export const POOL_MIN_BYTES = 128 << 20;
const MAX_THREADS = 4;
/** Bytes per range read from the stream: large enough that a range worker's reply costs little, small enough to keep few in memory. */
export const STREAM_CHUNK_BYTES = 16 << 20;
/** Ranges a worker holds at once, so it never waits for the next. */
const JOBS_IN_FLIGHT = 2;

/** Threads (the analysis worker's own included) for a File of `size` bytes here: 1 where workers cannot start workers. */
export function pageThreadsFor(size: number): number {
  const cores = typeof navigator !== "undefined" ? navigator.hardwareConcurrency || 1 : 1;
  if (size < POOL_MIN_BYTES || typeof Worker === "undefined") return 1;
  return Math.max(1, Math.min(MAX_THREADS, cores));
}

// One range worker and its jobs in flight.
class RangeWorker {
  isReady = false;
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (r: RangeResult) => void; reject: (e: Error) => void }>();
  /** Where the buffers of walked ranges go back to. */
  onSpare: (buffer: ArrayBuffer) => void = () => undefined;
  private nextId = 1;
  private failure: Error | null = null;

  constructor(init: Omit<RangeWorkerInit, "type">) {
    this.worker = new Worker(new URL("./range.worker.ts", import.meta.url), { type: "module", name: "iggy-range" });
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    this.worker.onmessage = (event: MessageEvent<RangeWorkerReply>) => {
      const m = event.data;
      if (m.type === "ready") {
        this.isReady = true;
        return;
      }
      if (m.type === "failed" && m.id === null) return fail(new Error(m.message));
      const w = this.waiting.get(m.id as number);
      if (!w) return;
      this.waiting.delete(m.id as number);
      if (m.type === "done") {
        this.onSpare(m.spare);
        w.resolve(m.result);
      } else w.reject(new Error(m.message));
    };
    this.worker.onerror = (event) => {
      event.preventDefault();
      fail(new Error(event.message || "a range worker failed"));
    };
    this.worker.postMessage({ type: "init", ...init } satisfies RangeWorkerInit);
  }

  get inFlight(): number {
    return this.waiting.size;
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  run(plan: RangePlan, bytes: Uint8Array): Promise<RangeResult> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const answer = new Promise<RangeResult>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    this.worker.postMessage({ type: "job", id, plan, bytes }, [bytes.buffer as ArrayBuffer]);
    return answer;
  }

  terminate(): void {
    this.worker.terminate();
  }
}

// A message to ourselves lets queued replies run without a timer's clamp.
const yieldToEvents = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

/** How one streamed walk of a File goes. */
export interface StreamedWalk {
  /** Reads the File front to back (sequentialRead). */
  readonly read: SequentialRead;
  /** The File for reads outside the ranges in memory (only after a batch_length that cannot be stepped over). */
  readonly source: ByteSource;
  readonly kernel: KernelWalker;
  /** Range workers to start (0: this thread walks everything). */
  readonly workers: number;
  /** Whether this thread walks ranges too (tests turn it off, so the workers walk every whole range). */
  readonly walkHere: boolean;
  readonly chunkBytes: number;
  readonly maxDiagnostics: number;
  readonly dropCodes: readonly DiagnosticCode[];
  readonly keepFrames?: boolean;
  readonly onProgress?: (done: number, total: number) => void;
}

/** The Analysis of the whole File, read once as a stream and walked here and on `workers` range workers. */
export async function analyzeStreamed(walk: StreamedWalk): Promise<Analysis> {
  const size = walk.source.size;
  const keepFrames = walk.keepFrames ?? true;
  const dropFinding = dropCodesFinding([...walk.dropCodes]);
  const kernelModule = walk.workers > 0 ? await compileKernel() : null;
  const workers: RangeWorker[] = [];
  try {
    for (let i = 0; kernelModule && i < walk.workers; i++)
      workers.push(new RangeWorker({ kernelModule, size, keepFrames, maxDiagnostics: walk.maxDiagnostics, dropCodes: walk.dropCodes }));
  } catch {
    // Where a worker cannot start workers, this thread walks everything (the same result, one core).
  }
  const parts: Promise<RangeResult>[] = [];
  // Chunk buffers back from walked ranges, reused by the reads: allocating 16 MiB per range cost about as much as reading it.
  const spare: ArrayBuffer[] = [];
  const recycle = (buffer: ArrayBuffer) => {
    if (spare.length < 2 + 2 * workers.length && buffer.byteLength >= walk.chunkBytes) spare.push(buffer);
  };
  const allocate = (bytes: number): Uint8Array => {
    const i = spare.findIndex((b) => b.byteLength >= bytes);
    return i >= 0 ? new Uint8Array(spare.splice(i, 1)[0] as ArrayBuffer) : new Uint8Array(bytes);
  };
  for (const w of workers) w.onSpare = recycle;
  let done = 0;
  const finished = (plan: RangePlan) => {
    done += plan.end - plan.start;
    walk.onProgress?.(done, size);
  };
  const walkHere = (plan: RangePlan, bytes: Uint8Array): RangeResult =>
    walkRange(walk.kernel, rangeSource(plan.start, bytes, size, walk.source), {
      ...plan,
      keepFrames,
      maxDiagnostics: walk.maxDiagnostics,
      windowBytes: MEMORY_WINDOW_BYTES,
      dropFinding,
    });
  try {
    await streamRanges(
      size,
      walk.read,
      walk.chunkBytes,
      async ({ plan, bytes }) => {
        const whole = bytes.length >= plan.end - plan.start;
        for (;;) {
          const free = whole ? workers.find((w) => !w.failed && (w.isReady || !walk.walkHere) && w.inFlight < JOBS_IN_FLIGHT) : undefined;
          if (free) {
            parts.push(
              free.run(plan, bytes).then((r) => {
                finished(plan);
                return r;
              }),
            );
            return;
          }
          if (walk.walkHere || !whole || workers.every((w) => w.failed)) break;
          // Every worker is busy and this thread does not walk: wait for one to answer.
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        const r = walkHere(plan, bytes);
        recycle(bytes.buffer as ArrayBuffer);
        finished(plan);
        parts.push(Promise.resolve(r));
        // Lets the workers' replies in before the next read.
        await yieldToEvents();
      },
      allocate,
    );
    return mergeRanges(size, await Promise.all(parts), walk.maxDiagnostics, dropFinding, true);
  } finally {
    for (const w of workers) w.terminate();
    // The chunk buffers kept for reuse (16 MiB each) go now: an idle worker may not collect for a long while.
    for (const b of spare.splice(0)) releaseBuffer(b);
  }
}
