/** Reads a Blob (a File) into one ArrayBuffer without a second copy of it in memory. */
import { byobReader, heldRead } from "./byob-read.ts";

/** Bytes per slice where the byte stream is missing: small enough that the garbage stays small. */
export const SLICE_BYTES = 4 << 20;

/**
 * The Blob's bytes in one ArrayBuffer, written straight into it by a BYOB reader of `blob.stream()`
 * (slices of SLICE_BYTES where that is missing). Slices read one by one leave each as garbage until
 * a collection: measured by `npm run bench:page` (BENCH_TRACE=1), the renderer grew by 1.5 × a
 * 256 MiB file while reading it in 4 MiB slices, and by 1.0 × through the BYOB reader.
 */
export async function readBlob(blob: Blob): Promise<ArrayBuffer> {
  const size = blob.size;
  if (size <= SLICE_BYTES) return blob.arrayBuffer();
  const byob = await readByob(blob, size);
  if (byob) return byob;
  const out = new Uint8Array(size);
  for (let at = 0; at < size; at += SLICE_BYTES) {
    const part = await blob.slice(at, Math.min(size, at + SLICE_BYTES)).arrayBuffer();
    if (part.byteLength !== Math.min(SLICE_BYTES, size - at)) throw new Error(`the file changed while it was read (${part.byteLength} bytes at ${at})`);
    out.set(new Uint8Array(part), at);
  }
  return out.buffer;
}

// Null where the stream is not a byte stream (no BYOB reader).
async function readByob(blob: Blob, size: number): Promise<ArrayBuffer | null> {
  const reader = byobReader(blob);
  if (!reader) return null;
  // Each read hands the buffer back (transferred), so the next read goes into the returned one.
  let buffer = new ArrayBuffer(size);
  let at = 0;
  try {
    while (at < size) {
      const { value, done } = await heldRead(reader, blob, new Uint8Array(buffer, at, Math.min(SLICE_BYTES, size - at)));
      if (!value) throw new Error("the file could not be read");
      buffer = value.buffer;
      at += value.byteLength;
      if (done) break;
    }
  } finally {
    reader.releaseLock();
  }
  if (at !== size) throw new Error(`the file changed while it was read (${at} of ${size} bytes)`);
  return buffer;
}
