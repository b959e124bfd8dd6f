/** A worker_thread of range-pool.ts: streams one batch-aligned range of a file through its own wasm kernel. */
import { parentPort, workerData } from "node:worker_threads";
import { closeSync, openSync } from "node:fs";
import { createWasmKernel } from "../src/checksum/kernel/wasm-kernel.ts";
import { walkRange } from "../src/core/range-walk.ts";
import { frameColumnBuffers } from "../src/core/frame-columns.ts";
import { fileSource } from "./file-source.ts";
import type { RangeJob } from "./range-pool.ts";

const job = workerData as RangeJob;
try {
  const kernel = await createWasmKernel();
  const fd = openSync(job.path, "r");
  try {
    const result = walkRange(kernel, fileSource(fd), { ...job, firstBatch: job.firstBatch });
    const transfer = result.frames ? [...new Set(frameColumnBuffers(result.frames))] : [];
    parentPort!.postMessage({ ok: true, result }, transfer);
  } finally {
    closeSync(fd);
  }
} catch (err) {
  parentPort!.postMessage({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
