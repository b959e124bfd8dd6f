/**
 * The kernel walk's fast path for a batch with nothing to report: from the kernel's record and the
 * header's u32 words it proves that none of the batch checks, frame checks or continuity checks would
 * find anything, without a header object or a bigint. A batch it cannot prove so (any kernel flag, a
 * value at or past 2^52, a partition it has no tail for) takes the full path in range-walk.ts, which
 * emits exactly what analyze() does; this path never emits, so the two cannot disagree on a finding.
 * Files of single-message batches spend most of their walk per batch, not per frame.
 */
import { BATCH_FIELD, BATCH_HEADER_SIZE } from "../format/fields.ts";
import type { ByteReader } from "../format/reader.ts";
import { BATCH_RECORD, KERNEL_FLAG } from "../checksum/kernel/abi.ts";
import type { BatchHeader } from "./model.ts";
import { BATCH_CHECKS, JS_ONLY_FRAME_CHECKS, type PartitionTail } from "./walk-checks.ts";

const B = BATCH_FIELD;
/** Below 2^52 (high word below 2^20), a value plus a u32 delta plus one stays an exact float. */
const SAFE_HIGH = 1 << 20;
/** Kernel batch flags a clean batch may carry: a frame with timestamp_delta 0 is what origin-not-earliest wants. */
const CLEAN_FLAGS = KERNEL_FLAG.batchHasZeroTimestampDelta;
/**
 * The batch checks isClean proves absent, in BATCH_CHECKS' order. A check added there and not here turns
 * this path off (every batch takes the full path), and the clean-batch tests fail until it is taught here.
 */
const PROVEN_BATCH_CHECKS = ["message-count-mismatch", "empty-batch", "origin-not-earliest", "batch-checksum-mismatch"];
const FAST = JS_ONLY_FRAME_CHECKS.length === 0 && BATCH_CHECKS.map((c) => c.code).join() === PROVEN_BATCH_CHECKS.join();

const TWO_32 = 2 ** 32;

/**
 * Tracks the tail of the partition of the last stamped batch in exact numbers, and writes it into the
 * walk's tails map (bigints, what merge and the full path read) only when they are read: flush().
 */
export class CleanBatches {
  private partitionLow = 0;
  private partitionHigh = 0;
  private lastOffset = 0;
  private baseTimestamp = 0;
  /** Whether the numbers hold a partition's tail at all. */
  private known = false;
  /** Whether the map lags behind the numbers. */
  private dirty = false;

  constructor(private readonly tails: Map<bigint, PartitionTail>) {}

  /**
   * True when the walked batch of record `at` in `rec`, whose header starts at `rel` in `r` (absolute `pos`,
   * in an input of `size` bytes), has no finding; its partition's tail is then advanced. False says nothing:
   * the caller runs the full path (after flush()).
   */
  isClean(rec: Uint32Array, at: number, r: ByteReader, rel: number, pos: number, size: number): boolean {
    if (!FAST) return false;
    const frameCount = rec[at + BATCH_RECORD.frameCount] as number;
    if (((rec[at + BATCH_RECORD.flags] as number) & ~CLEAN_FLAGS) !== 0 || rec[at + BATCH_RECORD.flaggedCount] !== 0) return false;
    // origin-not-earliest, message-count-mismatch, and with messages no empty-batch.
    if (frameCount === 0 || !((rec[at + BATCH_RECORD.flags] as number) & CLEAN_FLAGS)) return false;
    if (r.u32(rel + B.message_count.offset) !== frameCount) return false;
    const lengthHigh = r.u32(rel + B.batch_length.offset + 4);
    const length = r.u32(rel + B.batch_length.offset) + lengthHigh * TWO_32;
    if (lengthHigh >= SAFE_HIGH || length < BATCH_HEADER_SIZE || pos + length > size) return false;
    const checksumAt = at + BATCH_RECORD.checksumU64;
    if (r.u32(rel + B.batch_checksum.offset) !== rec[checksumAt] || r.u32(rel + B.batch_checksum.offset + 4) !== rec[checksumAt + 1]) return false;
    const timestampLow = r.u32(rel + B.base_timestamp.offset);
    const timestampHigh = r.u32(rel + B.base_timestamp.offset + 4);
    if (timestampLow === 0 && timestampHigh === 0) return true; // unstamped: no continuity
    const partitionLow = r.u32(rel + B.partition_id.offset);
    const partitionHigh = r.u32(rel + B.partition_id.offset + 4);
    const offsetHigh = r.u32(rel + B.base_offset.offset + 4);
    if (!this.known || partitionLow !== this.partitionLow || partitionHigh !== this.partitionHigh) return false;
    if (offsetHigh >= SAFE_HIGH || timestampHigh >= SAFE_HIGH) return false;
    const baseOffset = r.u32(rel + B.base_offset.offset) + offsetHigh * TWO_32;
    const baseTimestamp = timestampLow + timestampHigh * TWO_32;
    // checkContinuity's two findings: the first offset right after the tail, the base timestamp not behind it.
    if (baseOffset + (rec[at + BATCH_RECORD.firstOffsetDelta] as number) !== this.lastOffset + 1 || baseTimestamp < this.baseTimestamp) return false;
    this.lastOffset = baseOffset + (rec[at + BATCH_RECORD.lastOffsetDelta] as number);
    this.baseTimestamp = baseTimestamp;
    this.dirty = true;
    return true;
  }

  /** Brings the tails map up to date: before the full path or the walk's result reads it. */
  flush(): void {
    if (!this.dirty) return;
    const partition = (BigInt(this.partitionHigh) << 32n) | BigInt(this.partitionLow);
    this.tails.set(partition, { lastOffset: BigInt(this.lastOffset), baseTimestamp: BigInt(this.baseTimestamp) });
    this.dirty = false;
  }

  /** After the full path walked a stamped batch: its partition's tail (now in the map) is the one to follow, if exact as numbers. */
  follow(header: BatchHeader): void {
    const tail = this.tails.get(header.partitionId);
    const limit = BigInt(SAFE_HIGH) << 32n;
    this.known = tail !== undefined && tail.lastOffset !== null && tail.lastOffset < limit && tail.baseTimestamp < limit;
    if (!this.known || !tail || tail.lastOffset === null) return;
    this.partitionLow = Number(header.partitionId & 0xffffffffn);
    this.partitionHigh = Number(header.partitionId >> 32n);
    this.lastOffset = Number(tail.lastOffset);
    this.baseTimestamp = Number(tail.baseTimestamp);
    this.dirty = false;
  }
}
