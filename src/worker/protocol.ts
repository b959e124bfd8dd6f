/** The typed messages between the page and the analysis worker. */
import type { Analysis } from "../core/model.ts";
import type { ShareDecode } from "../lib/share-codec.ts";
import type { Patch } from "../core/edit-overlay.ts";

/** Page → worker: analyse this input. A Blob is read inside the worker, so the page never copies the bytes. */
export interface AnalyzeRequest {
  readonly type: "analyze";
  readonly id: number;
  readonly input: Blob | ArrayBuffer;
  /** Where the first batch starts; bytes before it are an envelope. */
  readonly startOffset?: number;
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
  readonly analysis: Analysis;
}

/** Worker → page: this worker does not hold the original of that key; send it with the patches. */
export interface NeedBaseMessage {
  readonly type: "need-base";
  readonly id: number;
}

/** Worker → page: bytes walked so far. */
export interface ProgressMessage {
  readonly type: "progress";
  readonly id: number;
  readonly done: number;
  readonly total: number;
}

/** Worker → page: the finished analysis with the input's bytes (transferred back). */
export interface ResultMessage {
  readonly type: "result";
  readonly id: number;
  readonly buffer: ArrayBuffer;
  readonly analysis: Analysis;
}

/** Worker → page: the request failed; the message says why. */
export interface ErrorMessage {
  readonly type: "error";
  readonly id: number;
  readonly message: string;
}

/** Anything the page sends. */
export type ToWorker = AnalyzeRequest | DecodeShareRequest | AnalyzePatchedRequest;
/** Anything the worker sends. */
export type FromWorker = ProgressMessage | ResultMessage | ErrorMessage | SharedMessage | PatchedResultMessage | NeedBaseMessage;
