/**
 * The page's side of the search worker. The worker keeps a copy of the input's bytes, sent with the
 * first search of each input, so later searches cost nothing to start; a search is cancelled by a
 * message (the worker yields between chunks), so cancelling never loses that copy. Small inputs, or a
 * page where no worker starts, are searched on the main thread.
 */
import { searchBytes } from "../core/search.ts";
import { AbortedError } from "./client.ts";
import type { FromSearchWorker, ToSearchWorker } from "./search-protocol.ts";

/** Inputs up to this size are searched on the main thread: a worker round trip would cost more. */
export const MAIN_THREAD_SEARCH_BYTES = 1 << 20;
/** Bytes copied to the worker at a time. */
const HANDOVER_PIECE = 8 << 20;

/** The starts of every hit of one search, and where it ran. */
export interface SearchOutcome {
  readonly starts: Float64Array;
  readonly capped: boolean;
  readonly ranOn: "worker" | "main-thread";
}

/** Runs byte searches off the main thread, one at a time. */
export class SearchClient {
  private worker: Worker | null = null;
  private broken = false;
  private sent: Uint8Array | null = null;
  private token = 0;
  private nextId = 1;

  /** Finds pattern in bytes (at most limit hits); onProgress gets bytes searched; the signal cancels it. */
  search(
    bytes: Uint8Array,
    pattern: Uint8Array,
    limit: number,
    signal: AbortSignal,
    onProgress?: (done: number, total: number) => void,
  ): Promise<SearchOutcome> {
    if (signal.aborted) return Promise.reject(new AbortedError());
    const worker = bytes.length > MAIN_THREAD_SEARCH_BYTES && !this.broken ? this.ensureWorker() : null;
    if (!worker) return this.onMainThread(bytes, pattern, limit, signal, onProgress);
    return this.handOver(worker, bytes, signal).then(() => this.ask(worker, bytes, pattern, limit, signal, onProgress));
  }

  // The one copy: the worker owns it, the page keeps its own bytes. Copied in pieces with a break
  // between them, so a 256 MiB input does not block the page for one long copy.
  private async handOver(worker: Worker, bytes: Uint8Array, signal: AbortSignal): Promise<void> {
    if (this.sent === bytes) return;
    this.sent = null;
    const token = ++this.token;
    for (let offset = 0; offset < bytes.length; offset += HANDOVER_PIECE) {
      if (signal.aborted || token !== this.token) throw new AbortedError();
      const piece = bytes.slice(offset, offset + HANDOVER_PIECE);
      const message: ToSearchWorker = { type: "search-data", token, buffer: piece.buffer, offset, total: bytes.length };
      worker.postMessage(message, [piece.buffer]);
      if (offset + HANDOVER_PIECE < bytes.length) await new Promise((r) => setTimeout(r, 0));
    }
    this.sent = bytes;
  }

  private ask(
    worker: Worker,
    bytes: Uint8Array,
    pattern: Uint8Array,
    limit: number,
    signal: AbortSignal,
    onProgress?: (done: number, total: number) => void,
  ): Promise<SearchOutcome> {
    if (signal.aborted) return Promise.reject(new AbortedError());
    const id = this.nextId++;
    return new Promise<SearchOutcome>((resolve, reject) => {
      const cleanup = () => {
        worker.removeEventListener("message", onMessage);
        worker.removeEventListener("error", onError);
        signal.removeEventListener("abort", onAbort);
      };
      const onMessage = (event: MessageEvent<FromSearchWorker>) => {
        const m = event.data;
        if (m.id !== id) return;
        if (m.type === "search-progress") onProgress?.(m.done, m.total);
        else if (m.type === "search-result") {
          cleanup();
          resolve({ starts: m.starts, capped: m.capped, ranOn: "worker" });
        } else {
          cleanup();
          reject(new Error(m.message));
        }
      };
      const onError = (event: ErrorEvent) => {
        cleanup();
        event.preventDefault();
        this.worker?.terminate();
        this.worker = null;
        this.broken = true;
        this.sent = null;
        this.onMainThread(bytes, pattern, limit, signal, onProgress).then(resolve, reject);
      };
      const onAbort = () => {
        cleanup();
        const cancel: ToSearchWorker = { type: "search-cancel", id };
        worker.postMessage(cancel);
        reject(new AbortedError());
      };
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      signal.addEventListener("abort", onAbort);
      const request: ToSearchWorker = { type: "search", id, token: this.token, pattern, limit };
      worker.postMessage(request);
    });
  }

  /** Lets the worker drop its copy of the bytes (another input is shown). */
  forget(): void {
    if (!this.worker || this.sent === null) return;
    this.sent = null;
    this.token++;
    const message: ToSearchWorker = { type: "search-data", token: this.token, buffer: new ArrayBuffer(0) };
    this.worker.postMessage(message);
  }

  private ensureWorker(): Worker | null {
    if (this.worker) return this.worker;
    try {
      this.worker = new Worker(new URL("./search.worker.ts", import.meta.url), { type: "module", name: "iggy-search" });
    } catch {
      this.broken = true;
      return null;
    }
    return this.worker;
  }

  private async onMainThread(
    bytes: Uint8Array,
    pattern: Uint8Array,
    limit: number,
    signal: AbortSignal,
    onProgress?: (done: number, total: number) => void,
  ): Promise<SearchOutcome> {
    const result = await searchBytes(bytes, pattern, {
      limit,
      chunk: 1 << 20,
      onProgress: (done, total) => onProgress?.(done, total),
      pause: () => new Promise((r) => setTimeout(r, 0)),
      cancelled: () => signal.aborted,
    });
    if (!result || signal.aborted) throw new AbortedError();
    return { starts: Float64Array.from(result.starts), capped: result.capped, ranOn: "main-thread" };
  }
}
