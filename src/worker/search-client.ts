/**
 * The page's side of the search worker. The worker is never sent the input's bytes: each search
 * hands it the File or Blob the input was read from (a reference, no copy) and the edited runs, and
 * it reads windows of that. A search is cancelled by a message (the worker checks between windows).
 * Small inputs, or a page where no worker starts, are searched on the main thread.
 */
import type { Patch } from "../core/edit/edit-overlay.ts";
import { searchBytes } from "../core/view/search.ts";
import { AbortedError } from "./client.ts";
import type { FromSearchWorker, ToSearchWorker } from "./search-protocol.ts";

/** Inputs up to this size are searched on the main thread: a worker round trip would cost more. */
export const MAIN_THREAD_SEARCH_BYTES = 1 << 20;

/** What to search: the bytes on screen, and where the worker can read the same bytes without a copy. */
export interface SearchTarget {
  /** The input as shown (searched directly on the main thread); null when it is read on demand from `source`. */
  readonly bytes: Uint8Array | null;
  /** The File or Blob `bytes` read as, once `patches` are written over it; null when there is none (the bytes were built or pasted). */
  readonly source: Blob | null;
  /** Edited runs over source, sorted and disjoint. */
  readonly patches: readonly Patch[];
}

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
  private nextId = 1;
  // Large bytes with no File behind them: one Blob made of them, kept while they are shown.
  private made: { bytes: Uint8Array; blob: Blob } | null = null;

  /** Finds pattern in the target (at most limit hits); onProgress gets bytes searched; the signal cancels it. */
  search(
    target: SearchTarget,
    pattern: Uint8Array,
    limit: number,
    signal: AbortSignal,
    onProgress?: (done: number, total: number) => void,
  ): Promise<SearchOutcome> {
    if (signal.aborted) return Promise.reject(new AbortedError());
    const { bytes } = target;
    if (!bytes) return this.onDemand(target.source, target.patches, pattern, limit, signal, onProgress);
    const worker = bytes.length > MAIN_THREAD_SEARCH_BYTES && !this.broken ? this.ensureWorker() : null;
    if (!worker) return this.onMainThread(bytes, pattern, limit, signal, onProgress);
    const fromFile = target.source !== null && target.source.size === bytes.length;
    const source = fromFile ? target.source : this.blobOf(bytes);
    const patches = fromFile ? target.patches : [];
    return this.ask(worker, source, patches, pattern, limit, signal, onProgress).catch((err: unknown) => {
      if (err instanceof AbortedError) throw err;
      if (this.broken) return this.onMainThread(bytes, pattern, limit, signal, onProgress);
      // A File changed or removed on disk since it was loaded: the bytes on screen are still searchable.
      if (!fromFile) throw err;
      return this.ask(worker, this.blobOf(bytes), [], pattern, limit, signal, onProgress);
    });
  }

  // An input read on demand has only its File: the worker reads it in windows, and nothing else can.
  private onDemand(
    source: Blob | null,
    patches: readonly Patch[],
    pattern: Uint8Array,
    limit: number,
    signal: AbortSignal,
    onProgress?: (done: number, total: number) => void,
  ): Promise<SearchOutcome> {
    const worker = source && !this.broken ? this.ensureWorker() : null;
    if (!source || !worker) return Promise.reject(new Error("this file is read on demand and no search worker could start to read it"));
    return this.ask(worker, source, patches, pattern, limit, signal, onProgress);
  }

  // The one copy, for bytes no File stands behind (samples, pastes, share links: small in practice).
  private blobOf(bytes: Uint8Array): Blob {
    if (this.made?.bytes !== bytes) this.made = { bytes, blob: new Blob([bytes as Uint8Array<ArrayBuffer>]) };
    return this.made.blob;
  }

  private ask(
    worker: Worker,
    source: Blob,
    patches: readonly Patch[],
    pattern: Uint8Array,
    limit: number,
    signal: AbortSignal,
    onProgress?: (done: number, total: number) => void,
  ): Promise<SearchOutcome> {
    if (signal.aborted) return Promise.reject(new AbortedError());
    const id = this.nextId++;
    return this.exchange<SearchOutcome>(
      worker,
      { type: "search", id, source, patches, pattern, limit },
      (m) => {
        if (m.type === "search-progress") onProgress?.(m.done, m.total);
        return m.type === "search-result" ? { starts: m.starts, capped: m.capped, ranOn: "worker" } : undefined;
      },
      signal,
    );
  }

  /**
   * The lowercase hex SHA-256 of a File or Blob, read by the worker a window at a time: no copy of the input and
   * no main-thread task (Web Crypto's one call copied a 256 MiB input on the main thread). Rejects where no worker runs.
   */
  sha256(source: Blob): Promise<string> {
    const worker = this.broken ? null : this.ensureWorker();
    if (!worker) return Promise.reject(new Error("no search worker"));
    const id = this.nextId++;
    return this.exchange<string>(worker, { type: "digest", id, source }, (m) => (m.type === "digest-result" ? m.hex : undefined));
  }

  /**
   * Posts one request and settles on its reply: `pick` sees each message of the request (progress too)
   * and returns the answer when one is final; a search-error rejects, a crashed worker rejects, and
   * `signal` (if any) cancels it in the worker and rejects with AbortedError.
   */
  private exchange<T>(
    worker: Worker,
    request: ToSearchWorker & { id: number },
    pick: (m: FromSearchWorker) => T | undefined,
    signal?: AbortSignal,
  ): Promise<T> {
    const { id } = request;
    return new Promise<T>((resolve, reject) => {
      const cleanup = () => {
        worker.removeEventListener("message", onMessage);
        worker.removeEventListener("error", onError);
        signal?.removeEventListener("abort", onAbort);
      };
      const onMessage = (event: MessageEvent<FromSearchWorker>) => {
        const m = event.data;
        if (m.id !== id) return;
        if (m.type === "search-error") {
          cleanup();
          reject(new Error(m.message));
          return;
        }
        const answer = pick(m);
        if (answer === undefined) return;
        cleanup();
        resolve(answer);
      };
      const onError = (event: ErrorEvent) => {
        cleanup();
        reject(this.workerFailed(event));
      };
      const onAbort = () => {
        cleanup();
        const cancel: ToSearchWorker = { type: "search-cancel", id };
        worker.postMessage(cancel);
        reject(new AbortedError());
      };
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      signal?.addEventListener("abort", onAbort);
      worker.postMessage(request);
    });
  }

  // A crashed worker is not restarted: every later call falls back (search) or rejects (digest).
  private workerFailed(event: ErrorEvent): Error {
    event.preventDefault();
    this.worker?.terminate();
    this.worker = null;
    this.broken = true;
    return new Error(`the search worker failed: ${event.message}`);
  }

  /** Lets go of anything kept for the shown input (another input is shown). */
  forget(): void {
    this.made = null;
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

let shared: SearchClient | null = null;
/** The page's one search client (and so one search worker), shared by the search box and the share link's digest. */
export function searchClient(): SearchClient {
  return (shared ??= new SearchClient());
}
