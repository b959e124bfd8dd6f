/** An encoder of valid batches (producer or stamped), for tests, the page's samples and the batch builder. */
import { BATCH_HEADER_SIZE, FRAME_HEADER_SIZE } from "../format/fields.ts";
import { HEADER_KINDS } from "../format/user-headers.ts";
import type { Xxh3 } from "../checksum/xxh3.ts";
import { computeBatchChecksum } from "../checksum/verify.ts";

/** A TLV kind by number (1..15) or by name ("string", "u64", …). */
export type HeaderKind = number | (typeof HEADER_KINDS)[number];

/** One TLV entry to encode: a kind and a value that fits it. */
export interface TlvEntry {
  readonly kind: HeaderKind;
  readonly value: string | number | bigint | boolean | Uint8Array;
}

/** One user header to encode: key and value entries. */
export interface HeaderSpec {
  readonly key: TlvEntry;
  readonly value: TlvEntry;
}

/** One message to encode; omitted fields take the producer's defaults. */
export interface MessageSpec {
  readonly payload: Uint8Array | string;
  /** TLV headers, or raw bytes written as they are. */
  readonly userHeaders?: readonly HeaderSpec[] | Uint8Array;
  /** The u128 id; default 0. */
  readonly id?: bigint;
  /** Default: the message's index. */
  readonly offsetDelta?: number;
  /** Default 0. */
  readonly timestampDelta?: number;
}

/** One batch to encode; a batch with a nonzero baseTimestamp is stamped. */
export interface BatchSpec {
  readonly partitionId?: bigint;
  readonly baseOffset?: bigint;
  readonly baseTimestamp?: bigint;
  readonly originTimestamp?: bigint;
  readonly messages: readonly MessageSpec[];
}

const utf8 = new TextEncoder();

function kindNumber(kind: HeaderKind): number {
  const n = typeof kind === "number" ? kind : HEADER_KINDS.indexOf(kind);
  if (n < 1 || n > 15) throw new RangeError(`cannot encode user header: unknown kind ${String(kind)}`);
  return n;
}

function tlvValueBytes(kind: number, value: TlvEntry["value"]): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (kind === 1 || kind === 2) return utf8.encode(String(value));
  const widths: Record<number, number> = { 3: 1, 4: 1, 5: 2, 6: 4, 7: 8, 8: 16, 9: 1, 10: 2, 11: 4, 12: 8, 13: 16, 14: 4, 15: 8 };
  const out = new Uint8Array(widths[kind] as number);
  const view = new DataView(out.buffer);
  // Float kinds never use `big`; converting NaN or ±Infinity to a BigInt would throw for a valid f32/f64 value.
  const big = typeof value === "bigint" ? value : kind === 14 || kind === 15 ? 0n : BigInt(typeof value === "boolean" ? Number(value) : Math.trunc(Number(value)));
  switch (kind) {
    case 3: out[0] = value ? 1 : 0; break;
    case 4: view.setInt8(0, Number(big)); break;
    case 5: view.setInt16(0, Number(big), true); break;
    case 6: view.setInt32(0, Number(big), true); break;
    case 7: view.setBigInt64(0, big, true); break;
    case 9: view.setUint8(0, Number(big)); break;
    case 10: view.setUint16(0, Number(big), true); break;
    case 11: view.setUint32(0, Number(big), true); break;
    case 12: view.setBigUint64(0, BigInt.asUintN(64, big), true); break;
    case 8: case 13: {
      const v = BigInt.asUintN(128, big);
      view.setBigUint64(0, v & 0xffff_ffff_ffff_ffffn, true);
      view.setBigUint64(8, v >> 64n, true);
      break;
    }
    case 14: view.setFloat32(0, Number(value), true); break;
    case 15: view.setFloat64(0, Number(value), true); break;
  }
  return out;
}

/** Encodes user headers as Iggy TLV: [kind u8][length u32 LE][bytes], key then value. */
export function encodeUserHeaders(headers: readonly HeaderSpec[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const h of headers) {
    for (const entry of [h.key, h.value]) {
      const kind = kindNumber(entry.kind);
      const bytes = tlvValueBytes(kind, entry.value);
      if (bytes.length < 1 || bytes.length > 255) throw new RangeError(`cannot encode user header: a TLV value has ${bytes.length} bytes, TLV allows 1..255`);
      const head = new Uint8Array(5);
      head[0] = kind;
      new DataView(head.buffer).setUint32(1, bytes.length, true);
      parts.push(head, bytes);
    }
  }
  return concat(parts);
}

/** Concatenates byte strings. */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** Encodes one batch with correct frame and batch checksums. */
export function encodeBatch(xxh: Xxh3, spec: BatchSpec): Uint8Array {
  const frames = spec.messages.map((m, i) => encodeFrame(xxh, m, i));
  const blobLength = frames.reduce((n, f) => n + f.length, 0);
  const out = new Uint8Array(BATCH_HEADER_SIZE + blobLength);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, spec.partitionId ?? 0n, true);
  view.setBigUint64(8, spec.baseOffset ?? 0n, true);
  view.setBigUint64(16, spec.baseTimestamp ?? 0n, true);
  view.setBigUint64(24, spec.originTimestamp ?? 0n, true);
  view.setBigUint64(32, BigInt(out.length), true);
  view.setUint32(48, frames.length, true);
  let at = BATCH_HEADER_SIZE;
  for (const f of frames) { out.set(f, at); at += f.length; }
  view.setBigUint64(40, batchChecksumOf(xxh, out), true);
  return out;
}

/** Encodes one frame; index is its position, the default offset_delta. */
export function encodeFrame(xxh: Xxh3, m: MessageSpec, index: number): Uint8Array {
  const payload = typeof m.payload === "string" ? utf8.encode(m.payload) : m.payload;
  const userHeaders = m.userHeaders === undefined ? new Uint8Array(0) : m.userHeaders instanceof Uint8Array ? m.userHeaders : encodeUserHeaders(m.userHeaders);
  const out = new Uint8Array(FRAME_HEADER_SIZE + payload.length + userHeaders.length);
  const view = new DataView(out.buffer);
  const id = BigInt.asUintN(128, m.id ?? 0n);
  view.setBigUint64(8, id & 0xffff_ffff_ffff_ffffn, true);
  view.setBigUint64(16, id >> 64n, true);
  view.setUint32(24, m.offsetDelta ?? index, true);
  view.setUint32(28, m.timestampDelta ?? 0, true);
  view.setUint32(32, userHeaders.length, true);
  view.setUint32(36, payload.length, true);
  out.set(payload, FRAME_HEADER_SIZE);
  out.set(userHeaders, FRAME_HEADER_SIZE + payload.length);
  view.setBigUint64(0, xxh.hash(out.subarray(8)), true);
  return out;
}

/**
 * The batch checksum of a whole, well-formed batch held alone in `batch`,
 * walking frames by their length fields (the batch must tile).
 */
export function batchChecksumOf(xxh: Xxh3, batch: Uint8Array): bigint {
  const view = new DataView(batch.buffer, batch.byteOffset, batch.byteLength);
  const frameStarts: number[] = [];
  let f = BATCH_HEADER_SIZE;
  while (f + FRAME_HEADER_SIZE <= batch.length) {
    frameStarts.push(f);
    f += FRAME_HEADER_SIZE + view.getUint32(f + 32, true) + view.getUint32(f + 36, true);
  }
  return computeBatchChecksum(xxh, batch, 0, frameStarts, 0, frameStarts.length);
}

/** A copy of a producer batch stamped as the server does: partition, base offset and time set, batch checksum recomputed. */
export function stampBatch(xxh: Xxh3, batch: Uint8Array, stamp: { partitionId: bigint; baseOffset: bigint; baseTimestamp: bigint }): Uint8Array {
  const out = batch.slice();
  const view = new DataView(out.buffer);
  view.setBigUint64(0, stamp.partitionId, true);
  view.setBigUint64(8, stamp.baseOffset, true);
  view.setBigUint64(16, stamp.baseTimestamp, true);
  view.setBigUint64(40, batchChecksumOf(xxh, out), true);
  return out;
}
