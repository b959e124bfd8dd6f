/**
 * Opening a large File without reading it whole: in a worker, FileReaderSync feeds the kernel's
 * streaming walk 4 MiB at a time, so neither the worker nor the page holds the file; the page then
 * reads the bytes its views show from the File (lib/input-bytes.ts). Plain batches and segments
 * stream; any other format (or no FileReaderSync, as on the main thread) is read whole instead.
 */
import { loadXxh3 } from "../checksum/xxh3.ts";
import { segmentDropFinding, segmentOf, segmentOpened, sourceHeaderAt, decodeIndexEntries } from "../core/containers/index.ts";
import type { FormatChoice, IndexEntry, SegmentResult } from "../core/containers/index.ts";
import type { Analysis } from "../core/model.ts";
import { analyzeSource, type ByteSource } from "../core/stream-analyze.ts";
import { plural } from "../format/values.ts";
import type { InputMeta } from "./protocol.ts";

/** Bytes per read from the File while walking it. */
const READ_BYTES = 4 << 20;

interface SyncReader {
  readAsArrayBuffer(blob: Blob): ArrayBuffer;
}

// FileReaderSync exists in dedicated workers only; typed here because the page's DOM lib lacks it.
function syncReader(): SyncReader | null {
  const ctor = (globalThis as { FileReaderSync?: new () => SyncReader }).FileReaderSync;
  return ctor ? new ctor() : null;
}

/** A ByteSource over a Blob read synchronously in a worker. */
export function blobSource(blob: Blob, reader: SyncReader): ByteSource {
  return {
    size: blob.size,
    read(into, position) {
      const part = new Uint8Array(reader.readAsArrayBuffer(blob.slice(position, Math.min(blob.size, position + into.length))));
      into.set(part);
      return part.length;
    },
  };
}

/** Whether batch headers step by batch_length from 0 to exactly the end (auto-detect's first rule), and how many. */
function tilingBatches(source: ByteSource): number | null {
  const headerAt = sourceHeaderAt(source);
  let pos = 0;
  let count = 0;
  while (pos < source.size) {
    const h = headerAt(pos, source.size);
    if (typeof h === "string") return null;
    pos = h.end;
    count++;
  }
  return count > 0 ? count : null;
}

/** How the page asked to open it. */
export interface OnDemandRequest {
  readonly name: string;
  readonly format: FormatChoice;
  readonly companion?: { readonly name: string; readonly input: Blob | ArrayBuffer };
}

/** The opened Blob without its bytes, or null when it must be read whole (no FileReaderSync here, or a format that does not stream). */
export async function openOnDemand(
  blob: Blob,
  request: OnDemandRequest,
  onProgress: (done: number, total: number) => void,
): Promise<{ analysis: Analysis; meta: InputMeta } | null> {
  const reader = syncReader();
  return reader ? openSourceOnDemand(blobSource(blob, reader), request, onProgress) : null;
}

/** What openInput gives for the source's bytes, walked window by window; null for a format that does not stream or no kernel. */
export async function openSourceOnDemand(
  source: ByteSource,
  request: OnDemandRequest,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<{ analysis: Analysis; meta: InputMeta } | null> {
  const xxh = await loadXxh3();
  if (!xxh.walker) return null;
  const lower = request.name.toLowerCase();
  const format = request.format === "auto" ? (lower.endsWith(".index") ? "index" : lower.endsWith(".log") ? "segment" : "auto") : request.format;
  const walk = (dropSegmentCodes: boolean) =>
    analyzeSource(xxh.walker!, source, { windowBytes: READ_BYTES, onProgress, dropFinding: dropSegmentCodes ? segmentDropFinding : undefined });
  if (format === "segment") {
    const companion = request.companion;
    const indexBytes = companion ? new Uint8Array(companion.input instanceof Blob ? await companion.input.arrayBuffer() : companion.input) : null;
    const seg = segmentOf(walk(true), sourceHeaderAt(source), request.name, indexBytes ? decodeIndexEntries(indexBytes) : []);
    const detectedBy = request.format === "auto" ? "auto: the file name ends in .log" : "forced: segment was chosen, not detected";
    const { analysis, ...meta } = segmentOpened(seg, detectedBy, indexBytes ? companion?.name : undefined);
    return { analysis, meta };
  }
  let detectedBy = "forced: batches was chosen, not detected";
  if (format === "auto") {
    const batches = tilingBatches(source);
    if (batches === null) return null;
    detectedBy = `auto: ${plural(batches, "batch header", "batch headers")} ${batches === 1 ? "ends exactly at" : "step by batch_length to exactly"} the end of the input`;
  } else if (format !== "batches") {
    return null;
  }
  return { analysis: walk(false), meta: { format: "batches", detectedBy, container: null, recovery: null, entries: null, legacy: null } };
}

/**
 * A partition's `.log` decoded without reading it whole (openPartition's streamSegment): its frames
 * are not kept (the partition keeps summaries and findings; a segment shown later is opened again).
 * Null where there is no FileReaderSync or kernel, so the partition reads it whole.
 */
export async function streamPartitionSegment(blob: Blob, name: string, entries: readonly IndexEntry[]): Promise<SegmentResult | null> {
  const reader = syncReader();
  const xxh = await loadXxh3();
  if (!reader || !xxh.walker) return null;
  const source = blobSource(blob, reader);
  const raw = analyzeSource(xxh.walker, source, { windowBytes: READ_BYTES, keepFrames: false, dropFinding: segmentDropFinding });
  return segmentOf(raw, sourceHeaderAt(source), name, entries);
}
