/** Typed-array columns copied into one buffer, each 8-byte aligned: what a range worker hands over as one releasable buffer. */

/** A column kind a model keeps. */
export type PackableColumn = Uint8Array | Uint16Array | Uint32Array | Float64Array | BigUint64Array;

/** The columns copied, in order, into views of one buffer from `allocate` (8-byte aligned, for the 8-byte element views). */
export function packColumns<const T extends readonly PackableColumn[]>(columns: T, allocate: (bytes: number) => ArrayBuffer): T {
  const sizes = columns.map((c) => Math.ceil(c.byteLength / 8) * 8);
  const buffer = allocate(sizes.reduce((n, s) => n + s, 0));
  let at = 0;
  return columns.map((c, k) => {
    const view = new (c.constructor as new (b: ArrayBuffer, offset: number, length: number) => PackableColumn)(buffer, at, c.length);
    view.set(c as never);
    at += sizes[k] as number;
    return view;
  }) as unknown as T;
}
