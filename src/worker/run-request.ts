/** The host-independent body of the worker: one request in, progress and one reply out. */
import { analyze } from "../core/analyze.ts";
import { frameColumnBuffers } from "../core/frame-columns.ts";
import { decodeShareResult } from "../lib/share-codec.ts";
import { patchedInput } from "./patched-input.ts";
import type { FromWorker, ToWorker } from "./protocol.ts";

/** Runs a request, posting progress and a result or an error reply; transferables go with the result. */
export async function runRequest(request: ToWorker, post: (message: FromWorker, transfer: Transferable[]) => void): Promise<void> {
  const { id } = request;
  if (request.type === "decode-share") {
    const result = decodeShareResult(request.fragment);
    post({ type: "shared", id, result }, result.ok ? [result.state.bytes.buffer as ArrayBuffer] : []);
    return;
  }
  if (request.type === "analyze-patched") {
    try {
      const base = request.base instanceof Blob ? await request.base.arrayBuffer() : request.base;
      const bytes = patchedInput(request.key, request.patches, base);
      if (!bytes) { post({ type: "need-base", id }, []); return; }
      const analysis = await analyze(bytes, { startOffset: request.startOffset });
      post({ type: "patched-result", id, analysis }, frameColumnBuffers(analysis.frames));
    } catch (err) {
      post({ type: "error", id, message: err instanceof Error ? err.message : String(err) }, []);
    }
    return;
  }
  try {
    const buffer = request.input instanceof ArrayBuffer ? request.input : await request.input.arrayBuffer();
    const bytes = new Uint8Array(buffer);
    const analysis = await analyze(bytes, { startOffset: request.startOffset, onProgress: (done, total) => post({ type: "progress", id, done, total }, []) });
    post({ type: "result", id, buffer, analysis }, [buffer, ...frameColumnBuffers(analysis.frames)]);
  } catch (err) {
    // Every request gets a reply, so the page never waits on a request that failed.
    post({ type: "error", id, message: err instanceof Error ? err.message : String(err) }, []);
  }
}
