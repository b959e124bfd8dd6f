/**
 * Auto-detect (containers.md "Formats and their names"): a candidate wins only when its structure
 * checks out across the whole input, and batches that tile the input stay batches. Input that fits
 * nothing and whose first 256 bytes cannot be a batch header (most reserved bytes nonzero) is
 * "unrecognized": one format-unrecognized error instead of a batch decode's noise (force a format to decode anyway).
 */
import { CONSENSUS_HEADER_SIZE } from "../../format/containers/consensus.ts";
import { POLL_PREFIX_SIZE, POLL_RESYNC_SENTINEL } from "../../format/containers/poll-reply.ts";
import { BATCH_HEADER_SIZE } from "../../format/fields.ts";
import { ByteReader } from "../../format/reader.ts";
import { plural } from "../../format/values.ts";
import { consensusFormatOf } from "./consensus.ts";
import { legacyTiles } from "./legacy.ts";
import { isCaptureMagic } from "./capture/file.ts";
import { parseSendMetadata } from "./send-messages.ts";
import type { FormatName } from "./types.ts";
import { readHeaderAt, walkHeaders } from "./walk.ts";

/** What auto-detect chose and why, in one sentence; `recognized` is false for input that fits no Iggy format. */
export interface Detection {
  readonly format: FormatName;
  readonly detectedBy: string;
  readonly recognized: boolean;
}

/** Picks the format of one file's bytes; `name` (a file name) decides for `.log` and `.index`. */
export function detectFormat(bytes: Uint8Array, name = ""): Detection {
  const lower = name.toLowerCase();
  if (lower.endsWith(".index")) return { format: "index", detectedBy: "auto: the file name ends in .index", recognized: true };
  if (lower.endsWith(".log")) return { format: "segment", detectedBy: "auto: the file name ends in .log", recognized: true };
  const size = bytes.length;
  const asBatches = walkHeaders(bytes, 0);
  if (asBatches.tiles) {
    return {
      format: "batches",
      detectedBy: `auto: ${plural(asBatches.headers.length, "batch header", "batch headers")} ${asBatches.headers.length === 1 ? "ends exactly at" : "step by batch_length to exactly"} the end of the input`,
      recognized: true,
    };
  }
  if (isCaptureMagic(bytes.subarray(0, 12))) return { format: "capture", detectedBy: "auto: the file starts with a pcap or pcapng magic", recognized: true };
  const r = new ByteReader(bytes);
  if (size >= CONSENSUS_HEADER_SIZE && r.u32(48) === size) {
    const format = consensusFormatOf(bytes[60] as number);
    if (format)
      return {
        format,
        detectedBy: `auto: the consensus header's size at 48 equals the input length (${size}) and command at 60 is ${bytes[60]} (${format})`,
        recognized: true,
      };
  }
  const meta = parseSendMetadata(bytes, 0);
  if (!meta.fault && meta.batchStart !== null) {
    const h = readHeaderAt(bytes, meta.batchStart, size);
    if (typeof h !== "string" && h.end === size)
      return {
        format: "send-messages",
        detectedBy: "auto: metadata_length, the identifiers and the partitioning parse, and the batch ends exactly at the body end",
        recognized: true,
      };
  }
  if (size === POLL_PREFIX_SIZE && r.u32(0) === POLL_RESYNC_SENTINEL) {
    return { format: "poll-reply", detectedBy: "auto: a 16-byte body with partition_id 0xFFFFFFFF, the consumer-group resync sentinel", recognized: true };
  }
  if (size > POLL_PREFIX_SIZE) {
    const records = walkHeaders(bytes, POLL_PREFIX_SIZE);
    const sum = records.headers.reduce((n, h) => n + h.messageCount, 0);
    if (records.tiles && sum === r.u32(12)) {
      return {
        format: "poll-reply",
        detectedBy: `auto: the prefix's count (${sum}) equals the sum of message_count of the ${plural(records.headers.length, "batch", "batches")} that tile the input from byte 16`,
        recognized: true,
      };
    }
  }
  if (legacyTiles(bytes))
    return {
      format: "legacy-messages",
      detectedBy: "auto: 64-byte legacy message headers tile the input exactly and their reserved bytes are zero",
      recognized: true,
    };
  if (size >= BATCH_HEADER_SIZE) {
    let nonzero = 0;
    for (let i = 52; i < BATCH_HEADER_SIZE; i++) if (bytes[i] !== 0) nonzero++;
    if (nonzero * 2 > BATCH_HEADER_SIZE - 52) {
      return {
        format: "batches",
        detectedBy: `auto: does not look like any Iggy format: ${nonzero} of the 204 reserved bytes of a batch header are nonzero (a batch has none) and no container's structure checks out; force a format to decode it anyway`,
        recognized: false,
      };
    }
  }
  const why =
    size < BATCH_HEADER_SIZE
      ? `the input (${plural(size, "byte")}) is shorter than a batch header`
      : `the batch walk stops at byte ${asBatches.stopAt} (${asBatches.stop})`;
  return { format: "batches", detectedBy: `auto: no container's structure checks out and ${why}; read as batches`, recognized: true };
}
