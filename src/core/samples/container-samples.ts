/**
 * A sample per container, good and broken (one per container diagnostic), built in code with the
 * project's encoder: for the page's samples menu and the unit tests. A sample is one file, a file and
 * its companion (a segment pair), or a whole partition directory.
 */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import type { DiagnosticCode } from "../../format/diagnostics.ts";
import { ByteReader } from "../../format/reader.ts";
import { concat, encodeBatch, stampBatch } from "../walk/encode.ts";
import type { FormatName } from "../containers/types.ts";
import {
  T0,
  u64,
  name20,
  messages,
  stampedChain,
  patch,
  segmentPair,
  sendBody,
  pollBody,
  consensus,
  prepare,
  legacyDump,
  type SampleFile,
} from "./container-sample-bytes.ts";

export { consensus, type SampleFile } from "./container-sample-bytes.ts";

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
