/**
 * Containers: the files batches live in (containers.md). The entry point of the layer, for the CLI and the page.
 *
 * API tour (all pure, no DOM, no Node; bytes in, models out; nothing throws on bad input):
 *
 * - `detectFormat(bytes | DetectInput, name?, tiling?) → Detection` picks a FormatName and the one-sentence
 *   `detectedBy` (`.log` → segment, `.index` → index by name; else content; batches that tile stay batches;
 *   `recognized: false` for input that fits no Iggy format), over memory or a file read in pieces
 *   (`sourceInput`); a host that walked the batches already passes their `tiling`.
 * - `openInput(bytes, { name?, format?: FormatChoice, companion?, xxh3?, onProgress? }) → Promise<OpenedInput>`
 *   decodes one file as the detected or forced format: `analysis` (the batch model of core/model/model.ts
 *   with the container's diagnostics merged into its list and summary), `container` (the header's
 *   fields with absolute ranges, kinds from format/containers for colours and tooltips), `recovery`
 *   (segments), `entries` (index files), `legacy` (legacy dumps). `openInputWith(xxh, …)` is the
 *   synchronous body for a loaded kernel (the worker).
 * - `openPartition(sources, { xxh3?, maxFileBytes?, onFile? }) → Promise<PartitionResult>` (partition.ts)
 *   reads a partition directory's `*.log`/`*.index` one segment at a time (each PartitionSource has a
 *   lazy `read()`), hands each decoded file to `onFile` and keeps only per-file summaries, the flat
 *   diagnostics (each with `file`), the summed summary and the partition verdict.
 * - `containerFieldAt(opened, bytes, offset)` finds the container field holding a byte (hex map colours,
 *   tooltips): header fields from `container.fields`, index entries and legacy messages placed on demand.
 *   Its `kind` is a ByteKind of format/fields.ts, so KIND_STYLE and describeKind() cover it.
 * - The hex map's colours for container fields sit a layer up, in core/view/byte-kinds.ts.
 * - `legacyToSegment(xxh, bytes, opened.legacy)` converts a legacy dump to a valid stamped segment.
 * - `openedJsonChunks` / `partitionJsonChunks` (json.ts) write the CLI's JSON (contracts.md §1.1).
 * - `CONTAINER_SAMPLES` (core/samples/container-samples.ts, a layer up) builds a sample per container, good and broken, for the samples menu.
 */
import { loadXxh3, type Xxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { decodeConsensus } from "./consensus.ts";
import { detectFormat, forcedDetection } from "./detect.ts";
import { batchStartsOf, decodeIndexEntries, type IndexLogView } from "./index-file.ts";
import { IndexEntries } from "./index-entries.ts";
import { indexOpened, indexOpenedPaged, segmentOpened } from "./opened.ts";
import { decodeLegacy } from "./legacy.ts";
import { Findings, emptyAnalysis, mergeFindings } from "./merge.ts";
import { decodePollReply } from "./poll-reply.ts";
import { openSegment } from "./segment.ts";
import { decodeSendMessages } from "./send-messages.ts";
import { memorySource, openCapture } from "./capture/index.ts";
import type { ContainerField, FormatChoice, FormatName, OpenedInput } from "./types.ts";

export * from "./types.ts";
export {
  detectFormat,
  detectByName,
  forcedDetection,
  batchTiling,
  walkedTiling,
  memoryInput,
  sourceInput,
  type Detection,
  type DetectInput,
  type BatchTiling,
} from "./detect.ts";
export { segmentOf, segmentDropFinding, SEGMENT_DROPPED_CODES, type SegmentResult } from "./segment.ts";
export { indexOpened, segmentOpened, type IndexLog } from "./opened.ts";
export {
  batchStartsOf,
  batchStartsOfColumns,
  checkIndex,
  checkIndexEntries,
  decodeIndexEntries,
  type BatchStartColumns,
  type IndexLogView,
} from "./index-file.ts";
export { IndexEntries, type IndexPageReader } from "./index-entries.ts";
export { sourceHeaderAt, memoryHeaderAt, analysisHeaderAt, type HeaderAt } from "./walk.ts";
export { legacyToSegment } from "./legacy.ts";
export {
  openPartition,
  listedPerFile,
  LISTED_PER_FILE,
  type PartitionSource,
  type PartitionResult,
  type PartitionFileSummary,
  type PartitionSegment,
  type PartitionOptions,
} from "./partition.ts";

/** How to open one input. */
export interface OpenOptions {
  /** The file name (decides `.log` / `.index`, and a segment's start offset). */
  readonly name?: string;
  /** A format to force; default "auto". */
  readonly format?: FormatChoice;
  /**
   * The other file of a segment pair, when both are at hand: for a segment its `.index` (recovery then
   * takes the index path), for an index its `.log` (the entries are cross-checked against it).
   */
  readonly companion?: {
    readonly name: string;
    readonly bytes: Uint8Array;
    /** A segment's `.index` too large to hold, its entries read in pages (IndexEntries.paged): used instead of `bytes`. */
    readonly entries?: IndexEntries;
  };
  readonly xxh3?: Xxh3;
  /** Called as the batch walk goes (plain batches, the bulk of most inputs): bytes done of the total. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * An index file from its entries (read in place, or in pages for a file too large to hold) as an OpenedInput,
 * cross-checked against its `.log` when that is given; `maxFindings` as checkIndex's `max`.
 */
export function openIndexEntries(
  xxh: Xxh3,
  entries: IndexEntries,
  detectedBy: string,
  log?: { readonly name: string; readonly bytes: Uint8Array },
  maxFindings?: number,
): OpenedInput {
  return indexOpened(entries, detectedBy, log && indexLogOf(xxh, entries, log), [], maxFindings);
}

/** openIndexEntries for entries whose host fills their pages ahead (a worker's byte stream): each page awaited. */
export function openIndexEntriesPaged(
  xxh: Xxh3,
  entries: IndexEntries,
  detectedBy: string,
  log?: { readonly name: string; readonly bytes: Uint8Array },
  maxFindings?: number,
): Promise<OpenedInput> {
  return indexOpenedPaged(entries, detectedBy, log && indexLogOf(xxh, entries, log), [], maxFindings);
}

// The `.log` an index is checked against, decoded as a segment with that index (its batch starts).
function indexLogOf(xxh: Xxh3, entries: IndexEntries, log: { readonly name: string; readonly bytes: Uint8Array }): IndexLogView {
  const seg = openSegment(xxh, log.bytes, log.name, entries);
  return { name: log.name, size: log.bytes.length, starts: batchStartsOf(seg.analysis) };
}

/** Decodes one input as its detected or forced format. */
export async function openInput(bytes: Uint8Array, options: OpenOptions = {}): Promise<OpenedInput> {
  return openInputWith(options.xxh3 ?? (await loadXxh3()), bytes, options);
}

/** The synchronous body of openInput() for a loaded kernel. */
export function openInputWith(xxh: Xxh3, bytes: Uint8Array, options: OpenOptions = {}): OpenedInput {
  const choice = options.format ?? "auto";
  const name = options.name ?? "";
  const d = choice === "auto" ? detectFormat(bytes, name) : forcedDetection(choice);
  if (!d.recognized) {
    const f = new Findings();
    f.add("format-unrecognized", 0, bytes.length, d.detectedBy.replace(/^auto: /, ""));
    return {
      format: d.format,
      detectedBy: d.detectedBy,
      analysis: mergeFindings(emptyAnalysis(bytes.length), f.list),
      container: null,
      recovery: null,
      entries: null,
      legacy: null,
    };
  }
  return decodeAs(xxh, bytes, d.format, d.detectedBy, name, options.companion, options.onProgress);
}

function decodeAs(
  xxh: Xxh3,
  bytes: Uint8Array,
  format: FormatName,
  detectedBy: string,
  name: string,
  companion?: OpenOptions["companion"],
  onProgress?: OpenOptions["onProgress"],
): OpenedInput {
  const base = { format, detectedBy, container: null, recovery: null, entries: null, legacy: null };
  const container = (fields: ContainerField[], start: number, end: number) => ({ format, start, end, fields });
  switch (format) {
    case "batches":
    case "partition":
      // A partition is a directory (openPartition); one file forced as one is read as its batches.
      return { ...base, analysis: analyzeWith(xxh, bytes, { onProgress }) };
    case "segment": {
      const entries = companion ? (companion.entries ?? decodeIndexEntries(companion.bytes)) : IndexEntries.EMPTY;
      return segmentOpened(openSegment(xxh, bytes, name, entries), detectedBy, companion?.name);
    }
    case "index":
      return openIndexEntries(xxh, decodeIndexEntries(bytes), detectedBy, companion);
    case "poll-reply": {
      const p = decodePollReply(xxh, bytes, 0);
      return { ...base, analysis: mergeFindings(p.analysis, p.findings, bytes.length), container: container(p.fields, 0, Math.min(16, bytes.length)) };
    }
    case "send-messages": {
      const s = decodeSendMessages(xxh, bytes, 0);
      return { ...base, analysis: mergeFindings(s.analysis, s.findings, bytes.length), container: container(s.fields, 0, s.batchStart ?? bytes.length) };
    }
    case "request":
    case "reply":
    case "prepare": {
      const c = decodeConsensus(xxh, bytes, format);
      const end = c.fields.reduce((m, f) => Math.max(m, f.end), 0);
      return {
        ...base,
        detectedBy: `${detectedBy}; the body is ${c.body}`,
        analysis: mergeFindings(c.analysis, c.findings, bytes.length),
        container: container(c.fields, 0, end),
      };
    }
    case "capture": {
      const capture = openCapture(xxh, memorySource(bytes));
      return { ...base, analysis: { ...emptyAnalysis(bytes.length), summary: capture.summary }, capture };
    }
    case "legacy-messages": {
      const l = decodeLegacy(xxh, bytes);
      return {
        ...base,
        analysis: mergeFindings(emptyAnalysis(bytes.length), l.findings),
        container: container([], 0, bytes.length),
        legacy: { messages: l.messages, runs: l.runs },
      };
    }
  }
}

export { openedJsonChunks, partitionJson, recoveryJson, containerJson } from "./json.ts";
export { containerFieldAt } from "./field-at.ts";
