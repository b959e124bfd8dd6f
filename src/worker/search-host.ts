/**
 * The host-independent body of the search worker: reads the input front to back from its Blob
 * through one BYOB stream into two reused window buffers (the edited runs written over each), or from
 * 64 MiB on four parts of it at once, each so; runs one search at a time, obeys cancels. It holds two
 * windows a part, never the input, and makes no garbage per window; where a Blob cannot be streamed
 * that way, windows are sliced from it instead.
 */
import { createSHA256 } from "hash-wasm";
import type { Patch } from "../core/edit/edit-overlay.ts";
import { byobReader, heldRead } from "./byob-read.ts";
import { throttleProgress } from "./progress-throttle.ts";
import { searchWindows, type WindowReader } from "../core/view/search.ts";
import type { FromSearchWorker, ToSearchWorker } from "./search-protocol.ts";

/** Bytes searched at a time. */
export const SEARCH_WINDOW = 8 << 20;
/**
 * Sliced windows read ahead while one is searched (the fallback): slices of a File overlap well.
 * Streamed, one BYOB stream read 256 MiB in 153–267 ms where 8 MiB slices 3 ahead took 332–419 ms
 * (interleaved in one browser), so streaming is the first choice.
 */
export const SLICES_AHEAD = 3;

function writePatches(bytes: Uint8Array, start: number, patches: readonly Patch[]): Uint8Array {
  const end = start + bytes.length;
  for (const p of patches) {
    const from = Math.max(start, p.start);
    const to = Math.min(end, p.start + p.bytes.length);
    if (from < to) bytes.set(p.bytes.subarray(from - p.start, to - p.start), from - start);
  }
  return bytes;
}

/** Bytes [start, end) of source with the patches that overlap them written over (a new buffer). */
export async function readPatched(source: Blob, patches: readonly Patch[], start: number, end: number): Promise<Uint8Array> {
  return writePatches(new Uint8Array(await source.slice(start, end).arrayBuffer()), start, patches);
}

/** A window reader and how to let go of what it holds. */
interface Windows {
  readonly read: WindowReader;
  readonly ahead: number;
  close(): void;
}

/**
 * Windows of source read in order (start 0, window, 2 × window, …) through one BYOB stream into two
 * buffers used in turn, one searched while the other fills; a window's first bytes past the previous
 * window (the overlap) are carried over from it. Null when the Blob offers no BYOB stream.
 */
export function streamedWindows(source: Blob, patches: readonly Patch[], window: number, overlap: number): Windows | null {
  const reader = byobReader(source);
  if (!reader) return null;
  const buffers = [new ArrayBuffer(window + overlap), new ArrayBuffer(window + overlap)];
  let turn = 0;
  let previous: Uint8Array | null = null;
  let streamed = 0;
  const read: WindowReader = async (start, end) => {
    if (start !== (previous ? streamed - (previous.length - window) : 0)) throw new Error("windows must be read in order");
    let view = new Uint8Array(buffers[turn] as ArrayBuffer);
    let filled = 0;
    if (previous && streamed > start) {
      view.set(previous.subarray(previous.length - (streamed - start)));
      filled = streamed - start;
    }
    const want = Math.min(end - start, view.length);
    while (filled < want) {
      const { done, value } = await heldRead(reader, source, new Uint8Array(view.buffer, filled, want - filled));
      // The read hands the buffer back (the one passed in is detached).
      if (value) view = new Uint8Array(value.buffer);
      if (done || !value) break;
      filled += value.byteLength;
    }
    buffers[turn] = view.buffer;
    turn ^= 1;
    streamed = start + filled;
    previous = writePatches(view.subarray(0, filled), start, patches);
    return previous;
  };
  return { read, ahead: 1, close: () => void reader.cancel().catch(() => undefined) };
}

function slicedWindows(source: Blob, patches: readonly Patch[]): Windows {
  return { read: (start, end) => readPatched(source, patches, start, end), ahead: SLICES_AHEAD, close: () => undefined };
}

/** Parts of a large input searched at once, each through its own stream: one stream is bound by its reads' latency. */
export const SEARCH_STREAMS = 4;
/** Inputs from this size on are searched in parts. */
export const SEARCH_PARALLEL_FROM = 64 << 20;

/**
 * What searchWindows gives for the whole of source, from `parts` even parts searched at once, each
 * streamed from its own slice (with pattern.length − 1 bytes past its end, so a match across two parts
 * is found once, by the first): each part keeps its first `limit` hits, and the first `limit` of all are kept.
 */
export async function searchParts(
  source: Blob,
  patches: readonly Patch[],
  pattern: Uint8Array,
  limit: number,
  window: number,
  parts: number,
  cancelled: () => boolean,
  onProgress: (done: number, hits: number) => void,
): Promise<{ starts: number[]; capped: boolean } | null> {
  const size = source.size;
  const overlap = Math.max(0, pattern.length - 1);
  const cuts = Array.from({ length: parts + 1 }, (_, k) => Math.floor((size * k) / parts));
  const done = new Array<number>(parts).fill(0);
  const hits = new Array<number>(parts).fill(0);
  const opened: Windows[] = [];
  const one = async (k: number) => {
    const from = cuts[k] as number;
    const to = cuts[k + 1] as number;
    const slice = source.slice(from, Math.min(size, to + overlap));
    const shifted = patches.map((p) => ({ ...p, start: p.start - from }));
    const windows = streamedWindows(slice, shifted, window, overlap) ?? slicedWindows(slice, shifted);
    opened.push(windows);
    const found = await searchWindows(slice.size, windows.read, pattern, {
      limit,
      chunk: window,
      cancelled,
      onProgress: (bytes, _total, n) => {
        done[k] = Math.min(bytes, to - from);
        hits[k] = n;
        onProgress(
          done.reduce((a, b) => a + b, 0),
          hits.reduce((a, b) => a + b, 0),
        );
      },
    });
    // The overlap is one byte short of a pattern, so every hit found starts inside the part.
    return found && found.starts.map((at) => at + from);
  };
  try {
    const found = await Promise.all(cuts.slice(0, -1).map((_, k) => one(k)));
    if (found.some((f) => f === null)) return null;
    const starts = (found as number[][]).flat();
    return { starts: starts.slice(0, limit), capped: starts.length >= limit };
  } finally {
    for (const w of opened) w.close();
  }
}

/** Bytes hashed at a time: two such windows are all a digest holds. */
export const DIGEST_WINDOW = 2 << 20;

/** The lowercase hex SHA-256 of source, read in windows of `window` bytes (streamed where the Blob allows). */
export async function blobSha256(source: Blob, window = DIGEST_WINDOW): Promise<string> {
  const windows = streamedWindows(source, [], window, 0) ?? slicedWindows(source, []);
  try {
    const hasher = await createSHA256();
    for (let at = 0; at < source.size; at += window) {
      const want = Math.min(source.size, at + window) - at;
      const bytes = await windows.read(at, at + want);
      if (bytes.length !== want) throw new Error(`the file changed while it was read (${bytes.length} of ${want} bytes at ${at})`);
      hasher.update(bytes);
    }
    return hasher.digest("hex");
  } finally {
    windows.close();
  }
}

/** A message handler bound to a poster; the worker entry and tests wire it to their own channel. */
export function createSearchHost(
  post: (message: FromSearchWorker, transfer: Transferable[]) => void,
  window = SEARCH_WINDOW,
  /** From this size on, a search reads SEARCH_STREAMS parts of the input at once. */
  parallelFrom = SEARCH_PARALLEL_FROM,
): (message: ToSearchWorker) => void {
  const cancelled = new Set<number>();
  return (message) => {
    if (message.type === "search-cancel") {
      cancelled.add(message.id);
      return;
    }
    if (message.type === "digest") {
      const { id } = message;
      void blobSha256(message.source, Math.min(window, DIGEST_WINDOW)).then(
        (hex) => post({ type: "digest-result", id, hex }, []),
        (err: unknown) => post({ type: "search-error", id, message: err instanceof Error ? err.message : String(err) }, []),
      );
      return;
    }
    const { id, source, patches, pattern } = message;
    const parts = source.size >= parallelFrom ? SEARCH_STREAMS : 1;
    const report = throttleProgress((done: number, total: number, hits: number) => post({ type: "search-progress", id, done, total, hits }, []), 50);
    // Half windows in parts: four parts hold 4 × 2 windows, not 2.
    const search =
      parts > 1
        ? searchParts(
            source,
            patches,
            pattern,
            message.limit,
            Math.max(1, window >> 1),
            parts,
            () => cancelled.has(id),
            (done, hits) => report(done, source.size, hits),
          )
        : null;
    const whole = search ? null : (streamedWindows(source, patches, window, Math.max(0, pattern.length - 1)) ?? slicedWindows(source, patches));
    // Each window is read asynchronously, so a cancel posted meanwhile is handled before the next one is searched.
    void (
      search ??
      searchWindows(
        source.size,
        (whole as Windows).read,
        pattern,
        { limit: message.limit, chunk: window, cancelled: () => cancelled.has(id), onProgress: report },
        (whole as Windows).ahead,
      )
    )
      .then(
        (result) => {
          if (!result) return;
          const starts = Float64Array.from(result.starts);
          post({ type: "search-result", id, starts, capped: result.capped }, [starts.buffer]);
        },
        (err: unknown) => post({ type: "search-error", id, message: err instanceof Error ? err.message : String(err) }, []),
      )
      .finally(() => {
        whole?.close();
        cancelled.delete(id);
      });
  };
}
