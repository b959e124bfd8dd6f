/** Freeing an ArrayBuffer's memory now rather than at the next collection: for the large ones a walk is done with. */

/** Detaches `buffer` and lets its memory go at once (ArrayBuffer.transfer(0)); where the engine lacks it, or the buffer cannot be detached (a wasm memory's), nothing happens. */
export function releaseBuffer(buffer: ArrayBufferLike): void {
  try {
    (buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
  } catch {
    // not detachable
  }
}
