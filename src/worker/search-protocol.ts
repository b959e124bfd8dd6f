/** The typed messages between the page and the search worker, which keeps one input's bytes between searches. */

/**
 * Page → worker: the bytes later searches run over, or a piece of them (transferred; `token` names
 * them). Large inputs come in pieces, so no one copy blocks the page for long.
 */
export interface SearchDataRequest {
  readonly type: "search-data";
  readonly token: number;
  readonly buffer: ArrayBuffer;
  /** Where this piece goes, and the size of the whole; a piece at 0 starts new bytes. Default: the buffer is the whole. */
  readonly offset?: number;
  readonly total?: number;
}

/** Page → worker: find every match of pattern in the bytes named by token, keeping at most limit. */
export interface SearchRequest {
  readonly type: "search";
  readonly id: number;
  readonly token: number;
  readonly pattern: Uint8Array;
  readonly limit: number;
}

/** Page → worker: stop search `id` (it answers with nothing more). */
export interface SearchCancelRequest {
  readonly type: "search-cancel";
  readonly id: number;
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

/** Worker → page: the search failed (e.g. its bytes were never sent). */
export interface SearchErrorMessage {
  readonly type: "search-error";
  readonly id: number;
  readonly message: string;
}

/** Anything the page sends the search worker. */
export type ToSearchWorker = SearchDataRequest | SearchRequest | SearchCancelRequest;
/** Anything the search worker sends. */
export type FromSearchWorker = SearchProgressMessage | SearchResultMessage | SearchErrorMessage;
