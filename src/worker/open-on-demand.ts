/**
 * Opening a large File without reading it whole: in a worker, FileReaderSync feeds the kernel's
 * streaming walk 4 MiB at a time (over all cores from 128 MiB on, range-workers.ts), so neither the
 * worker nor the page holds the file; the page then reads the bytes its views show from the File
 * (lib/input-bytes.ts). Plain batches and segments stream; any other format (or no FileReaderSync,
 * as on the main thread) is read whole instead.
 */
import { loadXxh3, type Xxh3 } from "../checksum/xxh3.ts";
import type { KernelWalker } from "../checksum/kernel/wasm-kernel.ts";
import {
  SEGMENT_DROPPED_CODES,
  analysisHeaderAt,
  decodeIndexEntries,
  segmentOf,
  segmentOpened,
  sourceHeaderAt,
  type FormatChoice,
  IndexEntries,
  type SegmentResult,
  type Detection,
  detectByName,
  detectFormat,
  forcedDetection,
  sourceInput,
  walkedTiling,
  openIndexEntriesPaged,
  LISTED_PER_FILE,
  type OpenedInput,
} from "../core/containers/index.ts";
import { DEFAULT_MAX_DIAGNOSTICS } from "../core/walk/analyze.ts";
import type { Analysis } from "../core/model/model.ts";
import { analyzeSource, type ByteSource } from "../core/walk/stream-analyze.ts";
import type { DiagnosticCode } from "../format/diagnostics.ts";
import type { InputMeta } from "./protocol.ts";
import { analyzeStreamed, pageWalkFor } from "./range-workers.ts";
import { STREAM_CHUNK_BYTES, STREAM_MIN_BYTES } from "../core/walk/pool-policy.ts";
import { dropCodesFinding } from "../core/walk/range-walk.ts";
import { emptyFrames } from "../core/walk/range-merge.ts";
import { streamedIndexEntries } from "./index-stream.ts";

/** Bytes per read from the File while walking it. */
export const RANGE_READ_BYTES = 4 << 20;

interface SyncReader {
  readAsArrayBuffer(blob: Blob): ArrayBuffer;
}

/** A FileReaderSync where there is one (dedicated workers); typed here because the page's DOM lib lacks it. */
export function syncReader(): SyncReader | null {
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

/** Index files from this size on are read a page at a time in the worker (and on the page), never whole: a 1 GiB `.index` of zeros is valid input. */
export const PAGED_INDEX_FROM = STREAM_MIN_BYTES;

/**
 * An index Blob's entries read 1 MiB at a time when it is large (ahead through its byte stream for a check,
 * index-stream.ts, else through FileReaderSync); null when it is small or there is no FileReaderSync (then read it whole).
 */
export function pagedIndexOf(input: Blob | ArrayBuffer): IndexEntries | null {
  if (!(input instanceof Blob) || input.size < PAGED_INDEX_FROM) return null;
  const reader = syncReader();
  if (!reader) return null;
  return streamedIndexEntries(input, blobSource(input, reader));
}

/** How the page asked to open it. */
export interface OnDemandRequest {
  readonly name: string;
  readonly format: FormatChoice;
  readonly companion?: { readonly name: string; readonly input: Blob | ArrayBuffer };
  /** Tests: exactly this many range workers walk it, none of it here; 0: none, all of it here. */
  readonly rangeWorkers?: number;
}

/** The opened Blob without its bytes, or null when it must be read whole (no FileReaderSync here, or a format that does not stream). */
export async function openOnDemand(
  blob: Blob,
  request: OnDemandRequest,
  onProgress: (done: number, total: number) => void,
): Promise<{ analysis: Analysis; meta: InputMeta } | null> {
  const reader = syncReader();
  return reader ? openSourceOnDemand(blobSource(blob, reader), request, onProgress, blob) : null;
}

/**
 * What openInput gives for the source's bytes, walked window by window (over range workers when the
 * File is given and large); null for a format that does not stream, batches that do not tile, or no kernel.
 */
export async function openSourceOnDemand(
  source: ByteSource,
  request: OnDemandRequest,
  onProgress: (done: number, total: number) => void = () => {},
  file?: Blob,
): Promise<{ analysis: Analysis; meta: InputMeta } | null> {
  const xxh = await loadXxh3();
  if (!xxh.walker) return null;
  // Taken by any open (it is given once): the walk a partition kept of its first segment is the one a segment open of the same File makes.
  const walked = takeWalkedForShowing(file, request.name);
  const keptIndex = takeIndexForShowing(file, request.name, request.companion);
  // The name decides `.log` and `.index`; other auto input is walked as batches first and detected after:
  // a file this large that is not batches is rare, and one header walk less is not.
  const early = request.format === "auto" ? detectByName(request.name) : forcedDetection(request.format);
  const format = early?.format ?? "auto";
  if (format === "index" && file) return openIndexOnDemand(xxh, file, request, early as Detection, keptIndex);
  if (format !== "segment" && format !== "batches" && format !== "auto") return null;
  const kept = format === "segment" ? walked : null;
  const analysis = kept ?? (await walkAll(xxh.walker, source, format === "segment" ? SEGMENT_DROPPED_CODES : [], onProgress, file, request.rangeWorkers));
  if (format === "segment") {
    const companion = request.companion;
    const paged = companion ? pagedIndexOf(companion.input) : null;
    const indexBytes = companion && !paged ? new Uint8Array(companion.input instanceof Blob ? await companion.input.arrayBuffer() : companion.input) : null;
    const entries = paged ?? (indexBytes ? decodeIndexEntries(indexBytes) : IndexEntries.EMPTY);
    const seg = segmentOf(analysis, analysisHeaderAt(analysis, sourceHeaderAt(source)), request.name, entries);
    const { analysis: merged, ...meta } = segmentOpened(seg, (early as Detection).detectedBy, companion?.name);
    return { analysis: merged, meta };
  }
  const d = early ?? detectFormat(sourceInput(source), request.name, walkedTiling(analysis));
  // Anything else than recognized batches is read whole and opened there (run-request.ts).
  if (d.format !== "batches" || !d.recognized) return null;
  return { analysis, meta: { format: "batches", detectedBy: d.detectedBy, container: null, recovery: null, entries: null, legacy: null } };
}

/** A large `.index` opened without reading it whole: its entries in pages, cross-checked against its `.log` when given (that is read whole); null when small. */
async function openIndexOnDemand(
  xxh: Xxh3,
  file: Blob,
  request: OnDemandRequest,
  detection: Detection,
  kept: OpenedInput | null,
): Promise<{ analysis: Analysis; meta: InputMeta } | null> {
  if (kept) {
    const { analysis, ...meta } = kept;
    return { analysis, meta };
  }
  const entries = pagedIndexOf(file);
  if (!entries) return null;
  const log = request.companion;
  const logBytes = log ? new Uint8Array(log.input instanceof Blob ? await log.input.arrayBuffer() : log.input) : null;
  // The page lists the first findings and its entries table checks the entries it shows (checkIndexEntries).
  const logged = log && logBytes ? { name: log.name, bytes: logBytes } : undefined;
  const { analysis, ...meta } = await openIndexEntriesPaged(xxh, entries, detection.detectedBy, logged, LISTED_PER_FILE);
  return { analysis, meta };
}

function walkAll(
  kernel: KernelWalker,
  source: ByteSource,
  dropCodes: readonly DiagnosticCode[],
  onProgress: (done: number, total: number) => void,
  file?: Blob,
  rangeWorkers?: number,
): Promise<Analysis> {
  const walk = { source, kernel, maxDiagnostics: DEFAULT_MAX_DIAGNOSTICS, dropCodes, onProgress };
  if (!file)
    return Promise.resolve(analyzeSource(kernel, source, { windowBytes: RANGE_READ_BYTES, onProgress, dropFinding: dropCodesFinding([...dropCodes]) }));
  // 0: the streams a File of this size gets, all walked in this thread (a one-core page, measured by bench:page --one-thread).
  if (rangeWorkers === 0) return analyzeStreamed({ ...walk, file, ...pageWalkFor(source.size, 1), chunkBytes: STREAM_CHUNK_BYTES });
  if (rangeWorkers !== undefined) return analyzeStreamed({ ...walk, file, streams: rangeWorkers, workers: rangeWorkers, walkHere: false, chunkBytes: 1 << 20 });
  return analyzeStreamed({ ...walk, file, ...pageWalkFor(source.size), chunkBytes: STREAM_CHUNK_BYTES });
}

// The walk of the partition segment the page shows first, kept for the open request that follows, so that
// segment is not walked twice; any other request lets it go (run-request.ts).
let walkedForShowing: { readonly key: string; readonly analysis: Analysis } | null = null;

const fileKey = (blob: Blob, name: string): string => `${name}\u0000${blob.size}\u0000${(blob as Partial<File>).lastModified ?? ""}`;

/** The kept walk of this File if it is the one kept, else null; either way it is let go (it is given once). */
function takeWalkedForShowing(blob: Blob | undefined, name: string): Analysis | null {
  const kept = walkedForShowing;
  walkedForShowing = null;
  return kept && blob && kept.key === fileKey(blob, name) ? kept.analysis : null;
}

/** Lets the kept walk of a partition's first segment, and its kept index, go (any request but the open that shows it). */
export function forgetWalkedForShowing(): void {
  walkedForShowing = null;
  indexForShowing = null;
}

// The partition's large `.index` the page shows first (its first problem), kept with the `.log` it was cross-checked
// against, so the open that follows does not check millions of entries again nor hold a second list of findings.
let indexForShowing: { readonly key: string; readonly logKey: string; readonly opened: OpenedInput } | null = null;

/** Keeps a partition's opened index, cross-checked against `log`, for the open request that follows (given once). */
export function keepIndexForShowing(index: Blob, name: string, log: { readonly name: string; readonly input: Blob }, opened: OpenedInput): void {
  indexForShowing = { key: fileKey(index, name), logKey: fileKey(log.input, log.name), opened };
}

/** The kept index if this is its open, else null; either way it is let go (it is given once). */
function takeIndexForShowing(
  blob: Blob | undefined,
  name: string,
  log: { readonly name: string; readonly input: Blob | ArrayBuffer } | undefined,
): OpenedInput | null {
  const kept = indexForShowing;
  indexForShowing = null;
  const same = kept && blob && kept.key === fileKey(blob, name) && log?.input instanceof Blob && kept.logKey === fileKey(log.input, log.name);
  return same ? kept.opened : null;
}

/**
 * A partition's `.log` decoded without reading it whole (openPartition's streamSegment): its frames
 * are not kept (the partition keeps summaries and findings), but for the segment the page shows first
 * (`forShowing`), whose walk is kept for the open request that follows. Null where there is no
 * FileReaderSync or kernel, so the partition reads it whole.
 */
export async function streamPartitionSegment(blob: Blob, name: string, entries: IndexEntries, forShowing = false): Promise<SegmentResult | null> {
  const reader = syncReader();
  const xxh = await loadXxh3();
  if (!reader || !xxh.walker) return null;
  const source = blobSource(blob, reader);
  const raw = await analyzeStreamed({
    source,
    kernel: xxh.walker,
    maxDiagnostics: DEFAULT_MAX_DIAGNOSTICS,
    dropCodes: SEGMENT_DROPPED_CODES,
    file: blob,
    ...pageWalkFor(blob.size),
    chunkBytes: STREAM_CHUNK_BYTES,
    keepFrames: forShowing,
  });
  if (forShowing) walkedForShowing = { key: fileKey(blob, name), analysis: raw };
  // The partition's reply carries no frame columns.
  const lean = forShowing ? { ...raw, frames: emptyFrames() } : raw;
  return segmentOf(lean, analysisHeaderAt(lean, sourceHeaderAt(source)), name, entries);
}
