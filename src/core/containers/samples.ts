/**
 * A sample per container, good and broken (one per container diagnostic), built in code with the
 * project's encoder: for the page's samples menu and the unit tests. A sample is one file, a file and
 * its companion (a segment pair), or a whole partition directory.
 */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import type { DiagnosticCode } from "../../format/diagnostics.ts";
import { ByteReader } from "../../format/reader.ts";
import { ByteWriter } from "../../format/writer.ts";
import { concat, encodeBatch, stampBatch, type MessageSpec } from "../encode.ts";
import type { FormatName } from "./types.ts";

/** One named file of a sample. */
export interface SampleFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** One container sample: the format it is (detected, or forced when `forced`), what it shows, its files. */
export interface ContainerSample {
  readonly id: string;
  readonly title: string;
  readonly note: string;
  readonly format: FormatName;
  /** Open with the format forced instead of auto-detected. */
  readonly forced?: boolean;
  readonly shows: DiagnosticCode | null;
  /** For a partition: every file; else the file, then optionally its companion (.log ↔ .index). */
  readonly build: (xxh: Xxh3) => SampleFile[];
}

const T0 = 1_764_500_000_000_000n;
const u32 = (v: number): Uint8Array => {
  const w = ByteWriter.alloc(4);
  w.u32(0, v);
  return w.bytes;
};
const u64 = (v: bigint): Uint8Array => {
  const w = ByteWriter.alloc(8);
  w.u64(0, v);
  return w.bytes;
};
const name20 = (n: bigint, ext: string): string => `${n.toString().padStart(20, "0")}.${ext}`;
const text = new TextEncoder();

function messages(count: number, first: number): MessageSpec[] {
  return Array.from({ length: count }, (_, i) => ({ id: BigInt(0x1000 + first + i), payload: `{"reading":${first + i}}`, timestampDelta: i * 100 }));
}

/** Stamped batches chained from `start`: the bytes of each and where each starts. */
function stampedChain(xxh: Xxh3, start: bigint, sizes: readonly number[], partition = 3n, t = T0): { batches: Uint8Array[]; positions: number[] } {
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
function indexOf(batches: readonly Uint8Array[], positions: readonly number[], pick: readonly number[]): Uint8Array {
  return concat(
    pick.flatMap((k) => {
      const r = new ByteReader(batches[k] as Uint8Array);
      return [u64(r.u64(8)), u64(r.u64(16)), u64(BigInt(positions[k] as number))];
    }),
  );
}

function patch(bytes: Uint8Array, at: number, value: Uint8Array): Uint8Array {
  const out = bytes.slice();
  out.set(value, at);
  return out;
}

function segmentPair(xxh: Xxh3, start: bigint, sizes: readonly number[], pick: readonly number[] = [0]): SampleFile[] {
  const { batches, positions } = stampedChain(xxh, start, sizes);
  return [
    { name: name20(start, "log"), bytes: concat(batches) },
    { name: name20(start, "index"), bytes: indexOf(batches, positions, pick) },
  ];
}

function identifier(v: number | string): Uint8Array {
  if (typeof v === "number") return concat([Uint8Array.of(1, 4), u32(v)]);
  const b = text.encode(v);
  return concat([Uint8Array.of(2, b.length), b]);
}

function sendBody(
  xxh: Xxh3,
  opts: { count?: number; messages?: number; partitioning?: Uint8Array; trailing?: number; batch?: Uint8Array; metaPad?: number } = {},
): Uint8Array {
  const batch = opts.batch ?? encodeBatch(xxh, { originTimestamp: T0, messages: messages(opts.messages ?? 2, 0) });
  const partitioning = opts.partitioning ?? concat([Uint8Array.of(2, 4), u32(3)]);
  const fields = concat([identifier("orders"), identifier(2), partitioning, u32(opts.count ?? opts.messages ?? 2), new Uint8Array(opts.metaPad ?? 0)]);
  return concat([u32(fields.length), fields, batch, new Uint8Array(opts.trailing ?? 0)]);
}

function pollBody(xxh: Xxh3, opts: { partition?: number; count?: number; recordPartition?: bigint; sliced?: boolean } = {}): Uint8Array {
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
function sliceTail(xxh: Xxh3, batch: Uint8Array, from: number): Uint8Array {
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

function prepare(xxh: Xxh3, timestampShift = 0n, sizeShift = 0): Uint8Array {
  const { batches } = stampedChain(xxh, 500n, [3]);
  const b = batches[0] as Uint8Array;
  const ts = new ByteReader(b).u64(16);
  return consensus(6, b, (w) => {
    out208(w);
    w.u64(192, ts + timestampShift);
    w.u32(48, 256 + b.length + sizeShift);
  });
}
const out208 = (w: ByteWriter) => w.u8(208, 160);

/** Legacy messages from a chain of stamped batches, as `iggy message poll --output-file` writes them. */
function legacyDump(xxh: Xxh3, opts: { fromFrame?: number; reservedAt?: number; cut?: number } = {}): Uint8Array {
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

const one = (name: string, bytes: Uint8Array): SampleFile[] => [{ name, bytes }];

/** Every container sample; good ones first. */
export const CONTAINER_SAMPLES: readonly ContainerSample[] = [
  {
    id: "segment",
    title: "Segment file (.log) with its index",
    note: "Three chained stamped batches named by their start offset, with a sparse index of two entries.",
    format: "segment",
    shows: null,
    build: (x) => segmentPair(x, 1000n, [2, 3, 1], [0, 2]),
  },
  {
    id: "index",
    title: "Index file (.index) beside its segment",
    note: "Two 24-byte entries pointing at the first and third batch of 00000000000000001000.log.",
    format: "index",
    shows: null,
    build: (x) => segmentPair(x, 1000n, [2, 3, 1], [0, 2]).reverse(),
  },
  {
    id: "partition",
    title: "Partition directory",
    note: "Two chained segments with their indexes: the healthy partition the server loads.",
    format: "partition",
    shows: null,
    build: (x) => [...segmentPair(x, 0n, [2, 2], [0]), ...segmentPair(x, 4n, [3], [0])],
  },
  {
    id: "poll-reply-body",
    title: "Poll reply body",
    note: "Prefix partition 3, count 5, then two stamped records of partition 3.",
    format: "poll-reply",
    shows: null,
    build: (x) => one("poll.bin", pollBody(x)),
  },
  {
    id: "poll-reply-sliced",
    title: "Poll reply with a sliced record",
    note: "The tail of a stored batch: offset deltas 2..4 and no timestamp delta 0, which a poll reply may hold.",
    format: "poll-reply",
    shows: null,
    build: (x) => one("poll-sliced.bin", pollBody(x, { sliced: true })),
  },
  {
    id: "send-messages",
    title: "SendMessages body",
    note: 'Stream "orders", topic 2, partition id 3, two messages: the request a producer sends.',
    format: "send-messages",
    shows: null,
    build: (x) => one("send.bin", sendBody(x)),
  },
  {
    id: "request",
    title: "Consensus request (SendMessages)",
    note: "A 256-byte request header (command 5, operation 160) framing a SendMessages body.",
    format: "request",
    shows: null,
    build: (x) =>
      one(
        "request.bin",
        consensus(5, sendBody(x), (w) => w.u8(176, 160)),
      ),
  },
  {
    id: "reply",
    title: "Consensus reply (poll)",
    note: "A 256-byte reply header (command 8) framing a poll reply body; batches start at byte 272.",
    format: "reply",
    shows: null,
    build: (x) => one("reply.bin", consensus(8, pollBody(x))),
  },
  {
    id: "prepare",
    title: "Consensus prepare (replicated record)",
    note: "A prepare header (command 6) whose timestamp equals the one stamped batch's base_timestamp.",
    format: "prepare",
    shows: null,
    build: (x) => one("prepare.bin", prepare(x)),
  },
  {
    id: "legacy-messages",
    title: "Legacy messages (iggy message poll --output-file)",
    note: "Five 64-byte legacy messages from two batches; every checksum is rebuilt and verified.",
    format: "legacy-messages",
    shows: null,
    build: (x) => one("poll-output.bin", legacyDump(x)),
  },

  {
    id: "segment-name-mismatch",
    title: "Segment named after the wrong offset",
    note: "Named 1001 but its first batch starts at 1000: without an index the server recovers it as empty.",
    format: "segment",
    shows: "segment-name-mismatch",
    build: (x) => one(name20(1001n, "log"), concat(stampedChain(x, 1000n, [2, 2]).batches)),
  },
  {
    id: "segment-offset-gap",
    title: "Gap inside a segment",
    note: "Batch 1 starts at 1004 where the chain expects 1002; recovery without an index stops there.",
    format: "segment",
    shows: "segment-offset-gap",
    build: (x) => one(name20(1000n, "log"), concat([...stampedChain(x, 1000n, [2]).batches, ...stampedChain(x, 1004n, [2], 3n, T0 + 5000n).batches])),
  },
  {
    id: "recovery-stops",
    title: "Torn tail",
    note: "100 bytes of a batch header after the last whole batch: recovery keeps what precedes them.",
    format: "segment",
    shows: "recovery-stops",
    build: (x) => one(name20(1000n, "log"), concat([...stampedChain(x, 1000n, [2, 2]).batches, new Uint8Array(100).fill(7)])),
  },
  {
    id: "index-entry-misplaced",
    title: "Index entry pointing inside a batch",
    note: "Entry 1's position is 7 bytes into batch 1.",
    format: "index",
    shows: "index-entry-misplaced",
    build: (x) => {
      const [log, idx] = segmentPair(x, 1000n, [2, 3], [0, 1]) as [SampleFile, SampleFile];
      return [{ ...idx, bytes: patch(idx.bytes, 40, u64(new ByteReader(idx.bytes).u64(40) + 7n)) }, log];
    },
  },
  {
    id: "index-entry-mismatch",
    title: "Index entry with the wrong offset",
    note: "Entry 1 says offset 1003; the batch it points at starts at 1002.",
    format: "index",
    shows: "index-entry-mismatch",
    build: (x) => {
      const [log, idx] = segmentPair(x, 1000n, [2, 3], [0, 1]) as [SampleFile, SampleFile];
      return [{ ...idx, bytes: patch(idx.bytes, 24, u64(1003n)) }, log];
    },
  },
  {
    id: "index-not-ascending",
    title: "Index entries out of order",
    note: "Entry 1's timestamp is lower than entry 0's (and so no longer the batch's).",
    format: "index",
    shows: "index-not-ascending",
    build: (x) => one(name20(1000n, "index"), patch(segmentPair(x, 1000n, [2, 3], [0, 1])[1]!.bytes, 32, u64(T0 - 5n))),
  },
  {
    id: "index-trailing-bytes",
    title: "Index with a partial entry",
    note: "Ten bytes of a torn entry at the end; the server ignores them.",
    format: "index",
    shows: "index-trailing-bytes",
    build: (x) => {
      const [log, idx] = segmentPair(x, 1000n, [2, 3], [0, 1]) as [SampleFile, SampleFile];
      return [{ ...idx, bytes: concat([idx.bytes, new Uint8Array(10)]) }, log];
    },
  },
  {
    id: "index-orphan",
    title: "Partition with an orphan index",
    note: "An .index whose .log is missing: the server deletes it at boot.",
    format: "partition",
    shows: "index-orphan",
    build: (x) => [...segmentPair(x, 0n, [2, 2], [0]), segmentPair(x, 4n, [3], [0])[1]!],
  },
  {
    id: "partition-chain-gap",
    title: "Gap between segments",
    note: "The second segment starts at 6; the first ends at 3.",
    format: "partition",
    shows: "partition-chain-gap",
    build: (x) => [...segmentPair(x, 0n, [2, 2], [0]), ...segmentPair(x, 6n, [3], [0])],
  },
  {
    id: "partition-empty-segment",
    title: "Empty segment in the middle",
    note: "Segment 4 is empty but not the last: the server refuses the partition.",
    format: "partition",
    shows: "partition-empty-segment",
    build: (x) => [...segmentPair(x, 0n, [2, 2], [0]), { name: name20(4n, "log"), bytes: new Uint8Array(0) }, ...segmentPair(x, 5n, [3], [0])],
  },
  {
    id: "partition-no-segments",
    title: "Folder with no segment",
    note: "A folder holding only a capture and a note: there is no segment for the server to load.",
    format: "partition",
    shows: "partition-no-segments",
    build: () => [
      { name: "capture.pcap", bytes: new Uint8Array([0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0]) },
      { name: "README.txt", bytes: new TextEncoder().encode("not a segment") },
    ],
  },
  {
    id: "poll-count-mismatch",
    title: "Poll reply with a wrong count",
    note: "The prefix says 9 messages; the records hold 5.",
    format: "poll-reply",
    shows: "poll-count-mismatch",
    forced: true,
    build: (x) => one("poll.bin", pollBody(x, { count: 9 })),
  },
  {
    id: "poll-partition-mismatch",
    title: "Poll record of another partition",
    note: "The prefix says partition 3; the records say 4.",
    format: "poll-reply",
    shows: "poll-partition-mismatch",
    build: (x) => one("poll.bin", pollBody(x, { recordPartition: 4n })),
  },
  {
    id: "send-metadata-invalid",
    title: "SendMessages with a bad partitioning",
    note: "Partitioning kind 2 (partition id) with length 3 instead of 4.",
    format: "send-messages",
    shows: "send-metadata-invalid",
    forced: true,
    build: (x) => one("send.bin", sendBody(x, { partitioning: Uint8Array.of(2, 3, 3, 0, 0) })),
  },
  {
    id: "send-count-mismatch",
    title: "SendMessages with a wrong messages_count",
    note: "messages_count 3, the batch holds 2: admission refuses it.",
    format: "send-messages",
    shows: "send-count-mismatch",
    forced: true,
    build: (x) => one("send.bin", sendBody(x, { count: 3 })),
  },
  {
    id: "send-empty-batch",
    title: "SendMessages with an empty batch",
    note: "messages_count 0 and a batch of no messages: an error here (admission refuses it), not the empty-batch warning.",
    format: "send-messages",
    shows: "send-count-mismatch",
    forced: true,
    build: (x) => one("send.bin", sendBody(x, { messages: 0, count: 0 })),
  },
  {
    id: "send-batch-not-at-end",
    title: "SendMessages with bytes after the batch",
    note: "Eight bytes follow the batch; no checksum covers them.",
    format: "send-messages",
    shows: "send-batch-not-at-end",
    forced: true,
    build: (x) => one("send.bin", sendBody(x, { trailing: 8 })),
  },
  {
    id: "send-producer-fields-set",
    title: "SendMessages with a stamped batch",
    note: "The batch carries base_offset 7, which a producer sends as 0.",
    format: "send-messages",
    shows: "send-producer-fields-set",
    build: (x) =>
      one(
        "send.bin",
        sendBody(x, {
          batch: stampBatch(x, encodeBatch(x, { originTimestamp: T0, messages: messages(2, 0) }), { partitionId: 0n, baseOffset: 7n, baseTimestamp: 0n }),
        }),
      ),
  },
  {
    id: "consensus-size-mismatch",
    title: "Prepare with a wrong size",
    note: "size says 8 bytes more than 256 + batch_length.",
    format: "prepare",
    shows: "consensus-size-mismatch",
    forced: true,
    build: (x) => one("prepare.bin", prepare(x, 0n, 8)),
  },
  {
    id: "consensus-command-unexpected",
    title: "Reply read as a prepare",
    note: "Forced to prepare, the header's command is 8 (reply).",
    format: "prepare",
    shows: "consensus-command-unexpected",
    forced: true,
    build: (x) => one("prepare.bin", patch(prepare(x), 60, Uint8Array.of(8))),
  },
  {
    id: "prepare-timestamp-mismatch",
    title: "Prepare whose timestamp differs from the batch's",
    note: "The header's timestamp is one µs later than the batch's base_timestamp.",
    format: "prepare",
    shows: "prepare-timestamp-mismatch",
    build: (x) => one("prepare.bin", prepare(x, 1n)),
  },
  {
    id: "legacy-truncated",
    title: "Cut legacy dump",
    note: "The last message's payload is cut by 5 bytes.",
    format: "legacy-messages",
    shows: "legacy-truncated",
    forced: true,
    build: (x) => one("poll-output.bin", legacyDump(x, { cut: 5 })),
  },
  {
    id: "legacy-reserved-nonzero",
    title: "Legacy header with reserved bytes set",
    note: "Message 0's reserved u64 is 1.",
    format: "legacy-messages",
    shows: "legacy-reserved-nonzero",
    forced: true,
    build: (x) => one("poll-output.bin", legacyDump(x, { reservedAt: 0 })),
  },
  {
    id: "legacy-unverifiable",
    title: "Legacy dump polled from inside a batch",
    note: "The dump starts at the second message of a batch: those checksums cannot be checked, and it says so.",
    format: "legacy-messages",
    shows: "legacy-unverifiable",
    build: (x) => one("poll-output.bin", legacyDump(x, { fromFrame: 1 })),
  },
  {
    id: "format-unrecognized",
    title: "Not an Iggy format",
    note: "Pseudo-random bytes: auto-detect says so plainly instead of decoding a bogus batch.",
    format: "batches",
    shows: "format-unrecognized",
    build: () => {
      const b = new Uint8Array(1024);
      let s = 12345;
      for (let i = 0; i < b.length; i++) {
        s = (s * 1103515245 + 12345) >>> 0;
        b[i] = s >>> 24;
      }
      return one("noise.bin", b);
    },
  },
];
