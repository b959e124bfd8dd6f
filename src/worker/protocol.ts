/** The typed messages between the page and the analysis worker. */
import type { Analysis } from "../core/model.ts";
import type { ShareDecode } from "../lib/share-codec.ts";

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
export type ToWorker = AnalyzeRequest | DecodeShareRequest;
/** Anything the worker sends. */
export type FromWorker = ProgressMessage | ResultMessage | ErrorMessage | SharedMessage;
