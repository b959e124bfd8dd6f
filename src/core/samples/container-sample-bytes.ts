/** The bytes of the container samples (container-samples.ts): stamped chains, segment pairs, indexes, message bodies, consensus headers, legacy dumps. */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { ByteReader } from "../../format/reader.ts";
import { ByteWriter } from "../../format/writer.ts";
import { concat, encodeBatch, stampBatch, type MessageSpec } from "../walk/encode.ts";

/** One named file of a sample. */
export interface SampleFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export const T0 = 1_764_500_000_000_000n;
export const u32 = (v: number): Uint8Array => {
  const w = ByteWriter.alloc(4);
  w.u32(0, v);
  return w.bytes;
};
export const u64 = (v: bigint): Uint8Array => {
  const w = ByteWriter.alloc(8);
  w.u64(0, v);
  return w.bytes;
};
export const name20 = (n: bigint, ext: string): string => `${n.toString().padStart(20, "0")}.${ext}`;
export const text = new TextEncoder();

export function messages(count: number, first: number): MessageSpec[] {
  return Array.from({ length: count }, (_, i) => ({ id: BigInt(0x1000 + first + i), payload: `{"reading":${first + i}}`, timestampDelta: i * 100 }));
}

/** Stamped batches chained from `start`: the bytes of each and where each starts. */
export function stampedChain(xxh: Xxh3, start: bigint, sizes: readonly number[], partition = 3n, t = T0): { batches: Uint8Array[]; positions: number[] } {
  const batches: Uint8Array[] = [];
  const positions: number[] = [];
  let offset = start;
  let at = 0;
  sizes.forEach((n, k) => {
    const b = stampBatch(xxh, encodeBatch(xxh, { originTimestamp: t - 1000n + BigInt(k) * 1000n, messages: messages(n, Number(offset)) }), {
      partitionId: partition,
      baseOffset: offset,
      baseTimestamp: t + BigInt(k) * 1000n,
    });
    batches.push(b);
    positions.push(at);
    at += b.length;
    offset += BigInt(n);
  });
  return { batches, positions };
}

/** Index entries for chosen batches of a chain. */
export function indexOf(batches: readonly Uint8Array[], positions: readonly number[], pick: readonly number[]): Uint8Array {
  return concat(
    pick.flatMap((k) => {
      const r = new ByteReader(batches[k] as Uint8Array);
      return [u64(r.u64(8)), u64(r.u64(16)), u64(BigInt(positions[k] as number))];
    }),
  );
}

export function patch(bytes: Uint8Array, at: number, value: Uint8Array): Uint8Array {
  const out = bytes.slice();
  out.set(value, at);
  return out;
}

export function segmentPair(xxh: Xxh3, start: bigint, sizes: readonly number[], pick: readonly number[] = [0]): SampleFile[] {
  const { batches, positions } = stampedChain(xxh, start, sizes);
  return [
    { name: name20(start, "log"), bytes: concat(batches) },
    { name: name20(start, "index"), bytes: indexOf(batches, positions, pick) },
  ];
}

export function identifier(v: number | string): Uint8Array {
  if (typeof v === "number") return concat([Uint8Array.of(1, 4), u32(v)]);
  const b = text.encode(v);
  return concat([Uint8Array.of(2, b.length), b]);
}

export function sendBody(
  xxh: Xxh3,
  opts: { count?: number; messages?: number; partitioning?: Uint8Array; trailing?: number; batch?: Uint8Array; metaPad?: number } = {},
): Uint8Array {
  const batch = opts.batch ?? encodeBatch(xxh, { originTimestamp: T0, messages: messages(opts.messages ?? 2, 0) });
  const partitioning = opts.partitioning ?? concat([Uint8Array.of(2, 4), u32(3)]);
  const fields = concat([identifier("orders"), identifier(2), partitioning, u32(opts.count ?? opts.messages ?? 2), new Uint8Array(opts.metaPad ?? 0)]);
  return concat([u32(fields.length), fields, batch, new Uint8Array(opts.trailing ?? 0)]);
}

export function pollBody(xxh: Xxh3, opts: { partition?: number; count?: number; recordPartition?: bigint; sliced?: boolean } = {}): Uint8Array {
  const partition = opts.partition ?? 3;
  const { batches } = stampedChain(xxh, 100n, [2, 3], opts.recordPartition ?? BigInt(partition));
  let records = batches;
  if (opts.sliced) {
    // The tail of a stored batch: frames 2..4 keep offset deltas 2..4 and nonzero timestamp deltas.
    const full = encodeBatch(xxh, { originTimestamp: T0 - 1000n, messages: messages(5, 100).map((m, i) => ({ ...m, timestampDelta: 100 + i * 100 })) });
    const all = stampBatch(xxh, full, { partitionId: BigInt(partition), baseOffset: 100n, baseTimestamp: T0 });
    records = [sliceTail(xxh, all, 2)];
  }
  const sum = records.reduce((n, b) => n + new ByteReader(b).u32(48), 0);
  return concat([u32(partition), u64(104n), u32(opts.count ?? sum), ...records]);
}

/** A stamped batch's tail from frame `from`, header rewritten as the server does for a poll (batch_length, message_count, checksum). */
export function sliceTail(xxh: Xxh3, batch: Uint8Array, from: number): Uint8Array {
  const r = new ByteReader(batch);
  let f = 256;
  const starts: number[] = [];
  while (f < batch.length) {
    starts.push(f);
    f += 48 + r.u32(f + 32) + r.u32(f + 36);
  }
  const out = concat([batch.subarray(0, 256), batch.subarray(starts[from])]);
  const w = new ByteWriter(out);
  w.u64(32, BigInt(out.length));
  w.u32(48, starts.length - from);
  const o = new ByteReader(out);
  return stampBatch(xxh, out, { partitionId: o.u64(0), baseOffset: o.u64(8), baseTimestamp: o.u64(16) });
}

/** A 256-byte consensus header (size at 48, command at 60, more set by `set`) followed by `body`. */
export function consensus(command: number, body: Uint8Array, set: (w: ByteWriter) => void = () => {}): Uint8Array {
  const w = ByteWriter.alloc(256 + body.length);
  w.u32(48, w.length);
  w.u8(60, command);
  set(w);
  w.set(256, body);
  return w.bytes;
}

export function prepare(xxh: Xxh3, timestampShift = 0n, sizeShift = 0): Uint8Array {
  const { batches } = stampedChain(xxh, 500n, [3]);
  const b = batches[0] as Uint8Array;
  const ts = new ByteReader(b).u64(16);
  return consensus(6, b, (w) => {
    out208(w);
    w.u64(192, ts + timestampShift);
    w.u32(48, 256 + b.length + sizeShift);
  });
}
export const out208 = (w: ByteWriter) => w.u8(208, 160);

/** Legacy messages from a chain of stamped batches, as `iggy message poll --output-file` writes them. */
export function legacyDump(xxh: Xxh3, opts: { fromFrame?: number; reservedAt?: number; cut?: number } = {}): Uint8Array {
  const { batches } = stampedChain(xxh, 700n, [2, 3]);
  const out: Uint8Array[] = [];
  for (const [bi, b] of batches.entries()) {
    const r = new ByteReader(b);
    const base = r.u64(8);
    const ts = r.u64(16);
    const origin = r.u64(24);
    let f = 256;
    let k = 0;
    while (f < b.length) {
      const uh = r.u32(f + 32);
      const pl = r.u32(f + 36);
      if (bi > 0 || k >= (opts.fromFrame ?? 0)) {
        const h = ByteWriter.alloc(64);
        h.set(0, b.subarray(f, f + 24)); // checksum and id, as the frame holds them
        h.u64(24, base + BigInt(r.u32(f + 24)));
        h.u64(32, ts);
        h.u64(40, origin + BigInt(r.u32(f + 28)));
        h.u32(48, uh);
        h.u32(52, pl);
        out.push(h.bytes, b.slice(f + 48, f + 48 + pl + uh));
      }
      f += 48 + pl + uh;
      k++;
    }
  }
  let bytes = concat(out);
  if (opts.reservedAt !== undefined) bytes = patch(bytes, 64 * 0 + 56 + opts.reservedAt, Uint8Array.of(1));
  if (opts.cut) bytes = bytes.subarray(0, bytes.length - opts.cut);
  return bytes;
}
