/**
 * The host-independent body of the search worker: reads the input from its Blob a window at a
 * time (the edited runs written over each window), runs one search at a time, obeys cancels.
 * It holds at most SEARCH_READS_AHEAD + 1 windows, never the input.
 */
import type { Patch } from "../core/edit-overlay.ts";
import { searchWindows } from "../core/search.ts";
import type { FromSearchWorker, ToSearchWorker } from "./search-protocol.ts";

/** Bytes read from the Blob at a time. */
export const SEARCH_WINDOW = 8 << 20;
/** Windows read ahead while one is searched (at most this many + 1, 32 MiB, are live): reads of a File overlap well (8 MiB × 3 ahead read 256 MiB in 171–195 ms where 1 ahead took 263–353 ms, interleaved in one browser). */
export const SEARCH_READS_AHEAD = 3;

/** Bytes [start, end) of source with the patches that overlap them written over. */
export async function readPatched(source: Blob, patches: readonly Patch[], start: number, end: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(await source.slice(start, end).arrayBuffer());
  for (const p of patches) {
    const from = Math.max(start, p.start);
    const to = Math.min(end, p.start + p.bytes.length);
    if (from < to) bytes.set(p.bytes.subarray(from - p.start, to - p.start), from - start);
  }
  return bytes;
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
    const { id, source, patches } = message;
    let lastReport = 0;
    // Each window is read asynchronously, so a cancel posted meanwhile is handled before the next one is searched.
    void searchWindows(
      source.size,
      (start, end) => readPatched(source, patches, start, end),
      message.pattern,
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
      SEARCH_READS_AHEAD,
    )
      .then(
        (result) => {
          if (!result) return;
          const starts = Float64Array.from(result.starts);
          post({ type: "search-result", id, starts, capped: result.capped }, [starts.buffer]);
        },
        (err: unknown) => post({ type: "search-error", id, message: err instanceof Error ? err.message : String(err) }, []),
      )
      .finally(() => cancelled.delete(id));
  };
}
