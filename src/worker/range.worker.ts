/** A range worker of the page: walks batch-aligned ranges whose bytes it is sent, through its own kernel (core/walk/range-protocol.ts). */
import { createWasmKernel } from "../checksum/kernel/wasm-kernel.ts";
import { releasableBuffer } from "../lib/release-buffer.ts";
import { failedReply, walkRangeJob, type RangeWorkerJob, type RangeWorkerMessage, type RangeWorkerReply } from "../core/walk/range-protocol.ts";
import { MEMORY_WINDOW_BYTES } from "../core/walk/stream-analyze.ts";
import { rangeSource } from "./stream-ranges.ts";

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<RangeWorkerMessage>) => void) | null;
  postMessage(message: RangeWorkerReply, transfer?: Transferable[]): void;
};

let walk: ((job: RangeWorkerJob) => void) | null = null;
const queued: RangeWorkerJob[] = [];

scope.onmessage = (event) => {
  const m = event.data;
  if (m.type === "discard") return;
  if (m.type === "job") {
    if (walk) walk(m);
    else queued.push(m);
    return;
  }
  void createWasmKernel(m.kernelModule).then(
    (kernel) => {
      walk = (job) => {
        try {
          const source = rangeSource(job.plan.start, job.bytes as Uint8Array, job.settings.size, null);
          // Buffers the analysis worker can free at once when joined; the bytes are in memory, so one window is enough.
          const { reply, transfer } = walkRangeJob(kernel, source, job, { pack: releasableBuffer, windowBytes: MEMORY_WINDOW_BYTES });
          scope.postMessage(reply, transfer);
        } catch (err) {
          scope.postMessage(failedReply(job.id, err));
        }
      };
      scope.postMessage({ type: "ready" });
      for (const job of queued.splice(0)) walk(job);
    },
    (err: unknown) => scope.postMessage(failedReply(null, err)),
  );
};
