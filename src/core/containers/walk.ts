/** Header-only walks over batches back to back: what detection and recovery need, without decoding frames. */
import { BATCH_FIELD, BATCH_HEADER_SIZE } from "../../format/fields.ts";
import { ByteReader } from "../../format/reader.ts";
import { batchLengthAt, batchStep } from "../../format/walk-steps.ts";
import type { ByteSource } from "../walk/range-walk.ts";
import type { Analysis } from "../model/model.ts";

/** One batch header read in a walk. */
export interface WalkedHeader {
  readonly start: number;
  readonly end: number;
  readonly baseOffset: bigint;
  readonly baseTimestamp: bigint;
  readonly messageCount: number;
  readonly partitionId: bigint;
}

/** Why a header walk stopped before `end`, as the diagnostic code the batch decoder gives it. */
export type WalkStop = "header-truncated" | "batch-length-too-small" | "batch-reserved-nonzero" | "batch-truncated";

const RESERVED = BATCH_FIELD.reserved;

/** Checks one header as upstream's BatchHeader::decode does (core/binary_protocol/src/batch.rs:98-123) plus the fit in [.., end). */
export function readHeaderAt(bytes: Uint8Array, pos: number, end: number): WalkedHeader | WalkStop {
  if (end - pos < BATCH_HEADER_SIZE) return "header-truncated";
  const r = new ByteReader(bytes);
  const length = batchLengthAt(r, pos);
  if (length < BATCH_HEADER_SIZE) return "batch-length-too-small";
  if (!r.allZero(pos + RESERVED.offset, pos + RESERVED.offset + RESERVED.size)) return "batch-reserved-nonzero";
  const next = batchStep(pos, length, end);
  if (next < 0) return "batch-truncated";
  return {
    start: pos,
    end: next,
    partitionId: r.u64(pos + BATCH_FIELD.partition_id.offset),
    baseOffset: r.u64(pos + BATCH_FIELD.base_offset.offset),
    baseTimestamp: r.u64(pos + BATCH_FIELD.base_timestamp.offset),
    messageCount: r.u32(pos + BATCH_FIELD.message_count.offset),
  };
}

/** Reads and checks the batch header at `pos` of an input ending at `end` (readHeaderAt's rules): what recovery walks. */
export type HeaderAt = (pos: number, end: number) => WalkedHeader | WalkStop;

/** A HeaderAt over bytes in memory. */
export function memoryHeaderAt(bytes: Uint8Array): HeaderAt {
  return (pos, end) => readHeaderAt(bytes, pos, end);
}

const HEADER_BLOCK_BYTES = 64 << 10;

/**
 * A HeaderAt over a ByteSource (a file read in pieces): headers come through one 64 KiB block, so
 * small batches cost one read per block and large ones one 64 KiB read per header, never the whole input.
 */
export function sourceHeaderAt(source: ByteSource): HeaderAt {
  const block = new Uint8Array(HEADER_BLOCK_BYTES);
  let blockStart = 0;
  let blockLength = 0;
  return (pos, end) => {
    if (end - pos < BATCH_HEADER_SIZE) return "header-truncated";
    if (pos < blockStart || pos + BATCH_HEADER_SIZE > blockStart + blockLength) {
      blockStart = pos;
      blockLength = source.read(block.subarray(0, Math.max(0, Math.min(block.length, source.size - pos))), pos);
      // A source shorter than `end` claims (a file that shrank): what is missing reads as a cut header.
      if (blockLength < BATCH_HEADER_SIZE) return "header-truncated";
    }
    const rel = pos - blockStart;
    const h = readHeaderAt(block, rel, rel + (end - pos));
    return typeof h === "string" ? h : { ...h, start: pos, end: pos + (h.end - rel) };
  };
}

// The header findings that make readHeaderAt stop (its WalkStop codes, as the batch walk words them).
const STOPS: ReadonlySet<string> = new Set<WalkStop>(["header-truncated", "batch-length-too-small", "batch-reserved-nonzero", "batch-truncated"]);

/**
 * A HeaderAt answered from a batch walk's model where it can (a batch start whose header the walk
 * decoded and found no stop in), so a recovery walk over a file not in memory reads nothing new;
 * anywhere else (a stop, a position that starts no batch) it asks `fallback`, which reads the bytes.
 */
export function analysisHeaderAt(analysis: Analysis, fallback: HeaderAt): HeaderAt {
  const stopped = new Set<number>();
  for (const d of analysis.diagnostics) if (d.batch !== null && STOPS.has(d.code)) stopped.add(d.batch);
  const batches = analysis.batches;
  // Recovery asks batch after batch: the one after the last answer is tried before a binary search.
  let next = 0;
  return (pos, end) => {
    const k = batches.startingAt(pos, next);
    const batchLength = k >= 0 && !stopped.has(batches.index(k)) ? batches.headerValue(k, "batchLength") : null;
    if (batchLength === null || end !== analysis.size || batchLength > BigInt(end - pos)) return fallback(pos, end);
    next = k + 1;
    return {
      start: pos,
      end: pos + Number(batchLength),
      partitionId: batches.headerValue(k, "partitionId") as bigint,
      baseOffset: batches.headerValue(k, "baseOffset") as bigint,
      baseTimestamp: batches.headerValue(k, "baseTimestamp") as bigint,
      messageCount: batches.headerValue(k, "messageCount") as number,
    };
  };
}
