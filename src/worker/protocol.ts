/** The typed messages between the page and the analysis worker. */
import type { Analysis } from "../core/model.ts";

/** Page → worker: analyse this input. A Blob is read inside the worker, so the page never copies the bytes. */
export interface AnalyzeRequest {
  readonly type: "analyze";
  readonly id: number;
  readonly input: Blob | ArrayBuffer;
  /** Where the first batch starts; bytes before it are an envelope. */
  readonly startOffset?: number;
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
export type ToWorker = AnalyzeRequest;
/** Anything the worker sends. */
export type FromWorker = ProgressMessage | ResultMessage | ErrorMessage;
