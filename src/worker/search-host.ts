/** The host-independent body of the search worker: keeps the bytes, runs one search at a time, obeys cancels. */
import { searchBytes } from "../core/search.ts";
import type { FromSearchWorker, ToSearchWorker } from "./search-protocol.ts";

/** A message handler bound to a poster; the worker entry and tests wire it to their own channel. */
export function createSearchHost(post: (message: FromSearchWorker, transfer: Transferable[]) => void): (message: ToSearchWorker) => void {
  let data: { token: number; bytes: Uint8Array; received: number } | null = null;
  const cancelled = new Set<number>();
  // A macrotask break: a cancel posted meanwhile is handled before the next chunk (setTimeout would clamp to 4 ms).
  const channel = new MessageChannel();
  const waiting: Array<() => void> = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  const pause = () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(0);
    });

  return (message) => {
    if (message.type === "search-data") {
      const piece = new Uint8Array(message.buffer);
      const offset = message.offset ?? 0;
      if (offset === 0 || !data || data.token !== message.token) {
        const total = message.total ?? piece.length;
        data = { token: message.token, bytes: total === piece.length ? piece : new Uint8Array(total), received: 0 };
      }
      if (data.bytes !== piece) data.bytes.set(piece, offset);
      data.received += piece.length;
      return;
    }
    if (message.type === "search-cancel") {
      cancelled.add(message.id);
      return;
    }
    const { id } = message;
    if (!data || data.token !== message.token || data.received < data.bytes.length) {
      post({ type: "search-error", id, message: "the bytes to search were not sent" }, []);
      return;
    }
    let lastReport = 0;
    void searchBytes(data.bytes, message.pattern, {
      limit: message.limit,
      pause,
      cancelled: () => cancelled.has(id),
      onProgress: (done, total, hits) => {
        const now = Date.now();
        if (now - lastReport >= 50 || done === total) {
          lastReport = now;
          post({ type: "search-progress", id, done, total, hits }, []);
        }
      },
    }).then(
      (result) => {
        cancelled.delete(id);
        if (!result) return;
        const starts = Float64Array.from(result.starts);
        post({ type: "search-result", id, starts, capped: result.capped }, [starts.buffer]);
      },
      (err: unknown) => post({ type: "search-error", id, message: err instanceof Error ? err.message : String(err) }, []),
    );
  };
}
