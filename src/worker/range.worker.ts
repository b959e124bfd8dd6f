/** A range worker: walks batch-aligned ranges of one File through its own kernel, reading it with FileReaderSync. */
import { createWasmKernel } from "../checksum/kernel/wasm-kernel.ts";
import { frameColumnBuffers } from "../core/frame-columns.ts";
import { dropCodesFinding, walkRange } from "../core/range-walk.ts";
import { blobSource, syncReader, RANGE_READ_BYTES } from "./open-on-demand.ts";
import type { RangeWorkerInit, RangeWorkerJob, RangeWorkerReply } from "./range-protocol.ts";

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<RangeWorkerInit | RangeWorkerJob>) => void) | null;
  postMessage(message: RangeWorkerReply, transfer?: Transferable[]): void;
};

let walk: ((job: RangeWorkerJob) => void) | null = null;
const queued: RangeWorkerJob[] = [];

scope.onmessage = (event) => {
  const m = event.data;
  if (m.type === "job") {
    if (walk) walk(m);
    else queued.push(m);
    return;
  }
  void createWasmKernel(m.kernelModule).then(
    (kernel) => {
      const reader = syncReader();
      if (!reader) throw new Error("no FileReaderSync in this worker");
      const source = blobSource(m.file, reader);
      const dropFinding = dropCodesFinding(m.dropCodes);
      walk = (job) => {
        try {
          const result = walkRange(kernel, source, {
            ...job.plan,
            keepFrames: m.keepFrames,
            maxDiagnostics: m.maxDiagnostics,
            windowBytes: RANGE_READ_BYTES,
            dropFinding,
          });
          scope.postMessage({ type: "done", id: job.id, result }, result.frames ? frameColumnBuffers(result.frames) : []);
        } catch (err) {
          scope.postMessage({ type: "failed", id: job.id, message: err instanceof Error ? err.message : String(err) });
        }
      };
      scope.postMessage({ type: "ready" });
      for (const job of queued.splice(0)) walk(job);
    },
    (err: unknown) => scope.postMessage({ type: "failed", id: null, message: err instanceof Error ? err.message : String(err) }),
  );
};
