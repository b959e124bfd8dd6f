/** Test bytes: stamped batches written out as legacy 64-byte messages, as `iggy message poll --output-file` does. */
import { ByteReader } from "../../format/reader.ts";
import { ByteWriter } from "../../format/writer.ts";
import { concat } from "../walk/encode.ts";

/** Each frame of `batches` as one legacy message: id, absolute offset, the batch's timestamp, its origin time, lengths, body. */
export function legacyDumpOf(batches: readonly Uint8Array[]): Uint8Array {
  const out: Uint8Array[] = [];
  for (const b of batches) {
    const r = new ByteReader(b);
    for (let f = 256; f < b.length;) {
      const uh = r.u32(f + 32);
      const pl = r.u32(f + 36);
      const h = ByteWriter.alloc(64);
      h.set(0, b.subarray(f, f + 24));
      h.u64(24, r.u64(8) + BigInt(r.u32(f + 24)));
      h.u64(32, r.u64(16));
      h.u64(40, r.u64(24) + BigInt(r.u32(f + 28)));
      h.u32(48, uh);
      h.u32(52, pl);
      out.push(h.bytes, b.subarray(f + 48, f + 48 + pl + uh));
      f += 48 + pl + uh;
    }
  }
  return concat(out);
}
