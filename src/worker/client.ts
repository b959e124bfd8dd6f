/**
 * The page's side of the worker bridge: one request at a time, cancel by AbortSignal.
 * Aborting terminates the worker (WASM cannot be interrupted) and the next call starts a fresh one;
 * where no worker can start, the same core runs on the main thread.
 */
import type { FormatChoice, PartitionResult } from "../core/containers/index.ts";
import type { Analysis } from "../core/model.ts";
import type { FromWorker, InputMeta, ToWorker } from "./protocol.ts";
import { runRequest } from "./run-request.ts";

/** What an analysis hands back: the bytes (owned by the page now) and the model. */
export interface AnalyzedInput {
  readonly bytes: Uint8Array;
  readonly analysis: Analysis;
  /** Where it ran: "worker", or "main-thread" as a fallback. */
  readonly ranOn: "worker" | "main-thread";
}

/** An input opened as a container format: the analysis plus the format and the container's parts. */
export interface OpenedAnalysis extends AnalyzedInput {
  readonly meta: InputMeta;
}

/** How to open one input: the format (default auto), its name, its segment-pair companion. */
export interface OpenRequestOptions {
  readonly name?: string;
  readonly format?: FormatChoice;
  readonly companion?: { readonly name: string; readonly input: AnalysisInput } | null;
  readonly onProgress?: (done: number, total: number) => void;
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

type Reply = Exclude<FromWorker, { type: "progress" } | { type: "error" }>;
type Ran = { reply: Reply; ranOn: AnalyzedInput["ranOn"] };

/** Runs analyses in a Web Worker, one at a time. */
export class AnalysisClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private workerBroken = false;

  /** Analyses input as plain batches from startOffset; onProgress gets bytes walked; the signal cancels it. */
  async analyze(input: AnalysisInput, signal: AbortSignal, onProgress?: (done: number, total: number) => void, startOffset = 0): Promise<AnalyzedInput> {
    const { reply, ranOn } = await this.run((id) => ({ type: "analyze", id, input: ownedInput(input), startOffset }), signal, onProgress);
    if (reply.type !== "result") throw new Error("unexpected worker reply");
    return { bytes: new Uint8Array(reply.buffer), analysis: reply.analysis, ranOn };
  }

  /** Opens input as its detected (or forced) format: the worker runs openInput. */
  async open(input: AnalysisInput, signal: AbortSignal, options: OpenRequestOptions = {}): Promise<OpenedAnalysis> {
    const c = options.companion;
    const { reply, ranOn } = await this.run((id) => ({
      type: "analyze", id, input: ownedInput(input), format: options.format ?? "auto", name: options.name,
      companion: c ? { name: c.name, input: ownedInput(c.input) } : undefined,
    }), signal, options.onProgress);
    if (reply.type !== "result" || !reply.meta) throw new Error("unexpected worker reply");
    return { bytes: new Uint8Array(reply.buffer), analysis: reply.analysis, meta: reply.meta, ranOn };
  }

  /** Decodes files as one partition in the worker, one segment at a time; onProgress gets files done. */
  async openPartition(files: readonly { name: string; input: Blob }[], signal: AbortSignal, onProgress?: (done: number, total: number) => void, maxFileBytes?: number): Promise<PartitionResult> {
    const { reply } = await this.run((id) => ({ type: "partition", id, files, maxFileBytes }), signal, onProgress);
    if (reply.type !== "partition-result") throw new Error("unexpected worker reply");
    return reply.result;
  }

  /** Stops the worker; the next call starts a new one. */
  terminate(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  private run(make: (id: number) => ToWorker, signal: AbortSignal, onProgress?: (done: number, total: number) => void): Promise<Ran> {
    if (signal.aborted) return Promise.reject(new AbortedError());
    const worker = this.workerBroken ? null : this.ensureWorker();
    if (!worker) return this.onMainThread(make(0), signal, onProgress);
    const id = this.nextId++;
    const message = make(id);
    return new Promise<Ran>((resolve, reject) => {
      const cleanup = () => {
        worker.removeEventListener("message", onMessage);
        worker.removeEventListener("error", onError);
        signal.removeEventListener("abort", onAbort);
      };
      const onMessage = (event: MessageEvent<FromWorker>) => {
        const m = event.data;
        if (m.id !== id) return;
        if (m.type === "progress") onProgress?.(m.done, m.total);
        else if (m.type === "error") { cleanup(); reject(new Error(m.message)); }
        else { cleanup(); resolve({ reply: m, ranOn: "worker" }); }
      };
      const onError = (event: ErrorEvent) => {
        // The worker itself failed (e.g. could not load): fall back to the main thread for good.
        cleanup();
        event.preventDefault();
        this.terminate();
        this.workerBroken = true;
        this.onMainThread(message, signal, onProgress).then(resolve, reject);
      };
      const onAbort = () => { cleanup(); this.terminate(); reject(new AbortedError()); };
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      signal.addEventListener("abort", onAbort);
      // A Blob crosses without copying its bytes; an ArrayBuffer is copied first so the caller keeps its own.
      const transfer: Transferable[] = [];
      if (message.type === "analyze") {
        if (message.input instanceof ArrayBuffer) transfer.push(message.input);
        if (message.companion?.input instanceof ArrayBuffer) transfer.push(message.companion.input);
      }
      worker.postMessage(message, transfer);
    });
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

  private onMainThread(message: ToWorker, signal: AbortSignal, onProgress: ((done: number, total: number) => void) | undefined): Promise<Ran> {
    return new Promise((resolve, reject) => {
      void runRequest({ ...message, id: 0 }, (m) => {
        if (signal.aborted) return reject(new AbortedError());
        if (m.type === "progress") onProgress?.(m.done, m.total);
        else if (m.type === "error") reject(new Error(m.message));
        else resolve({ reply: m, ranOn: "main-thread" });
      });
    });
  }
}
