/** The samples menu: batches built with the project's encoder, one good producer batch, a stamped segment, and one per violation. */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { frameChecksum } from "../../checksum/verify.ts";
import { batchChecksumOf, concat, encodeBatch, stampBatch, type MessageSpec } from "../walk/encode.ts";
import { writeField } from "../edit/edit.ts";
import type { DiagnosticCode } from "../../format/diagnostics.ts";
import { BATCH_FIELD, BATCH_HEADER_SIZE, FRAME_FIELD, FRAME_HEADER_SIZE } from "../../format/fields.ts";
import { readField, writeField as writeFieldValue } from "../../format/field-codec.ts";
import { ByteReader } from "../../format/reader.ts";
import { ByteWriter } from "../../format/writer.ts";
import { hex128 } from "../../format/values.ts";

/** One sample: an id for the URL and tests, a title, the one-line note on what it shows, and its builder. */
export interface Sample {
  readonly id: string;
  readonly title: string;
  readonly note: string;
  /** The diagnostic this sample demonstrates, if any. */
  readonly shows: DiagnosticCode | null;
  /** The envelope the sample's bytes start with (core/model/envelopes.ts), if any. */
  readonly envelope?: "poll-reply" | "replicated-record";
  readonly build: (xxh: Xxh3) => Uint8Array;
}

const T0 = 1_764_420_000_000_000n;
// A fixed v7-shaped UUID per message keeps samples reproducible.
const uuid7 = (n: number): bigint => BigInt("0x019ad2f1a3c07" + n.toString(16).padStart(3, "0") + "8" + "a1b2c3d4e5f60" + n.toString(16).padStart(2, "0"));
const idOf = (n: number): bigint => {
  // Our ids are read "in wire order", so store the UUID bytes as they read: byte-reverse the number.
  const hex = hex128(uuid7(n));
  let reversed = "";
  for (let i = 30; i >= 0; i -= 2) reversed += hex.slice(i, i + 2);
  return BigInt("0x" + reversed);
};

const orderMessages = (count: number, first = 0): MessageSpec[] =>
  Array.from({ length: count }, (_, i) => ({
    id: idOf(first + i),
    payload: JSON.stringify({ order: 1000 + first + i, item: ["tea", "coffee", "cocoa"][(first + i) % 3], qty: 1 + ((first + i) % 4) }),
    timestampDelta: i * 1500,
    userHeaders: [
      { key: { kind: "string", value: "content-type" }, value: { kind: "string", value: "application/json" } },
      { key: { kind: "string", value: "trace-seq" }, value: { kind: "u64", value: BigInt(first + i) } },
    ],
  }));

function producer(xxh: Xxh3, count = 2): Uint8Array {
  return encodeBatch(xxh, { originTimestamp: T0, messages: orderMessages(count) });
}

function segment(xxh: Xxh3, sizes: readonly number[], partition = 3n, baseOffset = 1000n): Uint8Array[] {
  let offset = baseOffset;
  let message = 0;
  return sizes.map((n, b) => {
    const batch = stampBatch(xxh, encodeBatch(xxh, { originTimestamp: T0 + BigInt(b) * 2_000_000n, messages: orderMessages(n, message) }), {
      partitionId: partition,
      baseOffset: offset,
      baseTimestamp: T0 + BigInt(b) * 2_000_000n + 400_000n,
    });
    offset += BigInt(n);
    message += n;
    return batch;
  });
}

/** Where the frame starting at `frameStart` ends, by its length fields. */
function frameEnd(bytes: Uint8Array, frameStart: number): number {
  const r = new ByteReader(bytes);
  return frameStart + FRAME_HEADER_SIZE + readField(r, frameStart, FRAME_FIELD.payload_length) + readField(r, frameStart, FRAME_FIELD.user_headers_length);
}

/** Start of a batch's second frame. */
const secondFrame = (batch: Uint8Array): number => frameEnd(batch, BATCH_HEADER_SIZE);

const stampOf = (xxh: Xxh3, b: Uint8Array, baseOffset: bigint, baseTimestamp: bigint): Uint8Array =>
  stampBatch(xxh, b, { partitionId: 3n, baseOffset, baseTimestamp });

/** Every sample, the default first. */
export const SAMPLES: readonly Sample[] = [
  {
    id: "stamped-segment",
    title: "Stamped segment (3 batches)",
    shows: null,
    note: "A segment file's worth of stamped batches of partition 3: offsets chain across batches; JSON payloads with TLV user headers.",
    build: (xxh) => concat(segment(xxh, [2, 3, 1])),
  },
  {
    id: "producer-batch",
    title: "Producer batch",
    shows: null,
    note: "A batch as a producer sends it: partition_id, base_offset and base_timestamp are zero until the server stamps it.",
    build: (xxh) => producer(xxh, 2),
  },
  {
    id: "poll-reply",
    title: "Poll reply (16-byte prefix)",
    shows: null,
    envelope: "poll-reply",
    note: 'A poll reply body: partition_id u32, current_offset u64 and count u32, then stamped batches; read with "Input starts with: Poll reply".',
    build: (xxh) => {
      const batches = segment(xxh, [2, 1]);
      // [partition_id u32][current_offset u64][count u32] (core/model/envelopes.ts).
      const prefix = ByteWriter.alloc(16);
      prefix.u32(0, 3);
      prefix.u64(4, 1002n);
      prefix.u32(12, 3);
      return concat([prefix.bytes, ...batches]);
    },
  },
  {
    id: "frame-checksum-mismatch",
    title: "Flipped payload byte",
    shows: "frame-checksum-mismatch",
    note: "One payload byte changed after checksumming: the frame checksum no longer matches, the batch checksum still does.",
    build: (xxh) => {
      const b = producer(xxh, 2);
      b[BATCH_HEADER_SIZE + FRAME_HEADER_SIZE + 3]! ^= 0x20;
      return b;
    },
  },
  {
    id: "batch-checksum-mismatch",
    title: "Wrong batch checksum",
    shows: "batch-checksum-mismatch",
    note: "The stored batch_checksum has one bit flipped.",
    build: (xxh) => {
      const b = segment(xxh, [2])[0]!;
      b[BATCH_FIELD.batch_checksum.offset]! ^= 1;
      return b;
    },
  },
  {
    id: "batch-reserved-nonzero",
    title: "Nonzero reserved header bytes",
    shows: "batch-reserved-nonzero",
    note: "Bytes in the batch header's reserved area (52..256) are not zero; the server rejects such a batch.",
    build: (xxh) => {
      const b = producer(xxh, 1);
      b.set([0xde, 0xad], BATCH_FIELD.reserved.offset + 48);
      return b;
    },
  },
  {
    id: "frame-reserved-nonzero",
    title: "Nonzero frame reserved bytes",
    shows: "frame-reserved-nonzero",
    note: "A frame's reserved bytes 40..48 are not zero (the frame checksum was recomputed, so only this is wrong).",
    build: (xxh) => {
      const b = producer(xxh, 1);
      b[BATCH_HEADER_SIZE + FRAME_FIELD.reserved.offset + 4] = 1;
      return encodeRechecked(xxh, b);
    },
  },
  {
    id: "message-count-mismatch",
    title: "message_count says 3, 2 frames",
    shows: "message-count-mismatch",
    note: "The frames tile the blob, but message_count claims one more message than there is.",
    build: (xxh) => writeField(producer(xxh, 2), 0, BATCH_FIELD.message_count, 3n),
  },
  {
    id: "frame-truncated",
    title: "Frame runs past the blob",
    shows: "frame-truncated",
    note: "The last frame declares a payload longer than the bytes left in the batch.",
    build: (xxh) => {
      const b = producer(xxh, 2);
      return writeField(b, secondFrame(b), FRAME_FIELD.payload_length, 500n);
    },
  },
  {
    id: "batch-truncated",
    title: "Capture cut short",
    shows: "batch-truncated",
    note: "The input ends before batch_length says the batch does: the frames present still decode.",
    build: (xxh) => {
      const b = concat(segment(xxh, [3]));
      return b.slice(0, secondFrame(b));
    },
  },
  {
    id: "batch-length-too-small",
    title: "batch_length below 256",
    shows: "batch-length-too-small",
    note: "batch_length is smaller than the header: the walk cannot step past this batch, and the bytes after it are unattributed.",
    build: (xxh) => concat([writeField(producer(xxh, 1), 0, BATCH_FIELD.batch_length, 100n), producer(xxh, 1)]),
  },
  {
    id: "header-truncated",
    title: "Torn tail",
    shows: "header-truncated",
    note: "A good batch followed by 100 bytes of the next header, as after a crash mid-write.",
    build: (xxh) => {
      const s = segment(xxh, [1, 1]);
      return concat([s[0]!, s[1]!.subarray(0, 100)]);
    },
  },
  {
    id: "empty-batch",
    title: "Empty batch",
    shows: "empty-batch",
    note: "A valid layout with no messages; the server refuses to admit it.",
    build: (xxh) => stampOf(xxh, encodeBatch(xxh, { originTimestamp: T0, messages: [] }), 10n, T0 + 1n),
  },
  {
    id: "offset-delta-not-index",
    title: "offset_delta skips",
    shows: "offset-delta-not-index",
    note: "A producer batch whose third frame has offset_delta 5 instead of its index 2.",
    build: (xxh) => encodeBatch(xxh, { originTimestamp: T0, messages: orderMessages(3).map((m, i) => (i === 2 ? { ...m, offsetDelta: 5 } : m)) }),
  },
  {
    id: "origin-not-earliest",
    title: "origin_timestamp not the earliest",
    shows: "origin-not-earliest",
    note: "No frame has timestamp_delta 0, so origin_timestamp is not the earliest message time.",
    build: (xxh) => encodeBatch(xxh, { originTimestamp: T0, messages: orderMessages(2).map((m, i) => ({ ...m, timestampDelta: 10 + i })) }),
  },
  {
    id: "offset-discontinuity",
    title: "Gap in offsets",
    shows: "offset-discontinuity",
    note: "Two stamped batches of one partition whose offsets do not follow on: 5 messages are missing.",
    build: (xxh) => {
      const [a, b] = segment(xxh, [2, 2]);
      return concat([a!, stampOf(xxh, b!, 1007n, T0 + 3_000_000n)]);
    },
  },
  {
    id: "timestamp-regression",
    title: "Time goes backwards",
    shows: "timestamp-regression",
    note: "The second stamped batch of a partition has a smaller base_timestamp than the first.",
    build: (xxh) => {
      const [a, b] = segment(xxh, [2, 2]);
      return concat([a!, stampOf(xxh, b!, 1002n, T0 - 5_000_000n)]);
    },
  },
  {
    id: "user-headers-malformed",
    title: "User headers not TLV",
    shows: "user-headers-malformed",
    note: "User headers that are not Iggy TLV (here raw text): the server treats them as opaque, so this is information only.",
    build: (xxh) =>
      encodeBatch(xxh, { originTimestamp: T0, messages: [{ id: idOf(0), payload: "hello", userHeaders: new TextEncoder().encode("opaque-producer-bytes") }] }),
  },
];

// Recomputes the frame checksums and then the batch checksum of an edited batch, walking its frames by their lengths.
function encodeRechecked(xxh: Xxh3, batch: Uint8Array): Uint8Array {
  const w = new ByteWriter(batch.slice());
  for (let f = BATCH_HEADER_SIZE; f + FRAME_HEADER_SIZE <= w.length;) {
    const end = frameEnd(w.bytes, f);
    writeFieldValue(w, f, FRAME_FIELD.checksum, frameChecksum(xxh, w.bytes, f, end));
    f = end;
  }
  writeFieldValue(w, 0, BATCH_FIELD.batch_checksum, batchChecksumOf(xxh, w.bytes));
  return w.bytes;
}

/** The sample shown on a first visit. */
export const DEFAULT_SAMPLE_ID = "stamped-segment";
