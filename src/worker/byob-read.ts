/**
 * Reads of a Blob's byte stream through a BYOB reader, each holding its reader and Blob until it
 * settles: Chromium collected a stream that only its own pending read referred to (a File read as four
 * streams in a worker that allocated a lot), and that read never ended.
 */

const readsInFlight = new Set<{ readonly reader: ReadableStreamBYOBReader; readonly blob: Blob }>();

/** A BYOB reader of the Blob's stream, or null where it is not a byte stream. */
export function byobReader(blob: Blob): ReadableStreamBYOBReader | null {
  try {
    return blob.stream().getReader({ mode: "byob" });
  } catch {
    return null;
  }
}

/** reader.read(view), with the reader and its Blob held until the read settles. */
export async function heldRead(
  reader: ReadableStreamBYOBReader,
  blob: Blob,
  view: Uint8Array<ArrayBuffer>,
): Promise<ReadableStreamReadResult<Uint8Array<ArrayBuffer>>> {
  const held = { reader, blob };
  readsInFlight.add(held);
  try {
    return await reader.read(view);
  } finally {
    readsInFlight.delete(held);
  }
}
