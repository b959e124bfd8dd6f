/**
 * The streaming analysis: any ByteSource (memory, a file read in 4 MiB pieces, a Blob) walked
 * window by window in the wasm kernel's memory, giving exactly the Analysis analyze() gives for
 * the same bytes; without keepFrames, memory stays flat however large the input. The ranges a pool
 * of workers walks are cut by range-cuts.ts.
 */
import type { KernelWalker } from "../../checksum/kernel/wasm-kernel.ts";
import { DEFAULT_MAX_DIAGNOSTICS, type AnalyzeOptions } from "./walk-options.ts";
import type { Analysis } from "../model/model.ts";
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
