/**
 * The typed messages between the page and the search worker. The worker keeps no copy of the input:
 * each search names the File or Blob the input was read from (a Blob crosses without its bytes)
 * and the edited runs to read over it, and the worker reads it a window at a time.
 */
import type { Patch } from "../core/edit/edit-overlay.ts";

/** Page → worker: find every match of pattern in source (with patches written over it), keeping at most limit. */
export interface SearchRequest {
  readonly type: "search";
  readonly id: number;
  readonly source: Blob;
  /** Edited runs over source, sorted and disjoint (empty when unedited). */
  readonly patches: readonly Patch[];
  readonly pattern: Uint8Array;
  readonly limit: number;
}

/** Page → worker: stop search `id` (it answers with nothing more). */
export interface SearchCancelRequest {
  readonly type: "search-cancel";
  readonly id: number;
}

/** Page → worker: the SHA-256 of source's bytes, read a window at a time (no copy of the input on either side). */
export interface DigestRequest {
  readonly type: "digest";
  readonly id: number;
  readonly source: Blob;
}

/** Worker → page: the lowercase hex SHA-256 asked for by DigestRequest `id`. */
export interface DigestResultMessage {
  readonly type: "digest-result";
  readonly id: number;
  readonly hex: string;
}

/** Worker → page: bytes searched so far and hits found. */
export interface SearchProgressMessage {
  readonly type: "search-progress";
  readonly id: number;
  readonly done: number;
  readonly total: number;
  readonly hits: number;
}

/** Worker → page: the starts of every hit, in order; capped when the limit stopped the search. */
export interface SearchResultMessage {
  readonly type: "search-result";
  readonly id: number;
  readonly starts: Float64Array;
  readonly capped: boolean;
}

/** Worker → page: the search or digest failed (e.g. the file can no longer be read). */
export interface SearchErrorMessage {
  readonly type: "search-error";
  readonly id: number;
  readonly message: string;
}

/** Anything the page sends the search worker. */
export type ToSearchWorker = SearchRequest | SearchCancelRequest | DigestRequest;
/** Anything the search worker sends. */
export type FromSearchWorker = SearchProgressMessage | SearchResultMessage | SearchErrorMessage | DigestResultMessage;
