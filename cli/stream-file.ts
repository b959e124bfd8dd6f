/**
 * A regular file streamed through the wasm kernel: 1 MiB reads (file-source.ts) into its memory (flat however large
 * the file), shared by this thread and worker threads when large; the file stays open while the caller reads the few
 * headers it needs besides (a segment's recovery), so nothing is read whole.
 */
import { closeSync, fstatSync, openSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { DEFAULT_MAX_DIAGNOSTICS } from "../src/core/walk/analyze.ts";
import { analyzeSource, type ByteSource, type RangePlan } from "../src/core/walk/stream-analyze.ts";
import { dropCodesFinding } from "../src/core/walk/range-walk.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { createWasmKernel, type WasmKernel } from "../src/checksum/kernel/wasm-kernel.ts";
import type { Analysis } from "../src/core/model/model.ts";
import type { DiagnosticCode } from "../src/format/diagnostics.ts";
import { RangePool } from "./range-pool.ts";
import { fileSource, READ_WINDOW_BYTES } from "./file-source.ts";
import { threadsFor as policyThreadsFor } from "../src/core/walk/pool-policy.ts";

/** Threads (the calling one included) for a file of `size` bytes: IGGY_BATCH_THREADS when set, else core/walk/pool-policy.ts by size and cores. */
export function threadsFor(size: number): number {
  const forced = Number(process.env.IGGY_BATCH_THREADS);
  if (Number.isInteger(forced) && forced >= 1) return forced;
  return policyThreadsFor(size, availableParallelism());
}

let poolAhead: RangePool | null = null;

/**
 * Starts the worker threads a file of `size` bytes will be walked with, so they boot while the
 * caller walks its headers; analyzeOpenFile takes them. Idle, they do not keep the process alive.
 */
export function startThreadsAhead(size: number): void {
  const workers = threadsFor(size) - 1;
  if (workers < 1 || poolAhead) return;
  poolAhead = new RangePool(workers);
  poolAhead.unref();
}

/** Stops the threads startThreadsAhead started, when the file turns out not to stream. */
export async function stopThreadsAhead(): Promise<void> {
  const pool = poolAhead;
  poolAhead = null;
  await pool?.close();
}

/** The pool started ahead when it has `workers` workers, else a new one. */
function takePool(workers: number): RangePool {
  const ahead = poolAhead;
  poolAhead = null;
  if (ahead?.threads === workers) {
    ahead.ref();
    return ahead;
  }
  void ahead?.close();
  return new RangePool(workers);
}

// One kernel instance for the files streamed one after another: an instance per file (its own wasm memory, 8 MiB and
// more, freed only by a collection) made `inspect DIR` of 5,000 small segments grow faster than their count.
let idleKernel: WasmKernel | null = null;

/** The idle kernel, or a new one while it is in use (files streamed at the same time). */
async function borrowKernel(): Promise<WasmKernel> {
  const kernel = idleKernel ?? (await createWasmKernel());
  idleKernel = null;
  return kernel;
}

/** How to stream one file. */
export interface FileStreamOptions {
  /** Where the first batch starts. Default 0. */
  readonly startOffset?: number;
  /** A container's rule as codes (they cross to worker threads): a segment drops offset-discontinuity. */
  readonly dropCodes?: readonly DiagnosticCode[];
  /** Batch-aligned ranges of [startOffset, size) from a header walk the caller already did, so threads need not walk the headers again. */
  readonly ranges?: readonly RangePlan[];
}

/** Why a file could not be opened (the error's message, as a whole read would word it). */
export interface Unreadable {
  readonly unreadable: string;
}

/**
 * The Analysis of `file` without frame columns, then `use(analysis, source)` while it is still open.
 * Null when it is not a regular file or the engine lacks the kernel (the caller reads it whole).
 */
export async function analyzeOpenFile<T>(
  file: string,
  options: FileStreamOptions,
  use: (analysis: Analysis, source: ByteSource) => T,
): Promise<T | Unreadable | null> {
  if (!(await loadXxh3()).walker) return null;
  let fd: number;
  try {
    // Opening a FIFO would block for a writer and lose what it sends: only regular files stream.
    if (!statSync(file).isFile()) return null;
    fd = openSync(file, "r");
  } catch (err) {
    return { unreadable: err instanceof Error ? err.message : String(err) };
  }
  try {
    if (!fstatSync(fd).isFile()) return null;
    const source = fileSource(fd);
    const threads = threadsFor(source.size);
    const base = { startOffset: options.startOffset ?? 0, keepFrames: false, maxDiagnostics: DEFAULT_MAX_DIAGNOSTICS };
    const kernel = await borrowKernel();
    try {
      if (threads === 1)
        return use(analyzeSource(kernel, source, { ...base, windowBytes: READ_WINDOW_BYTES, dropFinding: dropCodesFinding(options.dropCodes) }), source);
      // This thread walks ranges too: threads - 1 workers.
      const pool = takePool(threads - 1);
      let analysis: Analysis;
      try {
        analysis = await pool.analyzeFile(file, { ...base, dropCodes: options.dropCodes, ranges: options.ranges }, kernel);
      } finally {
        // Stopped (3-7 ms) before the caller writes its output, which otherwise could run beside a worker still holding
        // its memory: the peak RSS of a 1 GiB `--json --no-frames` then varied 70.9-74.4 MiB; awaited, 67.9-71.2 MiB.
        await pool.close().catch(() => undefined);
      }
      return use(analysis, source);
    } finally {
      idleKernel = kernel;
    }
  } finally {
    closeSync(fd);
  }
}

/** True for analyzeOpenFile's "could not open" answer. */
export const isUnreadable = (x: unknown): x is Unreadable => typeof x === "object" && x !== null && "unreadable" in x;
