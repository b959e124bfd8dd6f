/**
 * The host-independent body of the search worker: reads the input front to back from its Blob
 * through one BYOB stream into two reused window buffers (the edited runs written over each), runs
 * one search at a time, obeys cancels. It holds two windows, never the input, and makes no garbage
 * per window; where a Blob cannot be streamed that way, windows are sliced from it instead.
 */
import { createSHA256 } from "hash-wasm";
import type { Patch } from "../core/edit-overlay.ts";
import { byobReader, heldRead } from "./byob-read.ts";
import { searchWindows, type WindowReader } from "../core/search.ts";
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
    const windows = streamedWindows(source, patches, window, Math.max(0, pattern.length - 1)) ?? slicedWindows(source, patches);
    let lastReport = 0;
    // Each window is read asynchronously, so a cancel posted meanwhile is handled before the next one is searched.
    void searchWindows(
      source.size,
      windows.read,
      pattern,
      {
        limit: message.limit,
        chunk: window,
        cancelled: () => cancelled.has(id),
        onProgress: (done, total, hits) => {
          const now = Date.now();
          if (now - lastReport >= 50 || done === total) {
            lastReport = now;
            post({ type: "search-progress", id, done, total, hits }, []);
          }
        },
      },
      windows.ahead,
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
        windows.close();
        cancelled.delete(id);
      });
  };
}
