/** A range worker: walks batch-aligned ranges whose bytes it is sent through its own kernel, one job per message. */
import { packedBatchBuffers } from "../core/model/batch-table.ts";
import { createWasmKernel } from "../checksum/kernel/wasm-kernel.ts";
import { frameColumnBuffers, packFrameColumns } from "../core/model/frame-columns-build.ts";
import { releasableBuffer, releaseBuffer } from "../lib/release-buffer.ts";
import { dropCodesFinding, walkRange, type RangeResult } from "../core/walk/range-walk.ts";
import { rangeSource } from "./stream-ranges.ts";
import { MEMORY_WINDOW_BYTES } from "../core/walk/stream-analyze.ts";
import type { RangeWorkerDiscard, RangeWorkerInit, RangeWorkerJob, RangeWorkerReply } from "./range-protocol.ts";

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<RangeWorkerInit | RangeWorkerJob | RangeWorkerDiscard>) => void) | null;
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
      const dropFinding = dropCodesFinding(m.dropCodes);
      walk = (job) => {
        try {
          const source = rangeSource(job.plan.start, job.bytes, m.size, null);
          const result: { -readonly [K in keyof RangeResult]: RangeResult[K] } = walkRange(kernel, source, {
            ...job.plan,
            keepFrames: m.keepFrames,
            maxDiagnostics: m.maxDiagnostics,
            windowBytes: MEMORY_WINDOW_BYTES,
            dropFinding,
          });
          const frames = result.frames;
          if (frames) {
            // One releasable buffer per part: the analysis worker frees it once joined (a plain buffer from here would wait for its collection).
            result.frames = packFrameColumns(frames, releasableBuffer);
            const kept = new Set(frameColumnBuffers(result.frames));
            for (const b of frameColumnBuffers(frames)) if (!kept.has(b)) releaseBuffer(b);
          }
          // The range's buffer goes back for the next chunk: no fresh 16 MiB (zeroed, page-faulted) per range.
          const spare = job.bytes.buffer as ArrayBuffer;
          // Batches packed: a range of small batches holds hundreds of thousands, slow to clone one by one.
          const table = result.batches.packedInto(releasableBuffer);
          if (table !== result.batches) for (const b of packedBatchBuffers(result.batches.packed)) releaseBuffer(b);
          const batches = table.packed;
          const transfer = [
            spare,
            ...(result.frames ? frameColumnBuffers(result.frames) : []),
            ...packedBatchBuffers(batches),
            result.diagnosticGroupEnds.buffer as ArrayBuffer,
          ];
          scope.postMessage({ type: "done", id: job.id, result: { ...result, batches }, spare }, transfer);
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
