/**
 * Reads and analyses the input of `iggy-batch inspect`. A regular file, when no frame list is
 * wanted, is streamed in 4 MiB reads straight into the wasm kernel's memory (memory stays flat
 * however large the file) and, when large, split over all cores; anything else is read whole.
 */
import { closeSync, fstatSync, openSync, statSync } from "node:fs";
import { basename } from "node:path";
import type { FormatChoice, OpenedInput } from "../src/core/containers/index.ts";
import { openedJsonChunks } from "../src/core/containers/json.ts";
import { BATCH_HEADER_FIELDS, BATCH_HEADER_SIZE, fieldByName } from "../src/format/fields.ts";
import { ByteReader } from "../src/format/reader.ts";
import { renderOpenedText } from "./text-output.ts";
import type { Analysis } from "../src/core/model.ts";
import { fileSource } from "./file-source.ts";
import { analyzeOpenFile, isUnreadable } from "./stream-file.ts";
import { openContainerStreamed } from "./stream-containers.ts";
import { plural } from "../src/format/values.ts";

export { threadsFor } from "./stream-file.ts";

/** Plain batch files from this size on stream under auto-detect; smaller ones are read whole so every container is considered. */
const STREAM_MIN_BYTES = 64 << 20;

const BATCH_LENGTH_OFFSET = fieldByName(BATCH_HEADER_FIELDS, "batch_length").offset;

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
    if (json) await write(openedJsonChunks(container.opened, container.bytes, name, withFrames));
    else await write([renderOpenedText(container.opened, name)]);
    return container.opened.analysis.summary.errors > 0 ? 1 : 0;
  }
  if ((json && withFrames) || (format !== "auto" && format !== "batches")) return null;
  const lower = name.toLowerCase();
  if (format === "auto" && (lower.endsWith(".log") || lower.endsWith(".index"))) return null;
  let detectedBy = `forced: ${format} was chosen, not detected`;
  if (format === "auto") {
    const walk = walkFileHeaders(file);
    if (walk === null || walk.size < STREAM_MIN_BYTES || !walk.tiles) return null;
    detectedBy = `auto: ${plural(walk.batches, "batch header")} ${walk.batches === 1 ? "ends exactly at" : "step by batch_length to exactly"} the end of the input`;
  }
  const analysis = await analyzeFileStreaming(file, 0);
  if (analysis === null) return null;
  const opened: OpenedInput = { format: "batches", detectedBy, analysis, container: null, recovery: null, entries: null, legacy: null };
  if (json) await write(openedJsonChunks(opened, new Uint8Array(0), name, withFrames));
  else await write([renderOpenedText(opened, name)]);
  return analysis.summary.errors > 0 ? 1 : 0;
}

// Batch headers only (256 bytes per batch): whether they step by batch_length to exactly the file's end.
function walkFileHeaders(file: string): { size: number; batches: number; tiles: boolean } | null {
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
    const header = new Uint8Array(BATCH_HEADER_SIZE);
    const r = new ByteReader(header);
    let pos = 0;
    let batches = 0;
    while (source.size - pos >= BATCH_HEADER_SIZE) {
      if (source.read(header, pos) < BATCH_HEADER_SIZE) break;
      const length = Number(r.u64(BATCH_LENGTH_OFFSET));
      if (length < BATCH_HEADER_SIZE) break;
      pos += length;
      batches++;
    }
    return { size: source.size, batches, tiles: batches > 0 && pos === source.size };
  } finally {
    closeSync(fd);
  }
}

// Null when the input is not a readable regular file or the engine lacks the kernel: readInput then reads it (and words any error).
async function analyzeFileStreaming(file: string, startOffset: number): Promise<Analysis | null> {
  const got = await analyzeOpenFile(file, { startOffset }, (analysis) => analysis);
  return got === null || isUnreadable(got) ? null : got;
}
