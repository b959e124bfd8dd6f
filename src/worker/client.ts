/**
 * The page's side of the worker bridge: one request at a time, cancel by AbortSignal.
 * Aborting terminates the worker (WASM cannot be interrupted) and the next call starts a fresh one;
 * where no worker can start, the same core runs on the main thread.
 */
import { analysisFromWire } from "../core/model/batch-wire.ts";
import type { FormatChoice, PartitionResult } from "../core/containers/index.ts";
import type { Analysis } from "../core/model/model.ts";
import { metaFromWire, type CaptureBytesMessage, type FromWorker, type InputMeta, type PageCapture, type ToWorker } from "./protocol.ts";
import { emptyAnalysis } from "../core/containers/merge.ts";
import { runRequest } from "./run-request.ts";
import { decodeShareResult, type ShareDecode } from "../lib/share-codec.ts";
import type { Patch } from "../core/edit/edit-overlay.ts";
import { analyzeWith } from "../core/walk/analyze.ts";
import { loadXxh3 } from "../checksum/xxh3.ts";

/** What an analysis hands back: the bytes (owned by the page now) and the model. */
export interface AnalyzedInput {
  readonly bytes: Uint8Array;
  readonly analysis: Analysis;
  /** Where it ran: "worker", or "main-thread" as a fallback. */
  readonly ranOn: "worker" | "main-thread";
}

/** An input opened as a container format: the analysis plus the format and the container's parts. */
export interface OpenedAnalysis extends Omit<AnalyzedInput, "bytes"> {
  /** Null when the input was opened on demand: its bytes stay in the File. */
  readonly bytes: Uint8Array | null;
  readonly meta: InputMeta;
  /** Set when the input is a network capture: its message index, held by the worker (bytes and analysis are then empty). */
  readonly capture?: PageCapture;
}

/** How to open one input: the format (default auto), its name, its segment-pair companion. */
export interface OpenRequestOptions {
  readonly name?: string;
  readonly format?: FormatChoice;
  readonly companion?: { readonly name: string; readonly input: AnalysisInput } | null;
  readonly onProgress?: (done: number, total: number) => void;
  /** Open a Blob without reading it whole where its format streams (OpenedAnalysis.bytes is then null). */
  readonly onDemand?: boolean;
  /** Tests: range workers that walk an on-demand File (AnalyzeRequest.rangeWorkers). */
  readonly rangeWorkers?: number;
  /** A capture's Iggy server TCP port (AnalyzeRequest.capturePort). */
  readonly capturePort?: number;
}

/** Rejection reason when a call was aborted. */
export class AbortedError extends Error {
  override readonly name = "AbortedError";
  constructor() {
    super("analysis cancelled");
  }
}

/** What can be analysed: a File or Blob (read in the worker), or bytes the caller keeps. */
export type AnalysisInput = Blob | ArrayBuffer | Uint8Array;

/** A signal never aborted: a call made with it keeps its worker whatever happens (its result may just be dropped). */
export const KEEP_WORKER: AbortSignal = new AbortController().signal;

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
type Reply = Exclude<FromWorker, { type: "progress" } | { type: "error" }>;
type Ran = { reply: Reply; ranOn: AnalyzedInput["ranOn"] };

/** Runs analyses in a Web Worker, one at a time. */
export class AnalysisClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private workerBroken = false;
  // The key of the original the worker holds for analyzePatched, if any.
  private baseKey: number | null = null;

  /** Analyses input as plain batches from startOffset; onProgress gets bytes walked; the signal cancels it. */
  async analyze(input: AnalysisInput, signal: AbortSignal, onProgress?: (done: number, total: number) => void, startOffset = 0): Promise<AnalyzedInput> {
    const { reply, ranOn } = await this.run((id) => ({ type: "analyze", id, input: ownedInput(input), startOffset }), signal, onProgress);
    if (reply.type !== "result" || !reply.buffer) throw new Error("unexpected worker reply");
    return { bytes: new Uint8Array(reply.buffer), analysis: analysisFromWire(reply.analysis), ranOn };
  }

  /** Opens input as its detected (or forced) format: the worker runs openInput. */
  async open(input: AnalysisInput, signal: AbortSignal, options: OpenRequestOptions = {}): Promise<OpenedAnalysis> {
    const c = options.companion;
    const { reply, ranOn } = await this.run(
      (id) => ({
        type: "analyze",
        id,
        input: ownedInput(input),
        format: options.format ?? "auto",
        name: options.name,
        companion: c ? { name: c.name, input: ownedInput(c.input) } : undefined,
        onDemand: options.onDemand === true && input instanceof Blob,
        rangeWorkers: options.rangeWorkers,
        capturePort: options.capturePort,
      }),
      signal,
      options.onProgress,
    );
    if (reply.type === "capture-opened") {
      const capture = reply.capture;
      const meta: InputMeta = { format: "capture", detectedBy: capture.detectedBy, container: null, recovery: null, entries: null, legacy: null };
      return { bytes: null, analysis: { ...emptyAnalysis(0), summary: capture.summary }, meta, capture, ranOn };
    }
    if (reply.type !== "result" || !reply.meta) throw new Error("unexpected worker reply");
    return { bytes: reply.buffer && new Uint8Array(reply.buffer), analysis: analysisFromWire(reply.analysis), meta: metaFromWire(reply.meta), ranOn };
  }

  /** One message's bytes of an opened capture (its captured prefix, the login secret masked by the core). */
  async captureMessage(
    capture: PageCapture,
    input: Blob | ArrayBuffer,
    connection: number,
    message: number,
    signal: AbortSignal,
  ): Promise<CaptureBytesMessage> {
    const { reply } = await this.run(
      (id) => ({
        type: "capture-message",
        id,
        key: capture.key,
        input: input instanceof ArrayBuffer ? input.slice(0) : input,
        connection,
        message,
        port: capture.port,
      }),
      signal,
    );
    if (reply.type !== "capture-bytes") throw new Error("unexpected worker reply");
    return reply;
  }

  /** Decodes files as one partition in the worker, one segment at a time; onProgress gets files done. */
  async openPartition(
    files: readonly { name: string; input: Blob }[],
    signal: AbortSignal,
    onProgress?: (done: number, total: number) => void,
    maxFileBytes?: number,
  ): Promise<PartitionResult> {
    const { reply } = await this.run((id) => ({ type: "partition", id, files, maxFileBytes }), signal, onProgress);
    if (reply.type !== "partition-result") throw new Error("unexpected worker reply");
    return reply.result;
  }

  private run(make: (id: number) => ToWorker, signal: AbortSignal, onProgress?: (done: number, total: number) => void): Promise<Ran> {
    const message = make(this.nextId++);
    // A Blob crosses without copying its bytes; an ArrayBuffer is copied first so the caller keeps its own.
    const transfer: Transferable[] = [];
    if (message.type === "analyze") {
      if (message.input instanceof ArrayBuffer) transfer.push(message.input);
      if (message.companion?.input instanceof ArrayBuffer) transfer.push(message.companion.input);
    }
    return this.exchange<Ran>(
      message,
      signal,
      (m) => {
        if (m.type === "progress") onProgress?.(m.done, m.total);
        return m.type === "progress" || m.type === "error" ? undefined : { reply: m, ranOn: "worker" };
      },
      () => this.onMainThread(message, signal, onProgress),
      transfer,
    );
  }

  /** Inflates a share-link fragment in the worker (capped as it inflates); the main thread does it where no worker starts. */
  decodeShare(fragment: string, signal: AbortSignal): Promise<ShareDecode> {
    return this.exchange(
      { type: "decode-share", id: this.nextId++, fragment },
      signal,
      (m) => (m.type === "shared" ? m.result : undefined),
      () => Promise.resolve(decodeShareResult(fragment)),
    );
  }

  /**
   * Re-checks an edited input as original + patches. The original (or the File it came from) goes to the worker
   * once per key and is kept there, so later re-checks send only the patches; terminate() lets it go.
   */
  async analyzePatched(
    key: number,
    original: Uint8Array,
    patches: readonly Patch[],
    startOffset: number,
    signal: AbortSignal,
    source?: Blob,
  ): Promise<Analysis> {
    const viaMain = async () => analyzeWith(await loadXxh3(), patchedCopy(original, patches), { startOffset });
    const ask = (withBase: boolean) => {
      // The File the original was read from crosses without a copy; else the bytes are copied once and transferred.
      const base = withBase ? (source ?? ownedInput(original)) : undefined;
      const message: ToWorker = { type: "analyze-patched", id: this.nextId++, key, patches, startOffset, ...(base ? { base } : {}) };
      return this.exchange(
        message,
        signal,
        (m) => (m.type === "patched-result" ? analysisFromWire(m.analysis) : m.type === "need-base" ? null : undefined),
        viaMain,
        base instanceof ArrayBuffer ? [base] : [],
      );
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
  private exchange<T>(
    message: ToWorker,
    signal: AbortSignal,
    pick: (m: FromWorker) => T | undefined,
    onMain: () => Promise<T>,
    transfer: Transferable[] = [],
  ): Promise<T> {
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
        if (m.type === "error") {
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
        event.preventDefault();
        this.terminate();
        this.workerBroken = true;
        onMain().then(resolve, reject);
      };
      const onAbort = () => {
        cleanup();
        this.terminate();
        reject(new AbortedError());
      };
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
