/** A worker_thread of range-pool.ts: walks batch-aligned ranges of files, read by path, through its own wasm kernel (core/walk/range-protocol.ts). */
import { parentPort } from "node:worker_threads";
import { closeSync, openSync } from "node:fs";
import { createWasmKernel } from "../src/checksum/kernel/wasm-kernel.ts";
import { failedReply, walkRangeJob, type RangeWorkerInit, type RangeWorkerJob, type RangeWorkerReply } from "../src/core/walk/range-protocol.ts";
import { fileSource, READ_WINDOW_BYTES } from "./file-source.ts";

const port = parentPort!;
const post = (reply: RangeWorkerReply, transfer: ArrayBuffer[] = []): void => port.postMessage(reply, transfer);
// The pool's compiled module comes first: instantiating it skips decoding and compiling the kernel in every thread.
const first = await new Promise<RangeWorkerInit>((resolve) => port.once("message", resolve));
const kernel = await createWasmKernel(first.kernelModule).catch((err: unknown) => {
  post(failedReply(null, err));
  throw err;
});
port.on("message", (job: RangeWorkerJob) => {
  try {
    const fd = openSync(job.path as string, "r");
    try {
      const { reply, transfer } = walkRangeJob(kernel, fileSource(fd), job, { windowBytes: READ_WINDOW_BYTES });
      post(reply, transfer);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    // A file truncated meanwhile is the input's I/O problem (exit 2 with its message), not a crash: failedReply says which.
    post(failedReply(job.id, err));
  }
});
post({ type: "ready" });
