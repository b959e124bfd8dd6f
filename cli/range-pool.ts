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
import type { RangeResult } from "../src/core/range-walk.ts";
import { fileSource } from "./file-source.ts";

export { fileSource } from "./file-source.ts";
import type { Analysis } from "../src/core/model.ts";

/** What a range worker is asked to do (workerData). */
export interface RangeJob extends RangePlan {
  readonly path: string;
  readonly keepFrames: boolean;
  readonly maxDiagnostics: number;
}

/** Options of one pooled analysis. */
export interface PoolOptions {
  readonly threads: number;
  readonly startOffset: number;
  readonly keepFrames: boolean;
  readonly maxDiagnostics: number;
}

const WORKER_URL = new URL("./range-worker-boot.mjs", import.meta.url);

function runWorker(job: RangeJob): Promise<RangeResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, { workerData: job });
    let result: RangeResult | null = null;
    worker.once("message", (m: { ok: true; result: RangeResult } | { ok: false; error: string }) => {
      if (m.ok) result = m.result;
      else reject(new Error(m.error));
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (result) resolve(result);
      else reject(new Error(`range worker for bytes ${job.start}..${job.end} exited with code ${code}`));
    });
  });
}

/** Analyses the file at `path` with up to `threads` workers; the result equals analyze() of its bytes. */
export async function analyzeFileInPool(path: string, options: PoolOptions): Promise<Analysis> {
  const fd = openSync(path, "r");
  let size: number;
  let plans: RangePlan[];
  try {
    const source = fileSource(fd);
    size = source.size;
    plans = planRanges(source, Math.max(1, options.threads), options.startOffset);
  } finally {
    closeSync(fd);
  }
  const results = await Promise.all(plans.map((p) => runWorker({ ...p, path, keepFrames: options.keepFrames, maxDiagnostics: options.maxDiagnostics })));
  return mergeRanges(size, results, options.maxDiagnostics);
}
