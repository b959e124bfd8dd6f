/**
 * The batch walk's checks, one row each, and the words of the walk's own findings. A row holds its rule
 * (check), sees the context frameContext()/batchContext() build for every walk, and where the kernel already
 * proves it absent, its fast-path proof; a row without one runs in JavaScript on the fast path too, costing
 * its own work only (clean-batch.ts). A new batch- or frame-level diagnostic is one entry in DIAGNOSTIC_TABLE,
 * one row here, and a sample that shows it (samples.ts): the kernel walk (range-walk.ts) and the test's
 * reference walk (test/reference-walk.ts) run these rows, and stream-analyze.test.ts fails if they disagree.
 */
import { BATCH_FIELD, BATCH_HEADER_SIZE, FRAME_FIELD, FRAME_HEADER_SIZE } from "../../format/fields.ts";
import type { ByteReader } from "../../format/reader.ts";
import type { DiagnosticCode } from "../../format/diagnostics.ts";
import { findUserHeadersFault } from "../../format/user-headers.ts";
import { hex64, hexOffset, plural } from "../../format/values.ts";
import { BATCH_RECORD, KERNEL_FLAG } from "../../checksum/kernel/abi.ts";
import type { BatchHeader, BatchModel } from "../model/model.ts";

/** How a walk records one finding (analyze()'s and walkRange()'s emit). */
export type Emit = (code: DiagnosticCode, start: number, end: number, batch: number | null, frame: number | null, message: string) => void;

/** A finding's absolute half-open byte range and its sentence, before its code gives it a severity. */
export interface Found {
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

/** What a frame check sees of one complete frame. */
export interface FrameCheckInput {
  /** The bytes holding the frame: the whole input, or the kernel's window. */
  readonly r: ByteReader;
  /** The frame's first byte in `r`. */
  readonly at: number;
  /** Absolute input position of `r`'s byte 0. */
  readonly base: number;
  /** The first byte of the frame's batch header in `r` (a check may read the header's fields there). */
  readonly batchAt: number;
  readonly batch: number;
  /** Position of the frame in its batch. */
  readonly k: number;
  readonly stamped: boolean;
  /** Frame 0's offset_delta in a stamped batch, 0 in a producer's: frame k must carry baseDelta + k. */
  readonly baseDelta: number;
  /** XXH3-64 of the frame's checksum window as the walk computed it. */
  readonly computedChecksum: bigint;
}

/** A frame check's context as a walk fills it: one object per batch, its frame fields set per frame. */
export type FrameContext = { -readonly [K in keyof FrameCheckInput]: FrameCheckInput[K] };

/** The context of the frame checks of one batch, for every walk; set `at`, `k` and `computedChecksum` per frame. */
export function frameContext(r: ByteReader, base: number, batchAt: number, batch: number, stamped: boolean, baseDelta: number): FrameContext {
  return { r, at: 0, base, batchAt, batch, k: 0, stamped, baseDelta, computedChecksum: 0n };
}

/** One frame-level check: its code, its fast-path proof (a kernel flag), and the check itself. */
export interface FrameCheck {
  readonly code: DiagnosticCode;
  /**
   * The fast-path proof: the KERNEL_FLAG bit kernel.c sets on frames that fail this check, so a frame without
   * it passes and the kernel walk runs the check on flagged frames alone. null: the kernel does not know the
   * check, so the kernel walk runs it on every frame in JavaScript (correct, and it costs only its own work;
   * move it into kernel.c when that matters).
   */
  readonly kernelFlag: number | null;
  readonly check: (f: FrameCheckInput) => Found | null;
}

const CHECKSUM = FRAME_FIELD.checksum;
const OFFSET_DELTA = FRAME_FIELD.offset_delta;
const USER_HEADERS_LENGTH = FRAME_FIELD.user_headers_length;
const PAYLOAD_LENGTH = FRAME_FIELD.payload_length;
const FRAME_RESERVED = FRAME_FIELD.reserved;

/** The checks every complete frame gets after its checksum is computed, in the order both walks emit them. */
export const FRAME_CHECKS: readonly FrameCheck[] = [
  {
    code: "frame-checksum-mismatch",
    kernelFlag: KERNEL_FLAG.frameChecksumMismatch,
    check({ r, at, base, batch, k, computedChecksum }) {
      const stored = r.u64(at + CHECKSUM.offset);
      if (stored === computedChecksum) return null;
      const start = base + at + CHECKSUM.offset;
      return {
        start,
        end: start + CHECKSUM.size,
        message: `batch ${batch} frame ${k}: stored checksum ${hex64(stored)} ≠ computed ${hex64(computedChecksum)}`,
      };
    },
  },
  {
    code: "offset-delta-not-index",
    kernelFlag: KERNEL_FLAG.frameOffsetDeltaNotIndex,
    check({ r, at, base, batch, k, stamped, baseDelta }) {
      const delta = r.u32(at + OFFSET_DELTA.offset);
      if (delta === baseDelta + k) return null;
      const rule = stamped ? `frame 0's ${baseDelta} + ${k}` : `its index ${k}`;
      const start = base + at + OFFSET_DELTA.offset;
      return { start, end: start + OFFSET_DELTA.size, message: `batch ${batch} frame ${k}: offset_delta ${delta}, expected ${rule}` };
    },
  },
  {
    code: "user-headers-malformed",
    kernelFlag: KERNEL_FLAG.frameUserHeadersMalformed,
    check({ r, at, base, batch, k }) {
      const length = r.u32(at + USER_HEADERS_LENGTH.offset);
      if (length === 0) return null;
      const from = at + FRAME_HEADER_SIZE + r.u32(at + PAYLOAD_LENGTH.offset);
      const fault = findUserHeadersFault(r.bytes.subarray(from, from + length));
      if (!fault) return null;
      return {
        start: base + from,
        end: base + from + length,
        message: `batch ${batch} frame ${k}: user headers are not Iggy TLV (${fault.reason}); shown raw`,
      };
    },
  },
];

/** The frame checks with no fast-path proof (no kernel flag): the kernel walk runs these on every frame. */
export const JS_ONLY_FRAME_CHECKS: readonly FrameCheck[] = FRAME_CHECKS.filter((c) => c.kernelFlag === null);

/** What a batch check sees of one walked batch. */
export interface BatchCheckInput {
  readonly header: BatchHeader;
  /** Absolute position of the batch header. */
  readonly pos: number;
  readonly batch: number;
  /** Complete frames walked. */
  readonly frameCount: number;
  readonly computedChecksum: bigint;
  /** Whether some complete frame carries timestamp_delta 0. */
  readonly hasZeroTimestampDelta: boolean;
}

/** The context of the batch checks of one walked batch, for every walk. */
export function batchContext(
  header: BatchHeader,
  pos: number,
  batch: number,
  frameCount: number,
  computedChecksum: bigint,
  hasZeroTimestampDelta: boolean,
): BatchCheckInput {
  return { header, pos, batch, frameCount, computedChecksum, hasZeroTimestampDelta };
}

/**
 * What a batch check's fast-path proof sees: the kernel's record of the batch (BATCH_RECORD words from `at`)
 * and the header's bytes at `rel` in `r`, so a proof reads u32 words, never a header object or a bigint.
 */
export interface BatchProofInput {
  readonly record: Uint32Array;
  readonly at: number;
  readonly r: ByteReader;
  readonly rel: number;
}

/** One batch-level check run after the batch's frames, in the order both walks emit them. */
export interface BatchCheck {
  readonly code: DiagnosticCode;
  readonly check: (b: BatchCheckInput) => Found | null;
  /**
   * The fast-path proof: true only when the check cannot find anything in this batch. null: the fast path
   * builds the batch's context and runs the check itself (correct, and it costs only its own work).
   */
  readonly proof: ((p: BatchProofInput) => boolean) | null;
}

const u32At = (p: BatchProofInput, field: { offset: number }, word = 0): number => p.r.u32(p.rel + field.offset + 4 * word);
const recordAt = (p: BatchProofInput, slot: number): number => p.record[p.at + slot] as number;

const over = (pos: number, field: { offset: number; size: number }, message: string): Found => ({
  start: pos + field.offset,
  end: pos + field.offset + field.size,
  message,
});

/** The checks of a batch once its frames are walked. */
export const BATCH_CHECKS: readonly BatchCheck[] = [
  {
    code: "message-count-mismatch",
    check: ({ header, pos, batch, frameCount }) =>
      frameCount === header.messageCount
        ? null
        : over(pos, BATCH_FIELD.message_count, `batch ${batch}: message_count ${header.messageCount}, ${plural(frameCount, "complete frame")} walked`),
    proof: (p) => u32At(p, BATCH_FIELD.message_count) === recordAt(p, BATCH_RECORD.frameCount),
  },
  {
    code: "empty-batch",
    check: ({ header, pos, batch }) =>
      header.messageCount === 0 && header.batchLength === BigInt(BATCH_HEADER_SIZE)
        ? over(pos, BATCH_FIELD.message_count, `batch ${batch}: no messages; the server refuses to admit an empty batch`)
        : null,
    proof: (p) => u32At(p, BATCH_FIELD.message_count) !== 0,
  },
  {
    code: "origin-not-earliest",
    check: ({ header, pos, batch, frameCount, hasZeroTimestampDelta }) =>
      frameCount > 0 && !hasZeroTimestampDelta
        ? over(
            pos,
            BATCH_FIELD.origin_timestamp,
            `batch ${batch}: no frame has timestamp_delta 0, so origin_timestamp ${header.originTimestamp} is not the earliest`,
          )
        : null,
    proof: (p) => recordAt(p, BATCH_RECORD.frameCount) === 0 || (recordAt(p, BATCH_RECORD.flags) & KERNEL_FLAG.batchHasZeroTimestampDelta) !== 0,
  },
  {
    code: "batch-checksum-mismatch",
    check: ({ header, pos, batch, computedChecksum }) =>
      computedChecksum === header.batchChecksum
        ? null
        : over(pos, BATCH_FIELD.batch_checksum, `batch ${batch}: stored batch_checksum ${hex64(header.batchChecksum)} ≠ computed ${hex64(computedChecksum)}`),
    proof: (p) =>
      u32At(p, BATCH_FIELD.batch_checksum) === recordAt(p, BATCH_RECORD.checksumU64) &&
      u32At(p, BATCH_FIELD.batch_checksum, 1) === recordAt(p, BATCH_RECORD.checksumU64 + 1),
  },
];

/** The batch checks with no fast-path proof: the fast path runs these itself. */
export const UNPROVEN_BATCH_CHECKS: readonly BatchCheck[] = BATCH_CHECKS.filter((c) => c.proof === null);

/** Runs the batch checks and emits what they find. */
export function runBatchChecks(b: BatchCheckInput, emit: Emit): void {
  for (const c of BATCH_CHECKS) {
    const found = c.check(b);
    if (found) emit(c.code, found.start, found.end, b.batch, null, found.message);
  }
}

/**
 * The batch a walk ends on without walking its frames (fewer than 256 bytes left: no header; batch_length
 * below 256: the header only), as both walks record it; its counts are the batch's findings.
 */
export function unwalkedBatch(
  index: number,
  start: number,
  size: number,
  header: BatchHeader | null,
  firstFrame: number,
): Omit<BatchModel, "errors" | "warnings" | "infos"> {
  return {
    index,
    start,
    end: header ? start + BATCH_HEADER_SIZE : size,
    header,
    stamped: header !== null && header.baseTimestamp !== 0n,
    computedChecksum: null,
    firstFrame,
    frameCount: 0,
    truncatedFrame: null,
  };
}

// The walk's own findings: where the walk itself stops or skips, worded once for both walks.

/** Fewer than a header's bytes remain at pos. */
export function emitHeaderTruncated(emit: Emit, pos: number, size: number, batch: number): void {
  emit(
    "header-truncated",
    pos,
    size,
    batch,
    null,
    `batch ${batch}: ${size - pos} bytes left at ${hexOffset(pos, 0)}, a batch header needs ${BATCH_HEADER_SIZE}`,
  );
}

/** batch_length below the header size: the walk cannot step past the batch at pos. */
export function emitBatchLengthTooSmall(emit: Emit, pos: number, batch: number, batchLength: bigint): void {
  const f = BATCH_FIELD.batch_length;
  emit(
    "batch-length-too-small",
    pos + f.offset,
    pos + f.offset + f.size,
    batch,
    null,
    `batch ${batch}: batch_length ${batchLength} < ${BATCH_HEADER_SIZE}, the walk cannot step past it`,
  );
}

/** batch_length runs beyond the input of `size` bytes: by how much, exactly. */
export function emitBatchTruncated(emit: Emit, pos: number, batch: number, batchLength: bigint, size: number): void {
  // In bigint: a batch_length near 2^64 runs past the end by more than a double holds exactly.
  const past = BigInt(pos) + batchLength - BigInt(size);
  const f = BATCH_FIELD.batch_length;
  emit(
    "batch-truncated",
    pos + f.offset,
    pos + f.offset + f.size,
    batch,
    null,
    `batch ${batch}: batch_length ${batchLength} runs ${past} bytes past the end of the input`,
  );
}

/** Every nonzero run of the reserved header bytes of the batch whose header is at `at` in r (absolute position pos). */
export function emitBatchReservedRuns(emit: Emit, r: ByteReader, at: number, pos: number, batch: number): void {
  const f = BATCH_FIELD.reserved;
  for (const [s, e] of r.nonzeroRuns(at + f.offset, at + f.offset + f.size)) {
    emit("batch-reserved-nonzero", pos + s - at, pos + e - at, batch, null, `batch ${batch}: reserved header bytes ${s - at}..${e - at} are nonzero`);
  }
}

/** The reserved bytes of the frame at absolute position f are not all zero. */
export function emitFrameReservedNonzero(emit: Emit, f: number, batch: number, k: number): void {
  const from = FRAME_RESERVED.offset;
  const to = from + FRAME_RESERVED.size;
  emit("frame-reserved-nonzero", f + from, f + to, batch, k, `batch ${batch} frame ${k}: reserved bytes ${from}..${to} are not zero`);
}

/** Fewer than a frame header's bytes remain at f before walkEnd. */
export function emitFrameHeaderTruncated(emit: Emit, f: number, walkEnd: number, batch: number, k: number): void {
  emit("frame-truncated", f, walkEnd, batch, k, `batch ${batch} frame ${k}: ${walkEnd - f} bytes left, a frame header needs ${FRAME_HEADER_SIZE}`);
}

/** A whole frame header at f whose payload and user headers run past walkEnd. */
export function emitFrameBodyTruncated(
  emit: Emit,
  f: number,
  walkEnd: number,
  batch: number,
  k: number,
  lengths: { payload: number; userHeaders: number; pastInput: boolean },
): void {
  const needs = FRAME_HEADER_SIZE + lengths.payload + lengths.userHeaders;
  const where = lengths.pastInput ? "the input" : "the blob";
  emit(
    "frame-truncated",
    f,
    walkEnd,
    batch,
    k,
    `batch ${batch} frame ${k}: needs ${needs} bytes (payload ${lengths.payload}, user headers ${lengths.userHeaders}), ${where} has ${walkEnd - f}`,
  );
}

/** The per-partition state continuity checks carry from one stamped batch to the next. */
export interface PartitionTail {
  readonly lastOffset: bigint | null;
  readonly baseTimestamp: bigint;
}

/**
 * Offsets and base timestamps must move forward between stamped batches of one partition. The kernel
 * walk's clean-batch path (clean-batch.ts) proves both findings absent without calling this: a finding
 * added here must be taught there too.
 */
export function checkContinuity(prev: PartitionTail, header: BatchHeader, firstOffset: bigint | null, pos: number, batch: number, emit: Emit): void {
  if (prev.lastOffset !== null && firstOffset !== null && firstOffset !== prev.lastOffset + 1n) {
    const f = BATCH_FIELD.base_offset;
    emit(
      "offset-discontinuity",
      pos + f.offset,
      pos + f.offset + f.size,
      batch,
      null,
      `batch ${batch}: first message offset ${firstOffset}, expected ${prev.lastOffset + 1n} after partition ${header.partitionId}'s previous batch`,
    );
  }
  if (header.baseTimestamp < prev.baseTimestamp) {
    const f = BATCH_FIELD.base_timestamp;
    emit(
      "timestamp-regression",
      pos + f.offset,
      pos + f.offset + f.size,
      batch,
      null,
      `batch ${batch}: base_timestamp ${header.baseTimestamp} < ${prev.baseTimestamp} of partition ${header.partitionId}'s previous batch`,
    );
  }
}
