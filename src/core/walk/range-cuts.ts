/**
 * Batch-aligned ranges of a file, handed out one at a time as threads ask for them: cut by a lazy
 * header walk (done as it goes, so the first range is walked at once), or regrouped from the fine ranges an earlier header walk recorded (inspect's auto-detect
 * walks every header anyway), so a file's headers are walked once.
 */
import { BATCH_HEADER_SIZE } from "../../format/fields.ts";
import { ByteReader } from "../../format/reader.ts";
import { BATCH_LENGTH_END, batchLengthAt, batchStep } from "../../format/walk-steps.ts";
import type { ByteSource } from "./range-walk.ts";
import type { RangePlan } from "./stream-analyze.ts";

/** Batches above this size are stepped over with one small read per header; smaller ones are read in blocks. */
const BLOCK_BATCH_LIMIT = 16 << 10;
const BLOCK_BYTES = 64 << 10;

/** Ranges in input order, the next one on each call (of about `targetBytes` when given); null after the last. */
export interface RangeSupply {
  next(targetBytes?: number): RangePlan | null;
}

/** Cuts [startOffset, size) into ranges of about `targetBytes` at batch boundaries, in input order. */
export class RangeCutter implements RangeSupply {
  private readonly block = new Uint8Array(BLOCK_BYTES);
  private readonly reader = new ByteReader(this.block);
  private blockStart = 0;
  private blockLength = 0;
  private lastBatchBytes = 0;
  private pos: number;
  private index = 0;
  private done = false;
  private stuck = false;

  constructor(
    private readonly source: ByteSource,
    startOffset: number,
    private readonly targetBytes: number,
  ) {
    this.pos = Math.max(0, Math.min(source.size, Math.trunc(startOffset)));
  }

  /** The next range, or null after the last; the last holds whatever the header walk cannot step past. */
  next(targetBytes = this.targetBytes): RangePlan | null {
    if (this.done) return null;
    const size = this.source.size;
    const plan = { start: this.pos, firstBatch: this.index };
    const target = this.pos + targetBytes;
    while (size - this.pos >= BATCH_HEADER_SIZE) {
      const length = this.batchLengthAt(this.pos);
      const next = batchStep(this.pos, length, size);
      if (next < 0) {
        this.stuck = true;
        break;
      }
      this.lastBatchBytes = length;
      this.pos = next;
      this.index++;
      if (this.pos >= target) break;
    }
    if (this.stuck || size - this.pos < BATCH_HEADER_SIZE) {
      this.done = true;
      return { ...plan, end: size };
    }
    return { ...plan, end: this.pos };
  }

  /** Batches stepped over so far. */
  get batches(): number {
    return this.index;
  }

  /** After the last range: whether the headers step by batch_length from the start to exactly the end. */
  get tiles(): boolean {
    return this.done && !this.stuck && this.index > 0 && this.pos === this.source.size;
  }

  /** batch_length at `pos` as a number (two u32 reads: no BigInt per batch); past 2^53 it only has to exceed the size. */
  private batchLengthAt(pos: number): number {
    if (pos < this.blockStart || pos + BATCH_LENGTH_END > this.blockStart + this.blockLength) {
      const want = this.lastBatchBytes > BLOCK_BATCH_LIMIT ? BATCH_LENGTH_END : BLOCK_BYTES;
      this.blockStart = pos;
      this.blockLength = this.source.read(this.block.subarray(0, Math.min(want, this.source.size - pos)), pos);
    }
    return batchLengthAt(this.reader, pos - this.blockStart);
  }
}

/** Consecutive ranges of a header walk (all of [start, size), in order) joined into ranges of at least `targetBytes`. */
export class JoinedRanges implements RangeSupply {
  private at = 0;

  constructor(
    private readonly fine: readonly RangePlan[],
    private readonly targetBytes: number,
  ) {}

  next(targetBytes = this.targetBytes): RangePlan | null {
    const first = this.fine[this.at];
    if (!first) return null;
    let last = first;
    while (last.end - first.start < targetBytes && this.at + 1 < this.fine.length) last = this.fine[++this.at] as RangePlan;
    this.at++;
    return { start: first.start, end: last.end, firstBatch: first.firstBatch };
  }
}
