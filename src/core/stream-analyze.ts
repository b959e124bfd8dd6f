/**
 * The streaming analysis: any ByteSource (memory, a file read in 4 MiB pieces, a Blob) walked
 * window by window in the wasm kernel's memory, giving exactly the Analysis analyze() gives for
 * the same bytes; without keepFrames, memory stays flat however large the input. Also the cheap
 * header walk that cuts an input into batch-aligned ranges for a pool of workers.
 */
import { BATCH_HEADER_SIZE } from "../format/fields.ts";
import { ByteReader } from "../format/reader.ts";
import { BATCH_LENGTH_END, batchLengthAt, batchStep } from "../format/walk-steps.ts";
import type { KernelWalker } from "../checksum/kernel/wasm-kernel.ts";
import { DEFAULT_MAX_DIAGNOSTICS, type AnalyzeOptions } from "./walk-options.ts";
import type { Analysis } from "./model.ts";
import { walkRange, type ByteSource } from "./range-walk.ts";
import { mergeRanges } from "./range-merge.ts";

export { memorySource, type ByteSource } from "./range-walk.ts";

/** analyze()'s options plus what only a streaming caller chooses. */
export interface StreamAnalyzeOptions extends AnalyzeOptions {
  /** Build the per-frame columns (default true); without them `frames` is empty and the summary still counts frames. */
  readonly keepFrames?: boolean;
  /** Bytes read per window (default 4 MiB); a window grows to hold a larger batch. */
  readonly windowBytes?: number;
}

/** The Analysis of a whole source through the kernel's walk; the same result as analyze() on its bytes. */
export function analyzeSource(kernel: KernelWalker, source: ByteSource, options: StreamAnalyzeOptions = {}): Analysis {
  const size = source.size;
  const start = Math.max(0, Math.min(size, Math.trunc(options.startOffset ?? 0)));
  const maxDiagnostics = options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS;
  const every = options.progressEveryBytes ?? 8 << 20;
  let next = every;
  const part = walkRange(kernel, source, {
    start,
    end: size,
    firstBatch: 0,
    keepFrames: options.keepFrames ?? true,
    maxDiagnostics,
    windowBytes: options.windowBytes,
    dropFinding: options.dropFinding,
    onProgress:
      options.onProgress &&
      ((done) => {
        if (done >= next) {
          options.onProgress?.(done, size);
          next = done + every;
        }
      }),
  });
  options.onProgress?.(size, size);
  return mergeRanges(size, [part], maxDiagnostics, options.dropFinding);
}

/** Bytes per window when the input is already in memory. */
export const MEMORY_WINDOW_BYTES = 1 << 20;

/** One batch-aligned share of an input for one worker. */
export interface RangePlan {
  readonly start: number;
  readonly end: number;
  /** Index of the range's first batch in the whole input. */
  readonly firstBatch: number;
}

/**
 * Cuts [startOffset, size) into at most `parts` ranges of about equal bytes at batch boundaries,
 * found by walking only the batch headers (batch_length); the last range holds whatever the walk
 * cannot step past. Reads 64 KiB blocks where batches are small and 64 bytes per batch where they are large.
 */
export function planRanges(source: ByteSource, parts: number, startOffset = 0): RangePlan[] {
  const size = source.size;
  const first = Math.max(0, Math.min(size, Math.trunc(startOffset)));
  const plans: RangePlan[] = [];
  const block = new Uint8Array(64 << 10);
  const r = new ByteReader(block);
  let blockStart = 0;
  let blockLength = 0;
  let lastBatchBytes = 0;
  const lengthAt = (pos: number): number => {
    if (pos < blockStart || pos + BATCH_LENGTH_END > blockStart + blockLength) {
      const want = lastBatchBytes > 16 << 10 ? 64 : block.length;
      blockStart = pos;
      blockLength = source.read(block.subarray(0, Math.min(want, size - pos)), pos);
    }
    return batchLengthAt(r, pos - blockStart);
  };
  let rangeStart = first;
  let rangeFirstBatch = 0;
  let index = 0;
  let pos = first;
  let target = first + (size - first) / parts;
  while (plans.length < parts - 1 && size - pos >= BATCH_HEADER_SIZE) {
    const length = lengthAt(pos);
    const next = batchStep(pos, length, size);
    if (next < 0) break;
    lastBatchBytes = length;
    pos = next;
    index++;
    if (pos >= target && pos < size) {
      plans.push({ start: rangeStart, end: pos, firstBatch: rangeFirstBatch });
      rangeStart = pos;
      rangeFirstBatch = index;
      target = first + ((size - first) * (plans.length + 1)) / parts;
    }
  }
  plans.push({ start: rangeStart, end: size, firstBatch: rangeFirstBatch });
  return plans;
}
