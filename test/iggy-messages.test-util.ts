/** Iggy protocol messages for hand-made captures: a SendMessages request, its reply, a login, a poll and its reply, a prepare, a prepare-ok, an eviction. */
import type { Xxh3 } from "../src/checksum/xxh3.ts";
import { concat, encodeBatch, stampBatch, type MessageSpec } from "../src/core/walk/encode.ts";
import { consensus } from "../src/core/samples/container-samples.ts";
import { PREPARE_FIELDS, REPLY_FIELDS, REQUEST_FIELDS } from "../src/format/containers/consensus.ts";
import { fieldByName } from "../src/format/fields.ts";

const at = (table: typeof REQUEST_FIELDS, name: string): number => fieldByName(table, name).offset;
const REQ = { request: at(REQUEST_FIELDS, "request"), operation: at(REQUEST_FIELDS, "operation"), legacy: at(REQUEST_FIELDS, "legacy_operation") };
const REP = { request: at(REPLY_FIELDS, "request"), operation: at(REPLY_FIELDS, "operation"), status: at(REPLY_FIELDS, "status") };

const u32 = (n: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
};
const u64 = (n: bigint): Uint8Array => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n, true);
  return b;
};
const numericId = (n: number): Uint8Array => concat([Uint8Array.of(1, 4), u32(n)]);
const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const short = (s: string): Uint8Array => concat([Uint8Array.of(text(s).length), text(s)]);

/** A SendMessages request (operation 160) to stream 1, topic 1, partition 1 carrying `batch`. */
export function sendRequest(batch: Uint8Array, messageCount: number, request = 1n): Uint8Array {
  const meta = concat([numericId(1), numericId(1), Uint8Array.of(2, 4), u32(1), u32(messageCount)]);
  return consensus(5, concat([u32(meta.length), meta, batch]), (w) => {
    w.u64(REQ.request, request);
    w.u8(REQ.operation, 160);
  });
}

/** A producer batch of `count` messages of `payloadBytes` each, checksums made by the kernel. */
export function producerBatch(xxh: Xxh3, count: number, payloadBytes: number, extra: Partial<MessageSpec> = {}): Uint8Array {
  const payload = new Uint8Array(payloadBytes).map((_, i) => (i * 31 + 7) & 0xff);
  return encodeBatch(xxh, { originTimestamp: 1_700_000_000_000_000n, messages: Array.from({ length: count }, () => ({ payload, ...extra })) });
}

/** A reply (command 8) to operation `op` with `body` and `status`. */
export function reply(op: number, body: Uint8Array = new Uint8Array(0), status = 0, request = 1n): Uint8Array {
  return consensus(8, body, (w) => {
    w.u64(REP.request, request);
    w.u8(REP.operation, op);
    w.u32(REP.status, status);
  });
}

/** A login (Register, operation 1) with a username and password, as the Node SDK's register.ts encodes it. */
export function loginRequest(username: string, password: string): Uint8Array {
  return consensus(5, concat([u32(1 << 20), short("iggy-node"), short("0.1.0"), short(username), short(password), u32(0)]), (w) => w.u8(REQ.operation, 1));
}

/** A PollMessages request (operation 2, legacy code 100): consumer 1, stream 1, topic 1, partition 1, from offset 0. */
export function pollRequest(count: number): Uint8Array {
  const body = concat([
    Uint8Array.of(1),
    numericId(1),
    numericId(1),
    numericId(1),
    Uint8Array.of(1),
    u32(1),
    Uint8Array.of(1),
    u64(0n),
    u32(count),
    Uint8Array.of(0),
  ]);
  return consensus(5, body, (w) => {
    w.u8(REQ.operation, 2);
    w.u32(REQ.legacy, 100);
  });
}

/** The integer fields of a prepare header this builder sets (by the table's names). */
export interface PrepareValues {
  readonly op: bigint;
  readonly commit: bigint;
  readonly request: bigint;
  readonly group: bigint;
  readonly user_id: number;
}

/** A prepare (command 6): the header's fields from `values`, its timestamp the base_timestamp of the one stamped batch it carries. */
export function prepareMessage(xxh: Xxh3, values: PrepareValues, messageCount = 3): Uint8Array {
  const stamp = { partitionId: 3n, baseOffset: 500n, baseTimestamp: 1_764_500_000_000_000n };
  const batch = stampBatch(xxh, producerBatch(xxh, messageCount, 50), stamp);
  const field = (name: string) => fieldByName(PREPARE_FIELDS, name).offset;
  return consensus(6, batch, (w) => {
    w.u64(field("op"), values.op);
    w.u64(field("commit"), values.commit);
    w.u64(field("timestamp"), stamp.baseTimestamp);
    w.u64(field("request"), values.request);
    w.u8(field("operation"), 160);
    w.u64(field("group"), values.group);
    w.u32(field("user_id"), values.user_id);
  });
}

/**
 * A prepare-ok (command 7, header only) laid out by upstream's own offsets, not our table's:
 * core/binary_protocol/src/consensus/header.rs:1118-1151 at cc269ef70 (PrepareOkHeader: parent u128 at
 * 128, prepare_checksum u128 at 144, op, commit, timestamp, request u64 from 160, operation u8 at 192,
 * 7 bytes of padding, group u64 at 200, then 48 reserved bytes).
 */
export function prepareOkMessage(values: { op: bigint; commit: bigint; timestamp: bigint; request: bigint; group: bigint; parent: bigint }): Uint8Array {
  return consensus(7, new Uint8Array(0), (w) => {
    w.u64(128, values.parent); // the low half of the u128
    w.u64(144, 0x5151n); // the low half of prepare_checksum
    w.u64(160, values.op);
    w.u64(168, values.commit);
    w.u64(176, values.timestamp);
    w.u64(184, values.request);
    w.u8(192, 160);
    w.u64(200, values.group);
  });
}

/**
 * An eviction (command 13, header only) laid out by upstream's own offsets, not our table's: the Node
 * SDK's EVICTION_OFFSET (foreign/node/src/wire/vsr/header.ts:59-65 at cc269ef70: client 128, versions
 * 144 and 148, reason 255), as core/binary_protocol/src/consensus/header.rs:709-735 asserts.
 */
export function evictionMessage(reason: number, client: bigint, versions: readonly [number, number] = [0, 0]): Uint8Array {
  return consensus(13, new Uint8Array(0), (w) => {
    w.u64(128, client); // the low half of the u128 client id
    w.u32(144, versions[0]);
    w.u32(148, versions[1]);
    w.u8(255, reason);
  });
}
