/** Test bytes: stamped batches written out as legacy 64-byte messages, as `iggy message poll --output-file` does. */
import { concat } from "../encode.ts";

/** Each frame of `batches` as one legacy message: id, absolute offset, the batch's timestamp, its origin time, lengths, body. */
export function legacyDumpOf(batches: readonly Uint8Array[]): Uint8Array {
  const out: Uint8Array[] = [];
  for (const b of batches) {
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    for (let f = 256; f < b.length;) {
      const uh = v.getUint32(f + 32, true);
      const pl = v.getUint32(f + 36, true);
      const h = new Uint8Array(64);
      const hv = new DataView(h.buffer);
      h.set(b.subarray(f, f + 24), 0);
      hv.setBigUint64(24, v.getBigUint64(8, true) + BigInt(v.getUint32(f + 24, true)), true);
      hv.setBigUint64(32, v.getBigUint64(16, true), true);
      hv.setBigUint64(40, v.getBigUint64(24, true) + BigInt(v.getUint32(f + 28, true)), true);
      hv.setUint32(48, uh, true);
      hv.setUint32(52, pl, true);
      out.push(h, b.subarray(f + 48, f + 48 + pl + uh));
      f += 48 + pl + uh;
    }
  }
  return concat(out);
}
