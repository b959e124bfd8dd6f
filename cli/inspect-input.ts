/**
 * Reads and analyses the input of `iggy-batch inspect`. A regular file, when no frame list is
 * wanted, is streamed in 4 MiB reads straight into the wasm kernel's memory (memory stays flat
 * however large the file) and, when large, split over all cores; anything else is read whole.
 */
import { closeSync, fstatSync, openSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename } from "node:path";
import { analyze, DEFAULT_MAX_DIAGNOSTICS } from "../src/core/analyze.ts";
import { analyzeSource } from "../src/core/stream-analyze.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { createWasmKernel } from "../src/checksum/kernel/wasm-kernel.ts";
import type { Analysis } from "../src/core/model.ts";
import { analyzeFileInPool } from "./range-pool.ts";
import { fileSource } from "./file-source.ts";

/** What inspect prints from: the analysis, the bytes (empty when streamed), the name to show. */
export interface InspectInput {
  readonly analysis: Analysis;
  readonly bytes: Uint8Array;
  readonly name: string;
}

/**
 * Files from this size on are split over worker threads. Under tsx a worker takes 0.3-1 s to start
 * while one thread walks a GiB in about 0.5 s, so smaller files and machines with fewer than
 * MIN_CORES cores stay on one thread (bench: `npm run bench`, the IGGY_BATCH_THREADS=2 row).
 */
const POOL_MIN_BYTES = 512 << 20;
const MIN_CORES = 3;
const MAX_THREADS = 4;

/** Worker threads for a file of `size` bytes: IGGY_BATCH_THREADS when set, else by size and cores. */
export function threadsFor(size: number): number {
  const forced = Number(process.env.IGGY_BATCH_THREADS);
  if (Number.isInteger(forced) && forced >= 1) return forced;
  const cores = availableParallelism();
  return size >= POOL_MIN_BYTES && cores >= MIN_CORES ? Math.min(MAX_THREADS, cores) : 1;
}

/**
 * The analysis of `file` with the envelope's bytes skipped; `needBytes` when the caller prints
 * frames (their ids are read from the bytes). `readInput` reads a whole input and reports errors.
 */
export async function inspectInput(file: string, startOffset: number, needBytes: boolean,
  readInput: (file: string) => Promise<{ bytes: Uint8Array; name: string }>): Promise<InspectInput> {
  const streamed = needBytes || file === "-" ? null : await analyzeFileStreaming(file, startOffset);
  if (streamed) return { analysis: streamed, bytes: new Uint8Array(0), name: basename(file) };
  const { bytes, name } = await readInput(file);
  return { analysis: await analyze(bytes, { startOffset }), bytes, name };
}

// Null when the input is not a readable regular file or the engine lacks the kernel: readInput then reads it (and words any error).
async function analyzeFileStreaming(file: string, startOffset: number): Promise<Analysis | null> {
  if (!(await loadXxh3()).walker) return null;
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return null;
  }
  try {
    const source = fileSource(fd);
    if (!fstatSync(fd).isFile()) return null;
    const threads = threadsFor(source.size);
    const options = { startOffset, keepFrames: false, maxDiagnostics: DEFAULT_MAX_DIAGNOSTICS };
    if (threads > 1) return await analyzeFileInPool(file, { ...options, threads });
    return analyzeSource(await createWasmKernel(), source, options);
  } finally {
    closeSync(fd);
  }
}
