/** The typed messages between the page and the analysis worker. */
import {
  batchStartsOfColumns,
  IndexEntries,
  type BatchStartColumns,
  type FormatChoice,
  type OpenedInput,
  type PartitionResult,
} from "../core/containers/index.ts";
import type { WireAnalysis } from "../core/model/batch-wire.ts";
import type { ShareDecode } from "../lib/share-codec.ts";
import type { Patch } from "../core/edit/edit-overlay.ts";
import type { CaptureConnection, CaptureMessage, CaptureResult } from "../core/containers/capture/index.ts";

/** What openInput found besides the batch model: the format, why, and the container's own parts. */
export type InputMeta = Omit<OpenedInput, "analysis">;

/**
 * InputMeta as it crosses: an index's entries as their bytes (a class does not survive a structured clone);
 * null for an index read in pages (a large File opened on demand), whose entries the page reads from the File.
 * The `.log` an index was checked against crosses as the columns of its batch starts.
 */
export type WireMeta = Omit<InputMeta, "entries" | "indexLog"> & {
  readonly entries: Uint8Array | null;
  readonly indexLog?: { readonly name: string; readonly size: number; readonly starts: BatchStartColumns };
};

/** The meta as the worker posts it. */
export function metaToWire(meta: InputMeta): WireMeta {
  const { indexLog, ...rest } = meta;
  const entries = meta.entries && meta.entries.inMemory ? meta.entries.bytes : null;
  return indexLog ? { ...rest, entries, indexLog: { name: indexLog.name, size: indexLog.size, starts: indexLog.starts.columns() } } : { ...rest, entries };
}

/** The meta that crossed, its entries and its index's log readable again. */
export function metaFromWire(wire: WireMeta): InputMeta {
  const { indexLog, ...rest } = wire;
  const entries = wire.entries && IndexEntries.of(wire.entries);
  return indexLog ? { ...rest, entries, indexLog: { ...indexLog, starts: batchStartsOfColumns(indexLog.starts) } } : { ...rest, entries };
}

/** Page → worker: analyse this input. A Blob is read inside the worker, so the page never copies the bytes. */
export interface AnalyzeRequest {
  readonly type: "analyze";
  readonly id: number;
  readonly input: Blob | ArrayBuffer;
  /** Where the first batch starts; bytes before it are an envelope. Only read when `format` is absent. */
  readonly startOffset?: number;
  /** Open as a container format (auto-detects with "auto"); absent: plain batches from startOffset. */
  readonly format?: FormatChoice;
  /** The file name (decides .log / .index and a segment's start offset). */
  readonly name?: string;
  /** The other file of a segment pair (.log ↔ .index), read in the worker too. */
  readonly companion?: { readonly name: string; readonly input: Blob | ArrayBuffer };
  /** A capture's Iggy server TCP port (the page's setting; the core's default 8090 when absent). */
  readonly capturePort?: number;
  /** A Blob to open without reading it whole where its format streams (the reply then carries no bytes). */
  readonly onDemand?: boolean;
  /** Tests: walk an on-demand File over exactly this many range workers, none of it here (default: by size and cores). */
  readonly rangeWorkers?: number;
}

/** Page → worker: inflate a share-link fragment (a hostile link must not freeze the page or exhaust its memory). */
export interface DecodeShareRequest {
  readonly type: "decode-share";
  readonly id: number;
  readonly fragment: string;
}

/** Worker → page: what the fragment carried (its bytes transferred), or why it was refused. */
export interface SharedMessage {
  readonly type: "shared";
  readonly id: number;
  readonly result: ShareDecode;
}

/**
 * Page → worker: re-check an edited input as its original plus patches. The original crosses once
 * (base, keyed) and stays in the worker; later re-checks of the same key send only the patches.
 */
export interface AnalyzePatchedRequest {
  readonly type: "analyze-patched";
  readonly id: number;
  readonly key: number;
  /** The original: bytes, or the File it was read from (read in the worker, no copy on the page). */
  readonly base?: ArrayBuffer | Blob;
  /** Every overwritten run, relative to the original (EditOverlay.runs()). */
  readonly patches: readonly Patch[];
  readonly startOffset?: number;
}

/** Worker → page: the analysis of the patched input (its bytes stay in the worker). */
export interface PatchedResultMessage {
  readonly type: "patched-result";
  readonly id: number;
  /** Its batches packed (core/model/batch-wire.ts): the client unpacks them. */
  readonly analysis: WireAnalysis;
}

/** Worker → page: this worker does not hold the original of that key; send it with the patches. */
export interface NeedBaseMessage {
  readonly type: "need-base";
  readonly id: number;
}

/** Page → worker: decode these files as one partition directory, one segment at a time. */
export interface PartitionRequest {
  readonly type: "partition";
  readonly id: number;
  readonly files: readonly { readonly name: string; readonly input: Blob }[];
  /** Files larger than this are listed and skipped (tests use a small limit). */
  readonly maxFileBytes?: number;
}

/** Worker → page: bytes walked so far (for a partition: files done). */
export interface ProgressMessage {
  readonly type: "progress";
  readonly id: number;
  readonly done: number;
  readonly total: number;
}

/** Worker → page: the finished analysis with the input's bytes (transferred back), or null when opened on demand. */
export interface ResultMessage {
  readonly type: "result";
  readonly id: number;
  readonly buffer: ArrayBuffer | null;
  /** Its batches packed (core/model/batch-wire.ts): the client unpacks them. */
  readonly analysis: WireAnalysis;
  /** The format and container parts, or null for a plain analyse (no `format` asked). */
  readonly meta: WireMeta | null;
}

/** Worker → page: what a partition keeps after its files are read (no bytes). */
export interface PartitionResultMessage {
  readonly type: "partition-result";
  readonly id: number;
  readonly result: PartitionResult;
}

/** Worker → page: the request failed; the message says why. */
export interface ErrorMessage {
  readonly type: "error";
  readonly id: number;
  readonly message: string;
}

/** A capture's message as it crosses to the page: its batch documents counted, not sent (the shown message is decoded again). */
export type PageCaptureMessage = Omit<CaptureMessage, "batches"> & { readonly batchCount: number };

/** A capture's connection as it crosses to the page: its messages and gaps, not where its stream lies in the file. */
export type PageCaptureConnection = Omit<CaptureConnection, "pieces" | "messages"> & { readonly messages: readonly PageCaptureMessage[] };

/** A capture opened in the worker, as the page keeps it: the message index and findings, never the file's bytes. */
export interface PageCapture extends Omit<CaptureResult, "connections"> {
  /** Names the capture the worker holds, for later message reads. */
  readonly key: number;
  readonly connections: readonly PageCaptureConnection[];
  /** Why it was read as a capture (auto-detect's sentence or "forced"). */
  readonly detectedBy: string;
  /** True when the worker reads the File by windows instead of holding it. */
  readonly onDemand: boolean;
}

/** Worker → page: an analyze request whose input is a capture, opened (answered instead of a ResultMessage). */
export interface CaptureOpenedMessage {
  readonly type: "capture-opened";
  readonly id: number;
  readonly capture: PageCapture;
}

/** Page → worker: one message's bytes of a capture (the input travels too, to open it again if the worker restarted). */
export interface CaptureMessageRequest {
  readonly type: "capture-message";
  readonly id: number;
  readonly key: number;
  readonly input: Blob | ArrayBuffer;
  readonly connection: number;
  readonly message: number;
  /** The port the capture was opened with, to open it the same way again if the worker lost it. */
  readonly port?: number;
}

/** Worker → page: the message's bytes (captured prefix, login secret masked), or why there are none. */
export interface CaptureBytesMessage {
  readonly type: "capture-bytes";
  readonly id: number;
  readonly buffer: ArrayBuffer | null;
  readonly size: number | null;
  readonly missingFrom: number | null;
  readonly masked: { readonly start: number; readonly end: number } | null;
  readonly why: string | null;
}

/** Anything the page sends. */
export type ToWorker = AnalyzeRequest | PartitionRequest | DecodeShareRequest | AnalyzePatchedRequest | CaptureMessageRequest;
/** Anything the worker sends. */
export type FromWorker =
  | ProgressMessage
  | ResultMessage
  | PartitionResultMessage
  | ErrorMessage
  | SharedMessage
  | PatchedResultMessage
  | NeedBaseMessage
  | CaptureOpenedMessage
  | CaptureBytesMessage;
