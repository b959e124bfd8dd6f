/**
 * Where a loaded input's bytes came from, when that was a File or Blob: a worker that needs the
 * original again (the patched re-check of a large edited input) reads it from there instead of
 * the page copying its bytes over.
 */
const sources = new WeakMap<Uint8Array, Blob>();

/** Records that `bytes` were read from `blob` (unchanged). */
export function rememberSource(bytes: Uint8Array, blob: Blob): void {
  if (blob.size === bytes.length) sources.set(bytes, blob);
}

/** The Blob `bytes` were read from, if any. */
export function sourceOf(bytes: Uint8Array): Blob | undefined {
  return sources.get(bytes);
}
