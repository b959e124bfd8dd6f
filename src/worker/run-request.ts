/** The host-independent body of the worker: one request in, progress and one reply out. */
import { throttleProgress } from "./progress-throttle.ts";
import { markPhase } from "./phase-marks.ts";
import { analyze } from "../core/walk/analyze.ts";
import { loadXxh3 } from "../checksum/xxh3.ts";
import { LISTED_PER_FILE, listedPerFile, openInputWith, openPartition, type IndexEntries } from "../core/containers/index.ts";
import { frameColumnBuffers } from "../core/model/frame-columns-build.ts";
import { analysisToWire, packedBatchBuffers, type WireAnalysis } from "../core/model/batch-wire.ts";
import type { Analysis } from "../core/model/model.ts";
import { decodeShareResult } from "../lib/share-codec.ts";
import { patchedInput } from "./patched-input.ts";
import { readBlob } from "./read-blob.ts";
import { forgetWalkedForShowing, openOnDemand, pagedIndexOf, streamPartitionSegment } from "./open-on-demand.ts";
import { FirstProblemIndex } from "./first-problem-index.ts";
import { captureMessageBytes, openCaptureInput } from "./capture-host.ts";
import { metaToWire, type AnalyzeRequest, type FromWorker, type InputMeta, type PartitionRequest, type ToWorker } from "./protocol.ts";

const bytesOf = async (input: Blob | ArrayBuffer): Promise<ArrayBuffer> => (input instanceof ArrayBuffer ? input : await readBlob(input));

/** The analysis as it crosses to the page (batches packed, core/model/batch-wire.ts) and the buffers that move with it. */
function onTheWire(analysis: Analysis): { wire: WireAnalysis; transfer: ArrayBuffer[] } {
  const wire = analysisToWire(analysis);
  return { wire, transfer: [...frameColumnBuffers(analysis.frames), ...packedBatchBuffers(wire.batches)] };
}

/** Splits an opened input into the model and the rest (the rest crosses the bridge as `meta`). */
function split(opened: { analysis: Analysis } & InputMeta): { analysis: Analysis; meta: InputMeta } {
  const { analysis, ...meta } = opened;
  return { analysis, meta };
}

async function open(
  request: AnalyzeRequest,
  bytes: Uint8Array,
  onProgress: (done: number, total: number) => void,
): Promise<{ analysis: Analysis; meta: InputMeta | null }> {
  if (request.format === undefined) return { analysis: await analyze(bytes, { startOffset: request.startOffset, onProgress }), meta: null };
  // A segment's large `.index` is read in pages, never whole; an index's companion is its `.log`, read whole.
  const paged = request.companion && request.companion.name.endsWith(".index") ? pagedIndexOf(request.companion.input) : null;
  const companion = request.companion
    ? paged
      ? { name: request.companion.name, bytes: new Uint8Array(0), entries: paged }
      : { name: request.companion.name, bytes: new Uint8Array(await bytesOf(request.companion.input)) }
    : undefined;
  return split(openInputWith(await loadXxh3(), bytes, { name: request.name ?? "", format: request.format, companion, onProgress }));
}

async function runPartition(request: PartitionRequest, post: (message: FromWorker, transfer: Transferable[]) => void): Promise<void> {
  const { id, files } = request;
  let done = 0;
  const sources = files.map((f) => ({
    name: f.name,
    size: f.input.size,
    read: async () => new Uint8Array(await readBlob(f.input)),
    // A large `.index` (a 1 GiB file of zeros is one) is read in pages, never whole.
    ...(f.name.endsWith(".index") && pagedIndexOf(f.input) ? { pagedEntries: () => pagedIndexOf(f.input) as IndexEntries } : {}),
  }));
  const tick = () => post({ type: "progress", id, done: ++done, total: files.length }, []);
  let firstLog = true;
  const blobs = new Map(files.map((f) => [f.name, f.input]));
  const shown = new FirstProblemIndex(blobs);
  const result = await openPartition(sources, {
    xxh3: await loadXxh3(),
    maxFileBytes: request.maxFileBytes,
    // The page lists an index's first findings and checks the entries its table shows (checkIndexEntries).
    maxIndexFindings: LISTED_PER_FILE,
    onFile: (name, opened) => {
      shown.see(name, opened);
      tick();
    },
    onSkip: tick,
    // Each .log streams through the kernel, so the worker never holds a whole segment.
    // The first is the segment the page shows next: its walk is kept for that open.
    streamSegment: (source, entries) => {
      const forShowing = firstLog;
      firstLog = false;
      return streamPartitionSegment(blobs.get(source.name) as Blob, source.name, entries, forShowing);
    },
  });
  shown.keep();
  post({ type: "partition-result", id, result: listedPerFile(result) }, []);
}

/** How often a decode reports its progress: ten times a second reads as smooth, and costs the main thread little. */
const PROGRESS_EVERY_MS = 100;

/** Runs a request, posting progress and a result or an error reply; transferables go with the result. */
export async function runRequest(request: ToWorker, post: (message: FromWorker, transfer: Transferable[]) => void): Promise<void> {
  const { id } = request;
  if (!(request.type === "analyze" && request.onDemand)) forgetWalkedForShowing();
  if (request.type === "decode-share") {
    const result = decodeShareResult(request.fragment);
    post({ type: "shared", id, result }, result.ok ? [result.state.bytes.buffer as ArrayBuffer] : []);
    return;
  }
  if (request.type === "analyze-patched") {
    try {
      const base = request.base instanceof Blob ? await readBlob(request.base) : request.base;
      const bytes = patchedInput(request.key, request.patches, base);
      if (!bytes) {
        post({ type: "need-base", id }, []);
        return;
      }
      const analysis = await analyze(bytes, { startOffset: request.startOffset });
      const { wire, transfer } = onTheWire(analysis);
      post({ type: "patched-result", id, analysis: wire }, transfer);
    } catch (err) {
      post({ type: "error", id, message: err instanceof Error ? err.message : String(err) }, []);
    }
    return;
  }
  try {
    if (request.type === "partition") return await runPartition(request, post);
    if (request.type === "capture-message") {
      const shown = await captureMessageBytes(request);
      const buffer = shown.bytes ? shown.bytes.slice().buffer : null;
      const common = { type: "capture-bytes", id, buffer } as const;
      if (!shown.bytes) return post({ ...common, size: null, missingFrom: null, masked: null, why: shown.why }, []);
      return post({ ...common, size: shown.size, missingFrom: shown.missingFrom, masked: shown.masked, why: null }, buffer ? [buffer] : []);
    }
    // A capture is opened by the core's capture reader, by windows of the File, and kept here for its messages.
    if (request.format !== undefined) {
      const capture = await openCaptureInput(id, request.input, request.name ?? "", request.format, request.capturePort);
      if (capture) return post({ type: "capture-opened", id, capture }, []);
    }
    const onProgress = throttleProgress((done, total) => post({ type: "progress", id, done, total }, []), PROGRESS_EVERY_MS);
    markPhase("request");
    if (request.onDemand && request.input instanceof Blob && request.format !== undefined) {
      const opened = await openOnDemand(
        request.input,
        { name: request.name ?? "", format: request.format, companion: request.companion, rangeWorkers: request.rangeWorkers },
        onProgress,
      );
      if (opened) {
        markPhase("opened");
        const { wire, transfer } = onTheWire(opened.analysis);
        post({ type: "result", id, buffer: null, meta: metaToWire(opened.meta), analysis: wire }, transfer);
        markPhase("posted");
        return;
      }
    }
    const buffer = await bytesOf(request.input);
    const bytes = new Uint8Array(buffer);
    const { analysis, meta } = await open(request, bytes, onProgress);
    markPhase("opened");
    const { wire, transfer } = onTheWire(analysis);
    post({ type: "result", id, buffer, analysis: wire, meta: meta && metaToWire(meta) }, [buffer, ...transfer]);
    markPhase("posted");
  } catch (err) {
    // Every request gets a reply, so the page never waits on a request that failed.
    post({ type: "error", id, message: err instanceof Error ? err.message : String(err) }, []);
  }
}
