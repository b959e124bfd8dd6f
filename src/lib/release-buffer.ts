/** Freeing an ArrayBuffer's memory now rather than at the next collection: for the large ones a walk is done with. */

/**
 * An ArrayBuffer of `bytes` that releaseBuffer can free at once wherever it has been transferred to:
 * a resizable one where the engine has them (Chromium frees a resized-away buffer's pages at once, in any
 * worker; a detached plain buffer that came from another worker waits for a collection), else a plain one.
 */
export function releasableBuffer(bytes: number): ArrayBuffer {
  try {
    return new (ArrayBuffer as new (n: number, o?: { maxByteLength: number }) => ArrayBuffer)(bytes, { maxByteLength: Math.max(1, bytes) });
  } catch {
    return new ArrayBuffer(bytes);
  }
}

type Releasable = ArrayBuffer & { resizable?: boolean; resize?: (length: number) => void; transfer?: (length: number) => ArrayBuffer };

/**
 * Lets `buffer`'s memory go at once: a resizable buffer is resized to 0, any other detached
 * (ArrayBuffer.transfer(0), freed at once only for a buffer made in this thread, measured in Chromium);
 * where the engine has neither, or the buffer cannot be detached (a wasm memory's), nothing happens.
 */
export function releaseBuffer(buffer: ArrayBufferLike): void {
  const b = buffer as Releasable;
  try {
    if (b.resizable && b.resize) b.resize(0);
    else b.transfer?.(0);
  } catch {
    // not detachable
  }
}
