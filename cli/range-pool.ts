/**
 * All cores for one file: a header walk cuts it into batch-aligned ranges, one worker_thread per
 * range streams its bytes into its own wasm kernel and walks them, and the ranges are merged in
 * input order (range-merge.ts), so the Analysis equals a single-threaded one. The page's Web
 * Workers can reuse the same three steps: planRanges, walkRange per worker, mergeRanges.
 */
import { Worker } from "node:worker_threads";
import { closeSync, openSync } from "node:fs";
import { planRanges, type RangePlan } from "../src/core/stream-analyze.ts";
import { mergeRanges } from "../src/core/range-merge.ts";
import { dropCodesFinding, type RangeResult } from "../src/core/range-walk.ts";
import { fileSource } from "./file-source.ts";

export { fileSource } from "./file-source.ts";
import type { Analysis } from "../src/core/model.ts";
import type { DiagnosticCode } from "../src/format/diagnostics.ts";

/** What a range worker is asked to do (workerData). */
export interface RangeJob extends RangePlan {
  readonly path: string;
  readonly keepFrames: boolean;
  readonly maxDiagnostics: number;
  /** Codes a container drops whatever the batch (a function cannot cross to a worker; segments drop offset-discontinuity). */
  readonly dropCodes?: readonly DiagnosticCode[];
}

/** Options of one pooled analysis. */
export interface PoolOptions {
  readonly threads: number;
  readonly startOffset: number;
  readonly keepFrames: boolean;
  readonly maxDiagnostics: number;
  readonly dropCodes?: readonly DiagnosticCode[];
}

const WORKER_URL = new URL("./range-worker-boot.mjs", import.meta.url);

type Reply = { ready: true } | { ok: true; result: RangeResult } | { ok: false; error: string };

/** Worker threads that stay up between jobs (start-up is paid once), each with its own kernel. */
export class RangePool {
  private readonly workers: Worker[];
  private readonly started: Promise<void>;

  /** Starts `threads` workers; ready() resolves when all have loaded their kernel. */
  constructor(readonly threads: number) {
    this.workers = Array.from({ length: Math.max(1, threads) }, () => new Worker(WORKER_URL));
    this.started = Promise.all(this.workers.map((w) => this.reply(w).then(() => undefined))).then(() => undefined);
  }

  /** Resolves once every worker can take a job. */
  ready(): Promise<void> {
    return this.started;
  }

  private reply(worker: Worker): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: Reply): void => {
        cleanup();
        resolve(m);
      };
      const onError = (err: Error): void => {
        cleanup();
        reject(err);
      };
      const onExit = (code: number): void => {
        cleanup();
        reject(new Error(`range worker exited with code ${code}`));
      };
      const cleanup = (): void => {
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
    });
  }

  private async run(worker: Worker, job: RangeJob): Promise<RangeResult> {
    const answer = this.reply(worker);
    worker.postMessage(job);
    const m = await answer;
    if ("ready" in m) throw new Error("range worker answered a job with ready");
    if (!m.ok) throw new Error(m.error);
    return m.result;
  }

  /** Analyses the file at `path` over the pool; the result equals analyze() of its bytes. */
  async analyzeFile(path: string, options: Omit<PoolOptions, "threads">): Promise<Analysis> {
    await this.started;
    const fd = openSync(path, "r");
    let size: number;
    let plans: RangePlan[];
    try {
      const source = fileSource(fd);
      size = source.size;
      plans = planRanges(source, this.workers.length, options.startOffset);
    } finally {
      closeSync(fd);
    }
    const results = await Promise.all(
      plans.map((p, i) =>
        this.run(this.workers[i] as Worker, {
          ...p,
          path,
          keepFrames: options.keepFrames,
          maxDiagnostics: options.maxDiagnostics,
          dropCodes: options.dropCodes,
        }),
      ),
    );
    return mergeRanges(size, results, options.maxDiagnostics, dropCodesFinding(options.dropCodes));
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** Analyses the file at `path` with up to `threads` workers started for it; the result equals analyze() of its bytes. */
export async function analyzeFileInPool(path: string, options: PoolOptions): Promise<Analysis> {
  const pool = new RangePool(options.threads);
  try {
    return await pool.analyzeFile(path, options);
  } finally {
    await pool.close();
  }
}
