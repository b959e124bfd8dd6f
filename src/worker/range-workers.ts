/**
 * All cores on the page for a File opened on demand: the analysis worker starts range workers (Web
 * Workers of its own, each with the kernel it compiled), cuts the File into batch-aligned ranges as
 * they ask (core/range-schedule.ts, as the CLI does with its threads), walks ranges itself too, and
 * merges the results in input order, so the Analysis equals a one-thread walk.
 */
import { compileKernel, type KernelWalker } from "../checksum/kernel/wasm-kernel.ts";
import { RangeCutter } from "../core/range-cuts.ts";
import { mergeRanges } from "../core/range-merge.ts";
import { scheduleRanges, type RangeRunner } from "../core/range-schedule.ts";
import { dropCodesFinding, walkRange, type ByteSource, type RangeResult } from "../core/range-walk.ts";
import type { Analysis } from "../core/model.ts";
import type { RangePlan } from "../core/stream-analyze.ts";
import type { DiagnosticCode } from "../format/diagnostics.ts";
import type { RangeWorkerInit, RangeWorkerReply } from "./range-protocol.ts";

/** Files from this size on are walked by more than one thread (below, one thread is done before a worker boots). */
export const POOL_MIN_BYTES = 128 << 20;
const MAX_THREADS = 4;

/** Threads (the analysis worker's own included) for a File of `size` bytes here: 1 where workers cannot start workers. */
export function pageThreadsFor(size: number): number {
  const cores = typeof navigator !== "undefined" ? navigator.hardwareConcurrency || 1 : 1;
  if (size < POOL_MIN_BYTES || typeof Worker === "undefined") return 1;
  return Math.max(1, Math.min(MAX_THREADS, cores));
}

// One range worker and its jobs in flight, answered in the order posted.
class RangeWorker implements RangeRunner {
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (r: RangeResult) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private failure: Error | null = null;

  constructor(init: Omit<RangeWorkerInit, "type">) {
    this.worker = new Worker(new URL("./range.worker.ts", import.meta.url), { type: "module", name: "iggy-range" });
    let started: () => void = () => undefined;
    let failed: (e: Error) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    // A worker that never comes up must not fail a file the other threads can still walk.
    this.ready.catch(() => undefined);
    const fail = (err: Error) => {
      this.failure ??= err;
      failed(err);
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    this.worker.onmessage = (event: MessageEvent<RangeWorkerReply>) => {
      const m = event.data;
      if (m.type === "ready") return started();
      if (m.type === "failed" && m.id === null) return fail(new Error(m.message));
      const w = this.waiting.get(m.id as number);
      if (!w) return;
      this.waiting.delete(m.id as number);
      if (m.type === "done") w.resolve(m.result);
      else w.reject(new Error(m.message));
    };
    this.worker.onerror = (event) => {
      event.preventDefault();
      fail(new Error(event.message || "a range worker failed"));
    };
    this.worker.postMessage({ type: "init", ...init } satisfies RangeWorkerInit);
  }

  run(plan: RangePlan): Promise<RangeResult> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const answer = new Promise<RangeResult>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    this.worker.postMessage({ type: "job", id, plan });
    return answer;
  }

  terminate(): void {
    this.worker.terminate();
  }
}

/** How one pooled walk of a File goes. */
export interface PoolWalk {
  readonly file: Blob;
  readonly source: ByteSource;
  readonly kernel: KernelWalker;
  /** Range workers to start. */
  readonly workers: number;
  /** Whether this thread walks ranges too (tests turn it off, so the workers walk everything). */
  readonly walkHere: boolean;
  readonly maxDiagnostics: number;
  readonly dropCodes: readonly DiagnosticCode[];
  readonly windowBytes: number;
  readonly onProgress?: (done: number, total: number) => void;
}

// A message posted to ourselves lets range workers' replies in between two ranges walked here (setTimeout would clamp to 4 ms).
const yieldToEvents = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

/** The Analysis of the whole File over `workers` range workers and, with walkHere, this thread. */
export async function analyzeFileInPool(walk: PoolWalk): Promise<Analysis> {
  const kernelModule = await compileKernel();
  const keepFrames = true;
  const workers = Array.from(
    { length: walk.workers },
    () => new RangeWorker({ kernelModule, file: walk.file, keepFrames, maxDiagnostics: walk.maxDiagnostics, dropCodes: walk.dropCodes }),
  );
  const dropFinding = dropCodesFinding([...walk.dropCodes]);
  let done = 0;
  try {
    const parts = await scheduleRanges({
      supply: new RangeCutter(walk.source, 0, walk.walkHere ? 32 << 20 : 1 << 20),
      size: walk.source.size,
      startOffset: 0,
      workers,
      walkHere: walk.walkHere
        ? (plan) =>
            walkRange(walk.kernel, walk.source, { ...plan, keepFrames, maxDiagnostics: walk.maxDiagnostics, windowBytes: walk.windowBytes, dropFinding })
        : undefined,
      // Tests cut small files into many ranges, so each worker gets some.
      rangeBytes: walk.walkHere ? undefined : 1 << 20,
      yieldToEvents,
      onRangeDone: (plan) => {
        done += plan.end - plan.start;
        walk.onProgress?.(done, walk.source.size);
      },
    });
    return mergeRanges(walk.source.size, parts, walk.maxDiagnostics, dropFinding);
  } finally {
    for (const w of workers) w.terminate();
  }
}
