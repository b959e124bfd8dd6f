/**
 * The kernel walk's fast path for a batch with nothing to report: from the kernel's record and the
 * header's u32 words it shows that none of the check rows (walk-checks.ts) nor the continuity checks would
 * find anything, without a header object or a bigint. Each row brings its own proof; a row without one is
 * run here (a frame row on every frame of the batch), so it costs its own work, never the fast path. A batch
 * it cannot clear (a walk finding, a flagged frame, a row that finds something, a value at or past 2^52, a
 * partition it has no tail for) takes the full path in range-walk.ts; this path never emits, so the two
 * cannot disagree on a finding. Files of single-message batches spend most of their walk per batch.
 */
import { BATCH_FIELD, BATCH_HEADER_SIZE, FRAME_FIELD } from "../../format/fields.ts";
import type { ByteReader } from "../../format/reader.ts";
import { frameLengthAt } from "../../format/walk-steps.ts";
import { BATCH_RECORD, KERNEL_FLAG } from "../../checksum/kernel/abi.ts";
import type { BatchHeader } from "../model/model.ts";
import {
  batchContext,
  BATCH_CHECKS,
  frameContext,
  JS_ONLY_FRAME_CHECKS,
  UNPROVEN_BATCH_CHECKS,
  type BatchProofInput,
  type PartitionTail,
} from "./walk-checks.ts";

const B = BATCH_FIELD;
/** Below 2^52 (high word below 2^20), a value plus a u32 delta plus one stays an exact float. */
const SAFE_HIGH = 1 << 20;
/** Every kernel batch flag but the one that is no finding (a frame with timestamp_delta 0): the walk's own findings. */
const FINDING_FLAGS = Object.values(KERNEL_FLAG).reduce((a, b) => a | b, 0) & ~KERNEL_FLAG.batchHasZeroTimestampDelta;
const PROVEN = BATCH_CHECKS.filter((c) => c.proof !== null);

const TWO_32 = 2 ** 32;

const u64At = (words: Uint32Array, at: number): bigint => (BigInt(words[at + 1] as number) << 32n) | BigInt(words[at] as number);

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

  private readonly proofInput: { -readonly [K in keyof BatchProofInput]: BatchProofInput[K] };

  constructor(private readonly tails: Map<bigint, PartitionTail>) {
    this.proofInput = { record: new Uint32Array(0), at: 0, r: null as unknown as ByteReader, rel: 0 };
  }

  /**
   * True when the walked batch `batch` of record `at` in `rec`, whose header starts at `rel` in `r` (absolute
   * `pos`, in an input of `size` bytes), has no finding; its partition's tail is then advanced. False says
   * nothing: the caller runs the full path (after flush()). `readHeader` is called only for a batch row without a proof.
   */
  isClean(rec: Uint32Array, at: number, r: ByteReader, rel: number, pos: number, size: number, batch: number, readHeader: HeaderRead): boolean {
    const frameCount = rec[at + BATCH_RECORD.frameCount] as number;
    // The walk's own findings, any flagged frame, and a batch without frames (no offsets for the tail) take the full path.
    if (((rec[at + BATCH_RECORD.flags] as number) & FINDING_FLAGS) !== 0 || rec[at + BATCH_RECORD.flaggedCount] !== 0 || frameCount === 0) return false;
    const lengthHigh = r.u32(rel + B.batch_length.offset + 4);
    const length = r.u32(rel + B.batch_length.offset) + lengthHigh * TWO_32;
    // batch-truncated (the kernel walks a cut batch up to the input's end).
    if (lengthHigh >= SAFE_HIGH || pos + length > size) return false;
    const proof = this.proofInput;
    proof.record = rec;
    proof.at = at;
    proof.r = r;
    proof.rel = rel;
    for (const c of PROVEN) if (!c.proof!(proof)) return false;
    const timestampLow = r.u32(rel + B.base_timestamp.offset);
    const timestampHigh = r.u32(rel + B.base_timestamp.offset + 4);
    const stamped = timestampLow !== 0 || timestampHigh !== 0;
    if (UNPROVEN_BATCH_CHECKS.length > 0 || JS_ONLY_FRAME_CHECKS.length > 0) {
      if (!unprovenPass(rec, at, r, rel, pos, batch, stamped, readHeader)) return false;
    }
    if (!stamped) return true; // unstamped: no continuity
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

/** Reads the batch header at `rel` in `r` as an object (what a batch row without a proof needs). */
export type HeaderRead = (r: ByteReader, rel: number) => BatchHeader;

// The rows without a fast-path proof, run on one batch the kernel found nothing in: true when none finds anything.
function unprovenPass(rec: Uint32Array, at: number, r: ByteReader, rel: number, pos: number, batch: number, stamped: boolean, readHeader: HeaderRead): boolean {
  const frameCount = rec[at + BATCH_RECORD.frameCount] as number;
  if (UNPROVEN_BATCH_CHECKS.length > 0) {
    const hasZero = ((rec[at + BATCH_RECORD.flags] as number) & KERNEL_FLAG.batchHasZeroTimestampDelta) !== 0;
    const context = batchContext(readHeader(r, rel), pos, batch, frameCount, u64At(rec, at + BATCH_RECORD.checksumU64), hasZero);
    for (const c of UNPROVEN_BATCH_CHECKS) if (c.check(context) !== null) return false;
  }
  if (JS_ONLY_FRAME_CHECKS.length === 0) return true;
  const frame = frameContext(r, pos - rel, rel, batch, stamped, stamped ? (rec[at + BATCH_RECORD.firstOffsetDelta] as number) : 0);
  let f = rel + BATCH_HEADER_SIZE;
  for (let k = 0; k < frameCount; k++) {
    frame.at = f;
    frame.k = k;
    // No frame is flagged, so none has a checksum mismatch: each computed checksum is the stored one.
    frame.computedChecksum = r.u64(f + FRAME_FIELD.checksum.offset);
    for (const c of JS_ONLY_FRAME_CHECKS) if (c.check(frame) !== null) return false;
    f += frameLengthAt(r, f);
  }
  return true;
}
