/** A worker_thread of range-pool.ts: streams batch-aligned ranges of files through its own wasm kernel, one job per message. */
import { parentPort } from "node:worker_threads";
import { closeSync, openSync } from "node:fs";
import { createWasmKernel } from "../src/checksum/kernel/wasm-kernel.ts";
import { InputShrank, dropCodesFinding, walkRange } from "../src/core/walk/range-walk.ts";
import { frameColumnBuffers } from "../src/core/model/frame-columns-build.ts";
import { packedBatchBuffers } from "../src/core/model/batch-table.ts";
import { fileSource } from "./file-source.ts";
import type { RangeJob, RangeWorkerData } from "./range-pool.ts";

const port = parentPort!;
// The pool's compiled module comes first: instantiating it skips decoding and compiling the kernel in every thread.
const first = await new Promise<RangeWorkerData>((resolve) => port.once("message", resolve));
const kernel = await createWasmKernel(first.kernelModule);
port.on("message", (job: RangeJob) => {
  try {
    const fd = openSync(job.path, "r");
    try {
      const result = walkRange(kernel, fileSource(fd), { ...job, dropFinding: dropCodesFinding(job.dropCodes) });
      // Batches packed: a range of small batches holds hundreds of thousands, slow to clone one by one.
      const batches = result.batches.packed;
      const transfer = [
        ...(result.frames ? new Set(frameColumnBuffers(result.frames)) : []),
        ...packedBatchBuffers(batches),
        result.diagnosticGroupEnds.buffer as ArrayBuffer,
      ];
      port.postMessage({ ok: true, result: { ...result, batches } }, transfer);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    // A file truncated meanwhile is the input's I/O problem (exit 2 with its message), not a crash: say which.
    if (err instanceof InputShrank) port.postMessage({ ok: false, error: err.message, shrank: true });
    else port.postMessage({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
port.postMessage({ ready: true });
