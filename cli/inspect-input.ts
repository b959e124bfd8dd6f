/**
 * Reads and analyses the input of `iggy-batch inspect`. A regular file, when no frame list is
 * wanted, is streamed in 1 MiB reads (file-source.ts) straight into the wasm kernel's memory (memory stays flat
 * however large the file) and, when large, split over all cores; anything else is read whole.
 */
import { closeSync, fstatSync, openSync, statSync } from "node:fs";
import { basename } from "node:path";
// Straight from the modules, not the containers index: that loads every decoder, which a streamed file does not need.
import { detectByName, detectFormat, forcedDetection, sourceInput, type Detection } from "../src/core/containers/detect.ts";
import type { FormatChoice, OpenedInput } from "../src/core/containers/types.ts";
import { openedJsonChunks } from "../src/core/containers/json.ts";
import { openedTextChunks } from "./text-output.ts";
import type { Analysis } from "../src/core/model/model.ts";
import { fileSource } from "./file-source.ts";
import { analyzeOpenFile, isUnreadable, startThreadsAhead, stopThreadsAhead } from "./stream-file.ts";
import { openContainerStreamed } from "./stream-containers.ts";
import { RangeCutter } from "../src/core/walk/range-cuts.ts";
import { STREAM_MIN_BYTES } from "../src/core/walk/pool-policy.ts";
import type { RangePlan } from "../src/core/walk/stream-analyze.ts";
import { phaseDone } from "./timings.ts";

export { threadsFor } from "./stream-file.ts";

type Write = (chunks: Iterable<string>) => Promise<void>;

const isRegularFile = (file: string): boolean => {
  try {
    return statSync(file).isFile();
  } catch {
    return false; // the whole-file path words the error
  }
};

/**
 * `inspect` without reading a large file whole: a segment or an index file (its `.log` streamed,
 * stream-containers.ts), a large plain batch file or any regular file forced to `--format batches`
 * (the header walk decides that it holds batches only, then the kernel streams it). Returns the exit
 * status, or null when the input needs the whole-file path (stdin, a frame list of batches, another
 * format, or batches that do not tile the file).
 */
export async function inspectStreamed(write: Write, file: string, format: FormatChoice, json: boolean, withFrames: boolean): Promise<number | null> {
  if (file === "-") return null;
  // Opening a FIFO or a device to peek would block or eat its bytes: only regular files stream.
  if (!isRegularFile(file)) return null;
  const name = basename(file);
  const container = await openContainerStreamed(file, format, json && withFrames);
  if (container) {
    phaseDone(`${container.opened.format} walk+recovery`);
    if (json) await write(openedJsonChunks(container.opened, container.bytes, name, withFrames));
    else await write(openedTextChunks(container.opened, name));
    phaseDone("output");
    return container.opened.analysis.summary.errors > 0 ? 1 : 0;
  }
  if ((json && withFrames) || (format !== "auto" && format !== "batches")) return null;
  let d = format === "auto" ? detectByName(name) : forcedDetection(format);
  if (d && d.format !== "batches") return null;
  let ranges: RangePlan[] | undefined;
  if (!d) {
    // Smaller files take the whole-file path, which weighs every container with the bytes in memory.
    const size = statSync(file).size;
    if (size < STREAM_MIN_BYTES) return null;
    // Workers boot while the headers are walked; unused, they are stopped.
    startThreadsAhead(size);
    const walk = walkFileHeaders(file, name);
    if (!walk || walk.detection.format !== "batches" || !walk.detection.recognized) {
      await stopThreadsAhead();
      return null;
    }
    d = walk.detection;
    ranges = walk.ranges;
    phaseDone("header walk");
  }
  const detectedBy = d.detectedBy;
  const analysis = await analyzeFileStreaming(file, 0, ranges);
  if (analysis === null) return null;
  phaseDone("walk+merge");
  const opened: OpenedInput = { format: "batches", detectedBy, analysis, container: null, recovery: null, entries: null, legacy: null };
  if (json) await write(openedJsonChunks(opened, new Uint8Array(0), name, withFrames));
  else await write(openedTextChunks(opened, name));
  phaseDone("output");
  return analysis.summary.errors > 0 ? 1 : 0;
}

/** Ranges the auto-detect header walk records for the threads that walk the file after it (joined to their size there). */
const DETECT_RANGE_BYTES = 4 << 20;

// Batch headers only (one small read per large batch), cut into ranges as they go; detection is told whether they tile.
function walkFileHeaders(file: string, name: string): { detection: Detection; ranges: RangePlan[] } | null {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    const source = fileSource(fd);
    const cutter = new RangeCutter(source, 0, DETECT_RANGE_BYTES);
    const ranges: RangePlan[] = [];
    for (let r = cutter.next(); r; r = cutter.next()) ranges.push(r);
    const tiling = cutter.tiles ? { batches: cutter.batches, tiles: true, stop: null, stopAt: source.size } : undefined;
    return { detection: detectFormat(sourceInput(source), name, tiling), ranges };
  } finally {
    closeSync(fd);
  }
}

// Null when the input is not a readable regular file or the engine lacks the kernel: readInput then reads it (and words any error).
async function analyzeFileStreaming(file: string, startOffset: number, ranges?: readonly RangePlan[]): Promise<Analysis | null> {
  const got = await analyzeOpenFile(file, { startOffset, ranges }, (analysis) => analysis);
  return got === null || isUnreadable(got) ? null : got;
}
