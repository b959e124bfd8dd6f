/**
 * All cores for one file: a header walk cuts it into batch-aligned ranges (a few per thread), the
 * ranges are handed out as threads come free (worker_threads, each with its own wasm kernel, and
 * optionally the calling thread, which starts at once while workers boot), and the results are
 * merged in input order (range-merge.ts), so the Analysis equals a single-threaded one. Thresholds and
 * sizes are core/walk/pool-policy.ts's, shared with the page's range workers (src/worker/range-workers.ts).
 */
import { Worker } from "node:worker_threads";
import { closeSync, openSync } from "node:fs";
import type { RangePlan } from "../src/core/walk/stream-analyze.ts";
import { JoinedRanges, RangeCutter, type RangeSupply } from "../src/core/walk/range-cuts.ts";
import { mergeRanges } from "../src/core/walk/range-merge.ts";
import { dropCodesFinding, walkRange, type RangeResult } from "../src/core/walk/range-walk.ts";
import { RangeJobs, type RangeWalkSettings, type RangeWorkerMessage, type RangeWorkerReply } from "../src/core/walk/range-protocol.ts";
import { scheduleRanges } from "../src/core/walk/range-schedule.ts";
import { compileKernel, type KernelWalker } from "../src/checksum/kernel/wasm-kernel.ts";
import { fileSource, READ_WINDOW_BYTES } from "./file-source.ts";
import { POOL_RANGE_BYTES } from "../src/core/walk/pool-policy.ts";

export { fileSource } from "./file-source.ts";
import type { Analysis } from "../src/core/model/model.ts";
import type { DiagnosticCode } from "../src/format/diagnostics.ts";

/** Options of one pooled analysis. */
export interface PoolOptions {
  readonly threads: number;
  readonly startOffset: number;
  readonly keepFrames: boolean;
  readonly maxDiagnostics: number;
  readonly dropCodes?: readonly DiagnosticCode[];
  /** Batch-aligned ranges covering [startOffset, size) in order, from a header walk already done (they are joined to the pool's range size); else the pool walks the headers. */
  readonly ranges?: readonly RangePlan[];
  /** Bytes per range handed out (default: a share of what is left, 4-32 MiB); tests set it small to cut a small file into many. */
  readonly rangeBytes?: number;
}

const WORKER_URL = new URL("./range-worker-boot.mjs", import.meta.url);

/** One worker thread and its jobs in flight. */
class PooledWorker {
  readonly ready: Promise<void>;
  private readonly jobs = new RangeJobs();

  constructor(readonly worker: Worker) {
    let started: () => void = () => undefined;
    let failed: (e: Error) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    // A worker that never comes up must not fail a file the other threads can still walk.
    this.ready.catch(() => undefined);
    const fail = (err: Error): void => {
      failed(err);
      this.jobs.fail(err);
    };
    worker.on("message", (m: RangeWorkerReply) => {
      if (this.jobs.settle(m)) started();
      else if (m.type === "failed" && m.id === null) failed(new Error(m.message));
    });
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`range worker exited with code ${code}`)));
  }

  run(plan: RangePlan, settings: RangeWalkSettings, path: string): Promise<RangeResult> {
    return this.jobs.start(plan, settings, { path }, (job) => this.worker.postMessage(job satisfies RangeWorkerMessage));
  }
}

/** Lets queued worker messages run between two ranges the calling thread walks. */
const yieldToEvents = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Worker threads that stay up between jobs (start-up is paid once), each with its own kernel. */
export class RangePool {
  private readonly workers: PooledWorker[];

  /** Starts `threads` workers (none for 0) at once; ready() resolves when all have their kernel. */
  constructor(readonly threads: number) {
    this.workers = Array.from({ length: Math.max(0, threads) }, () => new PooledWorker(new Worker(WORKER_URL)));
    // Threads boot while the kernel compiles here (once, for all of them); the module is their first message.
    if (this.workers.length > 0)
      void compileKernel().then(
        (kernelModule) => {
          const first: RangeWorkerMessage = { type: "init", kernelModule };
          for (const w of this.workers) w.worker.postMessage(first);
        },
        // Without a kernel the workers cannot walk: stopped, they fail their ready() and jobs.
        () => this.workers.forEach((w) => void w.worker.terminate()),
      );
  }

  /** Lets the process exit while the workers are up (a pool started ahead of need that may go unused); ref() undoes it. */
  unref(): void {
    for (const w of this.workers) w.worker.unref();
  }

  /** Keeps the process alive for the workers again, as a pool does from its start. */
  ref(): void {
    for (const w of this.workers) w.worker.ref();
  }

  /** Resolves once every worker can take a job. */
  async ready(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.ready));
  }

  /**
   * Analyses the file at `path` over the pool, and over the calling thread too when `ownKernel` is
   * given (it walks ranges from the start while workers boot); the result equals analyze() of its bytes.
   */
  async analyzeFile(path: string, options: Omit<PoolOptions, "threads">, ownKernel?: KernelWalker): Promise<Analysis> {
    const workers = this.workers;
    if (workers.length === 0 && !ownKernel) throw new Error("a pool of no workers needs the calling thread's kernel");
    const fd = openSync(path, "r");
    try {
      const source = fileSource(fd);
      const fixed = options.rangeBytes ?? POOL_RANGE_BYTES;
      const supply: RangeSupply = options.ranges ? new JoinedRanges(options.ranges, fixed) : new RangeCutter(source, options.startOffset, fixed);
      const settings: RangeWalkSettings = {
        size: source.size,
        keepFrames: options.keepFrames,
        maxDiagnostics: options.maxDiagnostics,
        dropCodes: options.dropCodes ?? [],
      };
      const dropFinding = dropCodesFinding(options.dropCodes);
      const results = await scheduleRanges({
        supply,
        size: source.size,
        startOffset: options.startOffset,
        workers: workers.map((w) => ({ ready: w.ready, run: (p: RangePlan) => w.run(p, settings, path) })),
        walkHere:
          ownKernel &&
          ((p: RangePlan) =>
            walkRange(ownKernel, source, {
              ...p,
              keepFrames: settings.keepFrames,
              maxDiagnostics: settings.maxDiagnostics,
              dropFinding,
              windowBytes: READ_WINDOW_BYTES,
            })),
        yieldToEvents,
        rangeBytes: options.rangeBytes,
      });
      return mergeRanges(source.size, results, options.maxDiagnostics, dropCodesFinding(options.dropCodes));
    } finally {
      closeSync(fd);
    }
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}

/**
 * Analyses the file at `path` with `threads` threads: the calling thread (with `ownKernel`) and
 * threads - 1 workers started for it, or `threads` workers without it; the result equals analyze() of its bytes.
 */
export async function analyzeFileInPool(path: string, options: PoolOptions, ownKernel?: KernelWalker): Promise<Analysis> {
  const pool = new RangePool(ownKernel ? options.threads - 1 : options.threads);
  try {
    return await pool.analyzeFile(path, options, ownKernel);
  } finally {
    await pool.close();
  }
}
