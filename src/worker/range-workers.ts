/**
 * A File opened on demand, walked as it streams in: the analysis worker reads it once through its
 * byte stream (stream-ranges.ts), cuts batch-aligned ranges in memory, and walks each itself or hands
 * it (bytes transferred) to a range worker of its own, each with the kernel it compiled once; the
 * results are merged in input order, so the Analysis equals a one-thread walk of the same bytes.
 */
import { compileKernel, type KernelWalker } from "../checksum/kernel/wasm-kernel.ts";
import { mergeRanges } from "../core/walk/range-merge.ts";
import { dropCodesFinding, walkRange, type ByteSource, type RangeResult } from "../core/walk/range-walk.ts";
import type { Analysis } from "../core/model/model.ts";
import { MEMORY_WINDOW_BYTES, type RangePlan } from "../core/walk/stream-analyze.ts";
import type { DiagnosticCode } from "../format/diagnostics.ts";
import { RangeJobs, type RangeWalkSettings, type RangeWorkerMessage, type RangeWorkerReply } from "../core/walk/range-protocol.ts";
import { rangeSource, sequentialRead, streamRanges, type StreamedRange, type StreamSpan } from "./stream-ranges.ts";
import { guessBatchStart } from "../core/walk/batch-start-guess.ts";
import { shiftRangeBatches } from "../core/walk/range-shift.ts";
import { frameColumnBuffers, type KeptColumnsBuilder } from "../core/model/frame-columns-build.ts";
import { FileFrames, type FrameSink } from "../core/walk/frame-sink.ts";
import { widePositions } from "../core/model/model.ts";
import { releaseBuffer } from "../lib/release-buffer.ts";
import { streamedWalkFor, threadsFor } from "../core/walk/pool-policy.ts";
import { markPhase } from "./phase-marks.ts";

/** Ranges a worker holds at once, so it never waits for the next. */
const JOBS_IN_FLIGHT = 2;

/** Cores to walk a File of `size` bytes on (core/walk/pool-policy.ts): 1 where workers cannot start workers. */
export function pageThreadsFor(size: number): number {
  const cores = typeof navigator !== "undefined" ? navigator.hardwareConcurrency || 1 : 1;
  return typeof Worker === "undefined" ? 1 : threadsFor(size, cores);
}

/** How a File of `size` bytes is read and walked on this page, on at most `cores` cores (core/walk/pool-policy.ts streamedWalkFor). */
export function pageWalkFor(size: number, cores = Infinity): { streams: number; workers: number; walkHere: boolean } {
  return streamedWalkFor(size, Math.min(cores, pageThreadsFor(size)));
}

// One range worker and its jobs in flight.
class RangeWorker {
  isReady = false;
  private readonly worker: Worker;
  private readonly jobs = new RangeJobs();
  /** Where the buffers of walked ranges go back to. */
  onSpare: (buffer: ArrayBuffer) => void = () => undefined;

  constructor(
    kernelModule: WebAssembly.Module,
    private readonly settings: RangeWalkSettings,
  ) {
    this.worker = new Worker(new URL("./range.worker.ts", import.meta.url), { type: "module", name: "iggy-range" });
    this.worker.onmessage = (event: MessageEvent<RangeWorkerReply>) => {
      if (this.jobs.settle(event.data, (b) => this.onSpare(b))) this.isReady = true;
    };
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.jobs.fail(new Error(event.message || "a range worker failed"));
    };
    this.worker.postMessage({ type: "init", kernelModule } satisfies RangeWorkerMessage);
  }

  get inFlight(): number {
    return this.jobs.inFlight;
  }

  get failed(): boolean {
    return this.jobs.failed;
  }

  run(plan: RangePlan, bytes: Uint8Array): Promise<RangeResult> {
    return this.jobs.start(plan, this.settings, { bytes }, (job) => this.worker.postMessage(job satisfies RangeWorkerMessage, [bytes.buffer as ArrayBuffer]));
  }

  /** Hands buffers over to be freed with this worker, which must be terminated next (RangeWorkerDiscard). */
  discard(buffers: ArrayBuffer[]): void {
    if (buffers.length > 0) this.worker.postMessage({ type: "discard" } satisfies RangeWorkerMessage, buffers);
  }

  terminate(): void {
    this.worker.terminate();
  }
}

// A message to ourselves lets queued replies run without a timer's clamp. One channel for every yield, made once and
// held here: a new channel per yield cost about 0.2 ms (64 ms of a 1 GiB File's walk in one thread), and a channel
// nothing refers to may be collected before its message arrives (as a Blob stream's read was, stream-ranges.ts).
// (Node's ports have ref/unref: the port keeps a process alive only while a yield waits on it.)
type SelfPort = MessagePort & { ref?: () => void; unref?: () => void };
let selfChannel: { readonly port: MessagePort; readonly inbox: SelfPort; readonly waiting: (() => void)[] } | null = null;
const yieldToEvents = (): Promise<void> =>
  new Promise((resolve) => {
    if (!selfChannel) {
      const channel = new MessageChannel();
      const inbox: SelfPort = channel.port1;
      const waiting: (() => void)[] = [];
      inbox.onmessage = () => {
        waiting.shift()?.();
        if (waiting.length === 0) inbox.unref?.();
      };
      selfChannel = { port: channel.port2, inbox, waiting };
    }
    selfChannel.waiting.push(resolve);
    selfChannel.inbox.ref?.();
    selfChannel.port.postMessage(null);
  });

/** How one streamed walk of a File goes. */
export interface StreamedWalk {
  /** The File, read front to back (sequentialRead), as `streams` streams at once when it is large. */
  readonly file: Blob;
  /** Bytes per slice read where a Blob has no byte stream (tests make them small). */
  readonly sliceBytes?: number;
  /**
   * Streams read at once (default 1): the File is cut at guessed batch starts (batch-start-guess.ts),
   * and a stream's walk is kept only where the one before it ends exactly at its start; from the first
   * that does not, one stream reads the rest. Chromium reads one File stream at about 1.6 GB/s here, four at 3 GB/s.
   */
  readonly streams?: number;
  /** The File for reads outside the ranges in memory (only after a batch_length that cannot be stepped over). */
  readonly source: ByteSource;
  readonly kernel: KernelWalker;
  /** Range workers to start (0: this thread walks everything). */
  readonly workers: number;
  /** Whether this thread walks ranges too (tests turn it off, so the workers walk every whole range). */
  readonly walkHere: boolean;
  readonly chunkBytes: number;
  readonly maxDiagnostics: number;
  readonly dropCodes: readonly DiagnosticCode[];
  readonly keepFrames?: boolean;
  readonly onProgress?: (done: number, total: number) => void;
}

/** Bytes read around each guessed cut to find a batch start in: a few of the largest batches Iggy's clients send. */
export const GUESS_PROBE_BYTES = 1 << 20;

/** Where the streams start: 0, then a plausible batch start near each even share of the File (fewer where none is found). */
export async function streamStarts(file: Blob, streams: number, probeBytes = GUESS_PROBE_BYTES): Promise<number[]> {
  const size = file.size;
  const cuts = Array.from({ length: Math.max(0, streams - 1) }, (_, k) => Math.floor((size * (k + 1)) / streams));
  const found = await Promise.all(
    cuts.map(async (at) => {
      const probe = new Uint8Array(await file.slice(at, Math.min(size, at + probeBytes)).arrayBuffer());
      const p = guessBatchStart(probe, at, size);
      return p < 0 ? -1 : at + p;
    }),
  );
  const starts = [0];
  for (const s of found) if (s > (starts.at(-1) as number) && s < size) starts.push(s);
  return starts;
}

/** The Analysis of the whole File, read as a stream (or several) and walked here and on `workers` range workers. */
export async function analyzeStreamed(walk: StreamedWalk): Promise<Analysis> {
  markPhase("walk-start");
  const size = walk.source.size;
  const keepFrames = walk.keepFrames ?? true;
  const dropFinding = dropCodesFinding([...walk.dropCodes]);
  const kernelModule = walk.workers > 0 ? await compileKernel() : null;
  const workers: RangeWorker[] = [];
  try {
    for (let i = 0; kernelModule && i < walk.workers; i++)
      workers.push(new RangeWorker(kernelModule, { size, keepFrames, maxDiagnostics: walk.maxDiagnostics, dropCodes: walk.dropCodes }));
  } catch {
    // Where a worker cannot start workers, this thread walks everything (the same result, one core).
  }
  // Chunk buffers back from walked ranges, reused by the reads: allocating a chunk per range cost about as much as reading it.
  const spare: ArrayBuffer[] = [];
  const streams = Math.max(1, walk.streams ?? 1);
  // Buffers this walk is done with: given to a range worker as it ends, or released here where there is none.
  const finishedWith = new Set<ArrayBuffer>();
  const dispose = (buffer: ArrayBuffer) => {
    if (workers.length === 0 || (buffer as ArrayBuffer & { resizable?: boolean }).resizable) releaseBuffer(buffer);
    else if (buffer.byteLength > 0) finishedWith.add(buffer);
  };
  const recycle = (buffer: ArrayBuffer) => {
    if (spare.length < 1 + streams + 2 * workers.length && buffer.byteLength >= walk.chunkBytes) spare.push(buffer);
    else dispose(buffer);
  };
  const allocate = (bytes: number): Uint8Array => {
    const i = spare.findIndex((b) => b.byteLength >= bytes);
    return i >= 0 ? new Uint8Array(spare.splice(i, 1)[0] as ArrayBuffer) : new Uint8Array(bytes);
  };
  for (const w of workers) w.onSpare = recycle;
  let done = 0;
  const finished = (plan: RangePlan) => {
    done = Math.min(size, done + plan.end - plan.start);
    walk.onProgress?.(done, size);
  };
  const walkHere = (plan: RangePlan, bytes: Uint8Array, frames?: KeptColumnsBuilder): RangeResult =>
    walkRange(walk.kernel, rangeSource(plan.start, bytes, size, walk.source), {
      ...plan,
      keepFrames,
      maxDiagnostics: walk.maxDiagnostics,
      windowBytes: MEMORY_WINDOW_BYTES,
      dropFinding,
      frames,
    });
  // The walks on range workers not yet answered: a stream with no free worker waits for one of them.
  const running = new Set<Promise<void>>();
  // Walks one cut range on a free range worker, or here; its result joins the stream's parts in input order, its frames the stream's sink.
  const dispatch = async (stream: StreamParts, { plan, bytes }: StreamedRange): Promise<void> => {
    const { parts } = stream;
    const whole = bytes.length >= plan.end - plan.start;
    for (;;) {
      const free = whole ? workers.find((w) => !w.failed && (w.isReady || !walk.walkHere) && w.inFlight < JOBS_IN_FLIGHT) : undefined;
      if (free) {
        const walked = free.run(plan, bytes).then((r) => {
          finished(plan);
          return r;
        });
        // Settled later, in order; a stream whose walk is not kept may fail meanwhile without an unhandled rejection.
        const answered = walked.then(
          () => undefined,
          () => undefined,
        );
        running.add(answered);
        void answered.then(() => running.delete(answered));
        parts.push(inTurn(stream, walked, plan));
        return;
      }
      if (walk.walkHere || !whole || workers.every((w) => w.failed)) break;
      // Every worker is busy and this thread does not walk: wait for one to answer (a timer's wait was clamped to
      // 4 ms once nested, longer than a worker takes to walk a 4 MiB range).
      await (running.size > 0 ? Promise.race(running) : new Promise((resolve) => setTimeout(resolve, 1)));
    }
    try {
      // Straight into the stream's columns when every part before it is in them.
      const into = stream.waiting === 0 && !stream.failed ? stream.sink?.columns : null;
      if (into) {
        parts.push(Promise.resolve(walkHere(plan, bytes, into)));
        stream.sink?.walked(plan.end - plan.start);
      } else parts.push(inTurn(stream, Promise.resolve(walkHere(plan, bytes)), plan));
    } catch (err) {
      // Kept for its turn: a stream started at a wrong guess may fail so, and its walk is then not kept (nor are its later parts).
      const failed = Promise.reject(err instanceof Error ? err : new Error(String(err)));
      failed.catch(() => undefined);
      stream.failed = true;
      stream.placed = failed;
      parts.push(failed);
    }
    recycle(bytes.buffer as ArrayBuffer);
    finished(plan);
    // Lets the workers' replies in before the next read.
    await yieldToEvents();
  };
  // A part's frames go to its stream's sink once every part before it has: its result then carries none.
  const inTurn = (stream: StreamParts, walked: Promise<RangeResult>, plan: RangePlan): Promise<RangeResult> => {
    if (!stream.sink) return walked;
    const sink = stream.sink;
    stream.waiting++;
    const placed = stream.placed.then(async () => {
      const r = await walked;
      stream.waiting--;
      if (!r.frames) return r;
      sink.place(r.frames, plan.end - plan.start);
      for (const b of frameColumnBuffers(r.frames)) dispose(b);
      return { ...r, frames: null };
    });
    placed.catch(() => (stream.failed = true));
    stream.placed = placed;
    return placed;
  };
  const readSpan = (span: StreamSpan, stream: StreamParts): Promise<number> =>
    streamRanges(
      size,
      sequentialRead(span.start === 0 && span.end === size ? walk.file : walk.file.slice(span.start, span.end), walk.sliceBytes),
      walk.chunkBytes,
      (r) => dispatch(stream, r),
      allocate,
      span,
    );
  const wide = widePositions(size);
  let streamed: StreamParts[] = [];
  try {
    const starts = streams > 1 && size > 0 ? await streamStarts(walk.file, streams) : [0];
    const spans = starts.map((start, k) => ({ start, end: starts[k + 1] ?? size, firstBatch: 0 }));
    // Every stream's frames in its share of one set of columns for the whole input.
    const file = keepFrames ? new FileFrames(starts, size, wide) : null;
    streamed = spans.map((_, k) => newStream(file?.sinks[k] ?? null));
    const reached = await Promise.all(spans.map((span, k) => readSpan(span, streamed[k] as StreamParts)));
    const kept: RangeResult[] = [];
    const keptStreams: StreamParts[] = [];
    let batches = 0;
    for (const [k, span] of spans.entries()) {
      const stream = streamed[k] as StreamParts;
      keptStreams.push(stream);
      // A stream numbers its batches from 0: they follow the batches of the streams before it.
      const before = batches;
      for (const part of await Promise.all(stream.parts)) {
        kept.push(shiftRangeBatches(part, before));
        batches += part.batches.length;
      }
      if (reached[k] === span.end) continue;
      // The next stream's start was not where this stream's batches step to: its walk and the later ones go, one stream reads the rest.
      for (const later of streamed.slice(k + 1)) {
        for (const r of await Promise.allSettled(later.parts)) if (r.status === "fulfilled") releaseParts(r.value, dispose);
        await later.placed.catch(() => undefined);
      }
      const rest = { ...newStream(stream.sink), placed: stream.placed };
      stream.sink?.cover(size - span.start);
      done = reached[k] as number;
      await readSpan({ start: reached[k] as number, end: size, firstBatch: batches }, rest);
      for (const r of await Promise.all(rest.parts)) kept.push(r);
      break;
    }
    markPhase("read-walked");
    const merged = mergeRanges(size, kept, walk.maxDiagnostics, dropFinding, dispose, file?.finish(keptStreams.length, dispose));
    markPhase("merged");
    return merged;
  } finally {
    // The chunk buffers kept for reuse go now, with the joined parts' columns: an idle worker may not collect for a long while.
    for (const b of spare.splice(0)) dispose(b);
    const alive = workers.find((w) => !w.failed);
    if (alive) alive.discard([...finishedWith]);
    else for (const b of finishedWith) releaseBuffer(b);
    for (const w of workers) w.terminate();
  }
}

/** The parts of one stream, in input order, and where its frames go. */
interface StreamParts {
  readonly parts: Promise<RangeResult>[];
  /** Null without keepFrames: each part keeps its own (none). */
  readonly sink: FrameSink | null;
  /** Settles once every part so far has its frames in the sink. */
  placed: Promise<unknown>;
  /** Parts walked elsewhere whose frames are not in the sink yet. */
  waiting: number;
  /** Whether a part failed: the later ones are not placed (the stream is not kept, or the walk fails). */
  failed: boolean;
}

function newStream(sink: FrameSink | null): StreamParts {
  return { parts: [], sink, placed: Promise.resolve(), waiting: 0, failed: false };
}

// A walked range that is not kept: its columns' buffers go.
function releaseParts(range: RangeResult, dispose: (buffer: ArrayBuffer) => void): void {
  if (range.frames) for (const b of frameColumnBuffers(range.frames)) dispose(b);
}
