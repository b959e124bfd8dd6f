/** A range worker: walks batch-aligned ranges whose bytes it is sent through its own kernel, one job per message. */
import { createWasmKernel } from "../checksum/kernel/wasm-kernel.ts";
import { frameColumnBuffers } from "../core/frame-columns.ts";
import { dropCodesFinding, walkRange } from "../core/range-walk.ts";
import { rangeSource } from "./stream-ranges.ts";
import { MEMORY_WINDOW_BYTES } from "../core/stream-analyze.ts";
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
      const dropFinding = dropCodesFinding(m.dropCodes);
      walk = (job) => {
        try {
          const source = rangeSource(job.plan.start, job.bytes, m.size, null);
          const result = walkRange(kernel, source, {
            ...job.plan,
            keepFrames: m.keepFrames,
            maxDiagnostics: m.maxDiagnostics,
            windowBytes: MEMORY_WINDOW_BYTES,
            dropFinding,
          });
          // The range's buffer goes back for the next chunk: no fresh 16 MiB (zeroed, page-faulted) per range.
          const spare = job.bytes.buffer as ArrayBuffer;
          scope.postMessage({ type: "done", id: job.id, result, spare }, [spare, ...(result.frames ? frameColumnBuffers(result.frames) : [])]);
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
