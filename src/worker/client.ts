/**
 * The page's side of the worker bridge: one request at a time, cancel by AbortSignal.
 * Aborting terminates the worker (WASM cannot be interrupted) and the next call starts a fresh one;
 * where no worker can start, the same core runs on the main thread.
 */
import type { Analysis } from "../core/model.ts";
import type { FromWorker, ToWorker } from "./protocol.ts";
import { runRequest } from "./run-request.ts";
import { decodeShareResult, type ShareDecode } from "../lib/share-codec.ts";
import type { Patch } from "../core/edit-overlay.ts";
import { analyzeWith } from "../core/analyze.ts";
import { loadXxh3 } from "../checksum/xxh3.ts";

/** What an analysis hands back: the bytes (owned by the page now) and the model. */
export interface AnalyzedInput {
  readonly bytes: Uint8Array;
  readonly analysis: Analysis;
  /** Where it ran: "worker", or "main-thread" as a fallback. */
  readonly ranOn: "worker" | "main-thread";
}

/** Rejection reason when a call was aborted. */
export class AbortedError extends Error {
  override readonly name = "AbortedError";
  constructor() { super("analysis cancelled"); }
}

/** What can be analysed: a File or Blob (read in the worker), or bytes the caller keeps. */
export type AnalysisInput = Blob | ArrayBuffer | Uint8Array;

// The one copy of caller-owned bytes: the copy is transferred, so the caller's bytes stay usable.
function ownedInput(input: AnalysisInput): Blob | ArrayBuffer {
  if (input instanceof Blob) return input;
  if (input instanceof Uint8Array) return input.buffer.slice(input.byteOffset, input.byteOffset + input.byteLength) as ArrayBuffer;
  return input.slice(0);
}

// The main-thread fallback of analyzePatched: one full copy with the patches written over it.
function patchedCopy(original: Uint8Array, patches: readonly Patch[]): Uint8Array {
  const out = original.slice();
  for (const p of patches) out.set(p.bytes.subarray(0, Math.max(0, out.length - p.start)), p.start);
  return out;
}

/** Runs analyses in a Web Worker, one at a time. */
export class AnalysisClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private workerBroken = false;
  // The key of the original the worker holds for analyzePatched, if any.
  private baseKey: number | null = null;

  /** Analyses input; onProgress gets bytes walked; the signal cancels it. */
  analyze(input: AnalysisInput, signal: AbortSignal, onProgress?: (done: number, total: number) => void, startOffset = 0): Promise<AnalyzedInput> {
    if (signal.aborted) return Promise.reject(new AbortedError());
    const worker = this.workerBroken ? null : this.ensureWorker();
    if (!worker) return this.onMainThread(input, signal, onProgress, startOffset);
    const id = this.nextId++;
    return new Promise<AnalyzedInput>((resolve, reject) => {
      const cleanup = () => {
        worker.removeEventListener("message", onMessage);
        worker.removeEventListener("error", onError);
        signal.removeEventListener("abort", onAbort);
      };
      const onMessage = (event: MessageEvent<FromWorker>) => {
        const m = event.data;
        if (m.id !== id) return;
        if (m.type === "progress") onProgress?.(m.done, m.total);
        else if (m.type === "result") { cleanup(); resolve({ bytes: new Uint8Array(m.buffer), analysis: m.analysis, ranOn: "worker" }); }
        else if (m.type === "error") { cleanup(); reject(new Error(m.message)); }
      };
      const onError = (event: ErrorEvent) => {
        // The worker itself failed (e.g. could not load): fall back to the main thread for good.
        cleanup();
        event.preventDefault();
        this.terminate();
        this.workerBroken = true;
        this.onMainThread(input, signal, onProgress, startOffset).then(resolve, reject);
      };
      const onAbort = () => { cleanup(); this.terminate(); reject(new AbortedError()); };
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      signal.addEventListener("abort", onAbort);
      // A Blob crosses without copying its bytes; an ArrayBuffer is copied first so the caller keeps its own.
      const message: ToWorker = { type: "analyze", id, input: ownedInput(input), startOffset };
      worker.postMessage(message, message.input instanceof ArrayBuffer ? [message.input] : []);
    });
  }

  /** Inflates a share-link fragment in the worker (capped as it inflates); the main thread does it where no worker starts. */
  decodeShare(fragment: string, signal: AbortSignal): Promise<ShareDecode> {
    return this.exchange({ type: "decode-share", id: this.nextId++, fragment }, signal, (m) => (m.type === "shared" ? m.result : undefined),
      () => Promise.resolve(decodeShareResult(fragment)));
  }

  /**
   * Re-checks an edited input as original + patches. The original (or the File it came from) goes to the worker
   * once per key and is kept there, so later re-checks send only the patches; terminate() lets it go.
   */
  async analyzePatched(key: number, original: Uint8Array, patches: readonly Patch[], startOffset: number, signal: AbortSignal, source?: Blob): Promise<Analysis> {
    const viaMain = async () => analyzeWith(await loadXxh3(), patchedCopy(original, patches), { startOffset });
    const ask = (withBase: boolean) => {
      // The File the original was read from crosses without a copy; else the bytes are copied once and transferred.
      const base = withBase ? (source ?? ownedInput(original)) : undefined;
      const message: ToWorker = { type: "analyze-patched", id: this.nextId++, key, patches, startOffset, ...(base ? { base } : {}) };
      return this.exchange(message, signal, (m) => (m.type === "patched-result" ? m.analysis : m.type === "need-base" ? null : undefined), viaMain,
        base instanceof ArrayBuffer ? [base] : []);
    };
    // A File changed on disk since it was loaded can no longer be read: then the page's bytes are sent instead.
    const first = await ask(this.baseKey !== key).catch((err: unknown) => {
      if (err instanceof AbortedError || !source) throw err;
      source = undefined;
      return null;
    });
    this.baseKey = key;
    return first ?? (await ask(true)) ?? viaMain();
  }

  // One request and its one reply: pick() maps a reply of this id to the answer (undefined: not the reply);
  // an error reply rejects, a worker that fails to run falls back to the main thread for good.
  private exchange<T>(message: ToWorker, signal: AbortSignal, pick: (m: FromWorker) => T | undefined, onMain: () => Promise<T>, transfer: Transferable[] = []): Promise<T> {
    if (signal.aborted) return Promise.reject(new AbortedError());
    const worker = this.workerBroken ? null : this.ensureWorker();
    if (!worker) return onMain();
    return new Promise<T>((resolve, reject) => {
      const cleanup = () => {
        worker.removeEventListener("message", onMessage);
        worker.removeEventListener("error", onError);
        signal.removeEventListener("abort", onAbort);
      };
      const onMessage = (event: MessageEvent<FromWorker>) => {
        const m = event.data;
        if (m.id !== message.id) return;
        if (m.type === "error") { cleanup(); reject(new Error(m.message)); return; }
        const answer = pick(m);
        if (answer === undefined) return;
        cleanup();
        resolve(answer);
      };
      const onError = (event: ErrorEvent) => {
        cleanup();
        event.preventDefault();
        this.terminate();
        this.workerBroken = true;
        onMain().then(resolve, reject);
      };
      const onAbort = () => { cleanup(); this.terminate(); reject(new AbortedError()); };
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      signal.addEventListener("abort", onAbort);
      worker.postMessage(message, transfer);
    });
  }

  /** Starts the worker now, so the first request does not wait for it to load. */
  prepare(): void {
    if (!this.workerBroken) this.ensureWorker();
  }

  /** Stops the worker; the next call starts a new one. */
  terminate(): void {
    this.worker?.terminate();
    this.worker = null;
    this.baseKey = null;
  }

  private ensureWorker(): Worker | null {
    if (this.worker) return this.worker;
    try {
      this.worker = new Worker(new URL("./analyze.worker.ts", import.meta.url), { type: "module", name: "iggy-analysis" });
    } catch {
      this.workerBroken = true;
      return null;
    }
    return this.worker;
  }

  private onMainThread(input: AnalysisInput, signal: AbortSignal, onProgress: ((done: number, total: number) => void) | undefined, startOffset: number): Promise<AnalyzedInput> {
    return new Promise((resolve, reject) => {
      void runRequest({ type: "analyze", id: 0, input: ownedInput(input), startOffset }, (m) => {
        if (signal.aborted) return reject(new AbortedError());
        if (m.type === "progress") onProgress?.(m.done, m.total);
        else if (m.type === "result") resolve({ bytes: new Uint8Array(m.buffer), analysis: m.analysis, ranOn: "main-thread" });
        else if (m.type === "error") reject(new Error(m.message));
      });
    });
  }
}
