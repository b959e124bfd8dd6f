/** An encoder of valid batches (producer or stamped), for tests, the page's samples and the batch builder. */
import { BATCH_FIELD, BATCH_HEADER_LAYOUT, BATCH_HEADER_SIZE, FRAME_FIELD, FRAME_HEADER_LAYOUT, FRAME_HEADER_SIZE } from "../../format/fields.ts";
import { readField, writeField, writeHeader } from "../../format/field-codec.ts";
import { ByteReader } from "../../format/reader.ts";
import { ByteWriter } from "../../format/writer.ts";
import { HEADER_KINDS } from "../../format/user-headers.ts";
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { computeBatchChecksum, frameChecksum } from "../../checksum/verify.ts";
import type { BatchHeader } from "../model/model.ts";

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
  const w = ByteWriter.alloc(widths[kind] as number);
  // Float kinds never use `big`; converting NaN or ±Infinity to a BigInt would throw for a valid f32/f64 value.
  const big =
    typeof value === "bigint" ? value : kind === 14 || kind === 15 ? 0n : BigInt(typeof value === "boolean" ? Number(value) : Math.trunc(Number(value)));
  switch (kind) {
    case 3:
      w.u8(0, value ? 1 : 0);
      break;
    case 4:
      w.i8(0, Number(big));
      break;
    case 5:
      w.i16(0, Number(big));
      break;
    case 6:
      w.i32(0, Number(big));
      break;
    case 7:
      w.i64(0, big);
      break;
    case 9:
      w.u8(0, Number(big));
      break;
    case 10:
      w.u16(0, Number(big));
      break;
    case 11:
      w.u32(0, Number(big));
      break;
    case 12:
      w.u64(0, big);
      break;
    case 8:
    case 13:
      w.u128(0, big);
      break;
    case 14:
      w.f32(0, Number(value));
      break;
    case 15:
      w.f64(0, Number(value));
      break;
  }
  return w.bytes;
}

/** Encodes user headers as Iggy TLV: [kind u8][length u32 LE][bytes], key then value. */
export function encodeUserHeaders(headers: readonly HeaderSpec[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const h of headers) {
    for (const entry of [h.key, h.value]) {
      const kind = kindNumber(entry.kind);
      const bytes = tlvValueBytes(kind, entry.value);
      if (bytes.length < 1 || bytes.length > 255) throw new RangeError(`cannot encode user header: a TLV value has ${bytes.length} bytes, TLV allows 1..255`);
      const head = ByteWriter.alloc(5);
      head.u8(0, kind);
      head.u32(1, bytes.length);
      parts.push(head.bytes, bytes);
    }
  }
  return concat(parts);
}

/** Concatenates byte strings. */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The batch header fields the server stamps (partition_id, base_offset, base_timestamp), under their JSON keys. */
export type ServerStamp = {
  readonly [F in (typeof BATCH_HEADER_LAYOUT)[number] as F["role"] extends "server-stamped" ? F["jsonKey"] : never]: BatchHeader[F["jsonKey"] &
    keyof BatchHeader];
};

/** Encodes one batch with correct frame and batch checksums. */
export function encodeBatch(xxh: Xxh3, spec: BatchSpec): Uint8Array {
  const frames = spec.messages.map((m, i) => encodeFrame(xxh, m, i));
  const blobLength = frames.reduce((n, f) => n + f.length, 0);
  const w = ByteWriter.alloc(BATCH_HEADER_SIZE + blobLength);
  writeHeader(w, 0, BATCH_HEADER_LAYOUT, {
    partitionId: spec.partitionId ?? 0n,
    baseOffset: spec.baseOffset ?? 0n,
    baseTimestamp: spec.baseTimestamp ?? 0n,
    originTimestamp: spec.originTimestamp ?? 0n,
    batchLength: BigInt(w.length),
    messageCount: frames.length,
  });
  let at = BATCH_HEADER_SIZE;
  for (const f of frames) {
    w.set(at, f);
    at += f.length;
  }
  writeField(w, 0, BATCH_FIELD.batch_checksum, batchChecksumOf(xxh, w.bytes));
  return w.bytes;
}

/** Encodes one frame; index is its position, the default offset_delta. */
export function encodeFrame(xxh: Xxh3, m: MessageSpec, index: number): Uint8Array {
  const payload = typeof m.payload === "string" ? utf8.encode(m.payload) : m.payload;
  const userHeaders = m.userHeaders === undefined ? new Uint8Array(0) : m.userHeaders instanceof Uint8Array ? m.userHeaders : encodeUserHeaders(m.userHeaders);
  const w = ByteWriter.alloc(FRAME_HEADER_SIZE + payload.length + userHeaders.length);
  writeHeader(w, 0, FRAME_HEADER_LAYOUT, {
    id: m.id ?? 0n,
    offsetDelta: m.offsetDelta ?? index,
    timestampDelta: m.timestampDelta ?? 0,
    userHeadersLength: userHeaders.length,
    payloadLength: payload.length,
  });
  w.set(FRAME_HEADER_SIZE, payload);
  w.set(FRAME_HEADER_SIZE + payload.length, userHeaders);
  writeField(w, 0, FRAME_FIELD.checksum, frameChecksum(xxh, w.bytes, 0, w.length));
  return w.bytes;
}

/**
 * The batch checksum of a whole, well-formed batch held alone in `batch`,
 * walking frames by their length fields (the batch must tile).
 */
export function batchChecksumOf(xxh: Xxh3, batch: Uint8Array): bigint {
  const r = new ByteReader(batch);
  const frameStarts: number[] = [];
  let f = BATCH_HEADER_SIZE;
  while (f + FRAME_HEADER_SIZE <= batch.length) {
    frameStarts.push(f);
    f += FRAME_HEADER_SIZE + readField(r, f, FRAME_FIELD.user_headers_length) + readField(r, f, FRAME_FIELD.payload_length);
  }
  return computeBatchChecksum(xxh, batch, 0, frameStarts, 0, frameStarts.length);
}

/** A copy of a producer batch stamped as the server does: partition, base offset and time set, batch checksum recomputed. */
export function stampBatch(xxh: Xxh3, batch: Uint8Array, stamp: ServerStamp): Uint8Array {
  const w = new ByteWriter(batch.slice());
  writeHeader(w, 0, BATCH_HEADER_LAYOUT, stamp);
  writeField(w, 0, BATCH_FIELD.batch_checksum, batchChecksumOf(xxh, w.bytes));
  return w.bytes;
}
