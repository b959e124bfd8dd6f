/**
 * Analysis of one batch-aligned byte range through the wasm kernel's walk: bytes are read from a
 * ByteSource straight into the kernel's input area a window at a time, the kernel walks and checks
 * every frame, and this module does per batch (and per frame with a finding) what analyze() does,
 * with the same diagnostics in the same order. Ranges are merged by range-merge.ts.
 */
import { BATCH_FIELD, BATCH_HEADER_LAYOUT, BATCH_HEADER_SIZE, FRAME_FIELD, FRAME_HEADER_SIZE } from "../../format/fields.ts";
import { readHeader } from "../../format/field-codec.ts";
import { hexOffset } from "../../format/values.ts";
import { ByteReader } from "../../format/reader.ts";
import { frameLengthAt } from "../../format/walk-steps.ts";
import { diagnostic, FRAME_FLAG_OF, type Diagnostic, type DiagnosticCode } from "../../format/diagnostics.ts";
import { BATCH_RECORD, BATCH_RECORD_WORDS, FLAGGED_RECORD, FLAGGED_RECORD_WORDS, KERNEL_FLAG } from "../../checksum/kernel/abi.ts";
import type { KernelColumns, KernelWalker, WalkResult } from "../../checksum/kernel/wasm-kernel.ts";
import { KeptColumnsBuilder } from "../model/frame-columns-build.ts";
import type { BatchTable } from "../model/batch-table.ts";
import { BatchTableBuilder } from "../model/batch-table-build.ts";
import { CleanBatches } from "./clean-batch.ts";
import { U32List } from "../model/u32-list.ts";
import type { AnalyzeOptions } from "./walk-options.ts";
import { widePositions, type BatchHeader, type BatchModel, type FrameColumns, type TruncatedFrame } from "../model/model.ts";
import {
  batchContext,
  checkContinuity,
  emitBatchLengthTooSmall,
  emitBatchReservedRuns,
  emitBatchTruncated,
  emitFrameBodyTruncated,
  emitFrameHeaderTruncated,
  emitFrameReservedNonzero,
  emitHeaderTruncated,
  unwalkedBatch,
  FRAME_CHECKS,
  frameContext,
  JS_ONLY_FRAME_CHECKS,
  runBatchChecks,
  type Emit,
  type FrameContext,
  type PartitionTail,
} from "./walk-checks.ts";

const USER_HEADERS_LENGTH_AT = FRAME_FIELD.user_headers_length.offset;
const B = BATCH_FIELD;
const PAYLOAD_LENGTH_AT = FRAME_FIELD.payload_length.offset;
const BASE_TIMESTAMP_AT = BATCH_FIELD.base_timestamp.offset;

/** Random-access bytes of an input: memory, a file, a Blob read ahead. */
/**
 * The input ended before a byte it was measured to hold (a file truncated while it is read): an I/O
 * problem the host reports (the CLI: exit 2 with this message), never a finding about the bytes.
 */
export class InputShrank extends Error {
  override readonly name = "InputShrank";
}

export interface ByteSource {
  readonly size: number;
  /** Copies bytes [position, position + into.length) into `into` (fewer only at the end); returns how many. */
  read(into: Uint8Array, position: number): number;
}

/** A ByteSource over bytes already in memory. */
export function memorySource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read(into, position) {
      const part = bytes.subarray(position, position + into.length);
      into.set(part);
      return part.length;
    },
  };
}

/** Where a range starts and what it keeps. */
export interface RangeTask {
  /** First byte of the range: a batch start (or the envelope's end). */
  readonly start: number;
  /** A batch boundary or the input's end; the walk stops there. */
  readonly end: number;
  /** Index of the range's first batch in the whole input. */
  readonly firstBatch: number;
  /** Whether the model's frame columns are built (not needed for a summary or the JSON without frames). */
  readonly keepFrames: boolean;
  readonly maxDiagnostics: number;
  /** Bytes read per window (2-4 MiB suits a file); a window grows to hold a larger batch. */
  readonly windowBytes?: number;
  readonly onProgress?: (bytesDone: number) => void;
  /** A container's rule (AnalyzeOptions.dropFinding): true drops a finding before it is counted or kept. */
  readonly dropFinding?: AnalyzeOptions["dropFinding"];
  /**
   * Columns to append the range's frames to (its first frame is their frame `count`), in place of columns
   * of its own: the frames of a whole stream of ranges land in one set, with nothing to join (the result's frames are then null).
   */
  readonly frames?: KeptColumnsBuilder;
}

/** A dropFinding from a list of codes dropped whatever the batch: what can cross to a worker thread, where a function cannot. */
export function dropCodesFinding(codes: readonly DiagnosticCode[] | undefined): ((code: DiagnosticCode) => boolean) | undefined {
  return codes && codes.length > 0 ? (code) => codes.includes(code) : undefined;
}

/** A stamped batch whose partition had no earlier batch in its range: checked against earlier ranges at merge. */
export interface PendingContinuity {
  /** Position of the batch in the range's batch list. */
  readonly localBatch: number;
  readonly header: BatchHeader;
  readonly firstOffset: bigint | null;
}

/** What one range holds: batches with range-relative firstFrame, diagnostics in emission order, and the state merge needs. */
export interface RangeResult {
  readonly batches: BatchTable;
  /** Null without keepFrames, or where the frames went to RangeTask.frames. */
  readonly frames: FrameColumns | null;
  readonly frameCount: number;
  /**
   * Kept diagnostics in emission order: every batch-level one, and the frame-level ones of every batch
   * until a batch ends with maxDiagnostics of them kept (so the range's first by position are all here).
   */
  readonly diagnostics: Diagnostic[];
  /** For each batch, the end of its group in `diagnostics`. */
  readonly diagnosticGroupEnds: Uint32Array;
  readonly totals: { errors: number; warnings: number; infos: number };
  readonly pending: PendingContinuity[];
  /** Tail of every partition seen, after the range's last batch. */
  readonly tails: Map<bigint, PartitionTail>;
}

type Counts = { errors: number; warnings: number; infos: number };

/** Walks one range of `source` through the kernel; see RangeTask. */
export function walkRange(kernel: KernelWalker, source: ByteSource, task: RangeTask): RangeResult {
  const size = source.size;
  const { end, maxDiagnostics } = task;
  const windowBytes = task.windowBytes ?? 4 << 20;
  const sink = task.keepFrames ? (task.frames ?? null) : null;
  // The sink's frames before this range's: the columns' indexes are the sink's.
  const frameBase = sink ? sink.count : 0;
  // Else made once the first window shows the frame density, so it is sized once instead of grown from a guess.
  let frames: KeptColumnsBuilder | null = sink;
  const batches = new BatchTableBuilder();
  const diagnostics: Diagnostic[] = [];
  const groupEnds = new U32List();
  let frameLevelKept = 0;
  let frameLevelClosed = false;
  const totals: Counts = { errors: 0, warnings: 0, infos: 0 };
  const tails = new Map<bigint, PartitionTail>();
  const pending: PendingContinuity[] = [];
  // Batches with nothing to report skip the header object and the bigints (clean-batch.ts).
  const clean = BatchTableBuilder.copiesWords ? new CleanBatches(tails) : null;
  let counts: Counts = { errors: 0, warnings: 0, infos: 0 };
  let frameCount = 0;
  // As analyze(): a finding before a batch's header is read counts as unstamped.
  let stampedNow = false;

  const emit = (code: DiagnosticCode, start: number, stop: number, batch: number | null, frame: number | null, message: string): void => {
    if (task.dropFinding?.(code, stampedNow)) return;
    const d = diagnostic(code, start, stop, batch, frame, message);
    const key = d.severity === "error" ? "errors" : d.severity === "warning" ? "warnings" : "infos";
    totals[key]++;
    counts[key]++;
    // The same rule as analyze()'s cap (diagnostic-cap.ts); mergeRanges picks the final ones by position.
    if (d.batch === null || d.frame === null) diagnostics.push(d);
    else if (!frameLevelClosed) {
      diagnostics.push(d);
      frameLevelKept++;
    }
  };
  const closeBatch = (b: Omit<BatchModel, keyof Counts>, c: Counts, bytes?: Uint8Array, headerAt?: number): void => {
    batches.push(b, c, bytes, headerAt);
    groupEnds.push(diagnostics.length);
    if (frameLevelKept >= maxDiagnostics) frameLevelClosed = true;
  };

  // Frame flags of the JavaScript-only frame checks, as (frame, bits) pairs, set once the window's columns are in.
  const lateFlags: number[] = [];
  let capacity = Math.max(windowBytes, BATCH_HEADER_SIZE);
  let area = kernel.inputArea(capacity);
  let winStart = task.start;
  let have = 0;
  let pos = task.start;
  while (pos < end) {
    // Keep the unwalked tail, then fill the window up to its capacity (never past the range's end).
    if (pos > winStart) {
      area.copyWithin(0, pos - winStart, have);
      have -= pos - winStart;
      winStart = pos;
    }
    while (have < capacity && winStart + have < end) {
      const want = Math.min(capacity - have, end - winStart - have);
      const got = source.read(area.subarray(have, have + want), winStart + have);
      // The range lies inside the size measured at the start: a short read means the input shrank meanwhile.
      if (got <= 0) throw new InputShrank(`the input ends at byte ${winStart + have} now; it had ${size} bytes when the read began`);
      have += got;
    }
    const reachesEnd = winStart + have === size;
    const result = kernel.walk(have, winStart, task.keepFrames, reachesEnd);
    const r = new ByteReader(new Uint8Array(area.buffer, area.byteOffset, have));
    // The batch table sized once from the first window's batch density (doubling from 8 would copy it about twice,
    // into new memory each time); past the estimate it doubles.
    if (batches.length === 0 && result.batches > 0 && result.consumed < end - winStart) {
      const span = end - task.start;
      batches.reserve(Math.min(span / BATCH_HEADER_SIZE, (result.batches / result.consumed) * span * 1.02 + 16));
    }
    for (let b = 0; b < result.batches; b++) {
      const rec = b * BATCH_RECORD_WORDS;
      const firstFrame = frameCount;
      const rel = result.records[rec + BATCH_RECORD.start] as number;
      const stamped = r.u32(rel + BASE_TIMESTAMP_AT) !== 0 || r.u32(rel + BASE_TIMESTAMP_AT + 4) !== 0;
      const index = task.firstBatch + batches.length;
      if (clean && clean.isClean(result.records, rec, r, rel, winStart + rel, size, index, readBatchHeader)) {
        const n = result.records[rec + BATCH_RECORD.frameCount] as number;
        batches.pushClean(
          index,
          winStart + rel,
          winStart + (result.records[rec + BATCH_RECORD.walkEnd] as number),
          stamped,
          firstFrame,
          n,
          result.records,
          rec + BATCH_RECORD.checksumU64,
          r.bytes,
          rel,
        );
        groupEnds.push(diagnostics.length);
        frameCount += n;
        continue;
      }
      clean?.flush();
      counts = { errors: 0, warnings: 0, infos: 0 };
      stampedNow = stamped;
      const m = batchFromRecord(
        result.records,
        rec,
        result.flaggedRecords,
        winStart,
        size,
        index,
        firstFrame,
        r,
        emit,
        tails,
        pending,
        batches.length,
        lateFlags,
      );
      frameCount += m.frameCount;
      if (clean && m.stamped && m.header) clean.follow(m.header);
      // The header's values are copied from its bytes: no bigint per field and batch.
      closeBatch(m, counts, r.bytes, m.start - winStart);
    }
    if (result.columns) {
      // Size the columns from the frame density seen so far, as analyze() does (frames found, never a length field).
      const done = winStart + result.consumed - task.start;
      const estimate = done > 0 ? Math.min((end - task.start) / FRAME_HEADER_SIZE, (frameCount / done) * (end - task.start) * 1.02 + 16) : 0;
      frames ??= new KeptColumnsBuilder(Math.ceil(Math.max(estimate, frameCount)), widePositions(end));
      appendColumns(
        frames,
        result.columns,
        result,
        frameBase + frameCount - result.frames,
        (b) => r.u64((result.records[b * BATCH_RECORD_WORDS + BATCH_RECORD.start] as number) + BASE_TIMESTAMP_AT) !== 0n,
      );
      for (let i = 0; i < lateFlags.length; i += 2) frames.flags[frameBase + (lateFlags[i] as number)]! |= lateFlags[i + 1] as number;
      // A sink is sized by its owner, for the whole stream.
      if (!sink) frames.reserve(estimate);
    }
    lateFlags.length = 0;
    pos = winStart + result.consumed;
    task.onProgress?.(pos);
    if (result.batches > 0) continue;

    // Nothing walked: the batch at pos ends the input, or does not fit the window yet.
    counts = { errors: 0, warnings: 0, infos: 0 };
    stampedNow = false;
    const index = task.firstBatch + batches.length;
    if (size - pos < BATCH_HEADER_SIZE) {
      emitHeaderTruncated(emit, pos, size, index);
      closeBatch(unwalkedBatch(index, pos, size, null, frameCount), counts);
      break;
    }
    const header = readHeader(r, 0, BATCH_HEADER_LAYOUT);
    stampedNow = header.baseTimestamp !== 0n;
    if (header.batchLength < BigInt(BATCH_HEADER_SIZE)) {
      emitBatchReservedRuns(emit, r, 0, pos, index);
      emitBatchLengthTooSmall(emit, pos, index, header.batchLength);
      closeBatch(unwalkedBatch(index, pos, size, header, frameCount), counts);
      break;
    }
    const needed = Math.min(pos + Number(header.batchLength), size) - pos;
    if (needed <= capacity) throw new Error(`kernel walked no batch at ${hexOffset(pos, 0)} though ${needed} bytes fit the window`);
    capacity = needed;
    area = kernel.inputArea(capacity);
  }
  clean?.flush();
  const finished = task.keepFrames && !sink ? (frames ?? new KeptColumnsBuilder(0, widePositions(task.end))).finish() : null;
  return { batches: batches.finish(), frames: finished, frameCount, diagnostics, diagnosticGroupEnds: groupEnds.toArray(), totals, pending, tails };
}

/**
 * readHeader(r, at, BATCH_HEADER_LAYOUT) as one object literal: the same keys in wire order and the same
 * values, without the table-driven loop that costs about a microsecond per batch. Checked against the table at load.
 */
function readBatchHeader(r: ByteReader, at: number): BatchHeader {
  return {
    partitionId: r.u64(at + B.partition_id.offset),
    baseOffset: r.u64(at + B.base_offset.offset),
    baseTimestamp: r.u64(at + B.base_timestamp.offset),
    originTimestamp: r.u64(at + B.origin_timestamp.offset),
    batchLength: r.u64(at + B.batch_length.offset),
    batchChecksum: r.u64(at + B.batch_checksum.offset),
    messageCount: r.u32(at + B.message_count.offset),
  };
}
{
  const probe = new ByteReader(Uint8Array.from({ length: BATCH_HEADER_SIZE }, (_, i) => i * 37));
  const want = readHeader(probe, 0, BATCH_HEADER_LAYOUT) as Record<string, unknown>;
  const got = readBatchHeader(probe, 0) as Record<string, unknown>;
  const keys = Object.keys(want);
  if (keys.join() !== Object.keys(got).join() || keys.some((k) => want[k] !== got[k]))
    throw new Error("readBatchHeader is out of step with BATCH_HEADER_LAYOUT");
}

const u64At = (words: Uint32Array, at: number): bigint => (BigInt(words[at + 1] as number) << 32n) | BigInt(words[at] as number);

// One walked batch: the diagnostics analyze() emits for it, in its order, from the kernel's record at word `at` of `rec`.
function batchFromRecord(
  rec: Uint32Array,
  at: number,
  flagged: Uint32Array,
  winStart: number,
  size: number,
  index: number,
  firstFrame: number,
  r: ByteReader,
  emit: Emit,
  tails: Map<bigint, PartitionTail>,
  pending: PendingContinuity[],
  localBatch: number,
  lateFlags: number[],
): Omit<BatchModel, keyof Counts> {
  const rel = rec[at + BATCH_RECORD.start] as number;
  const pos = winStart + rel;
  const walkEnd = winStart + (rec[at + BATCH_RECORD.walkEnd] as number);
  const flags = rec[at + BATCH_RECORD.flags] as number;
  const frameCount = rec[at + BATCH_RECORD.frameCount] as number;
  const header = readBatchHeader(r, rel);
  const stamped = header.baseTimestamp !== 0n;
  if (flags & KERNEL_FLAG.batchReservedNonzero) emitBatchReservedRuns(emit, r, rel, pos, index);
  const declaredEnd = pos + Number(header.batchLength);
  if (declaredEnd > size) {
    emitBatchTruncated(emit, pos, index, header.batchLength, size);
  }
  const from = (rec[at + BATCH_RECORD.firstFlagged] as number) * FLAGGED_RECORD_WORDS;
  const to = from + (rec[at + BATCH_RECORD.flaggedCount] as number) * FLAGGED_RECORD_WORDS;
  for (let p = from; p < to; p += FLAGGED_RECORD_WORDS) {
    if (!((flagged[p + FLAGGED_RECORD.flags] as number) & KERNEL_FLAG.frameReservedNonzero)) continue;
    const f = winStart + (flagged[p + FLAGGED_RECORD.start] as number);
    const k = flagged[p + FLAGGED_RECORD.indexInBatch] as number;
    emitFrameReservedNonzero(emit, f, index, k);
  }
  let truncatedFrame: TruncatedFrame | null = null;
  if (flags & KERNEL_FLAG.batchTruncatedFrame) {
    const fRel = rec[at + BATCH_RECORD.truncatedStart] as number;
    const f = winStart + fRel;
    const k = frameCount;
    if (flags & KERNEL_FLAG.batchTruncatedHeaderComplete) {
      if (flags & KERNEL_FLAG.batchTruncatedReservedNonzero) emitFrameReservedNonzero(emit, f, index, k);
      const userHeaders = r.u32(fRel + USER_HEADERS_LENGTH_AT);
      const payload = r.u32(fRel + PAYLOAD_LENGTH_AT);
      truncatedFrame = { start: f, end: walkEnd, headerComplete: true };
      emitFrameBodyTruncated(emit, f, walkEnd, index, k, { payload, userHeaders, pastInput: walkEnd === size && declaredEnd > size });
    } else {
      truncatedFrame = { start: f, end: walkEnd, headerComplete: false };
      emitFrameHeaderTruncated(emit, f, walkEnd, index, k);
    }
  }
  const baseDelta = stamped && frameCount > 0 ? (rec[at + BATCH_RECORD.firstOffsetDelta] as number) : 0;
  const frames = frameContext(r, winStart, rel, index, stamped, baseDelta);
  if (JS_ONLY_FRAME_CHECKS.length === 0) {
    for (let p = from; p < to; p += FLAGGED_RECORD_WORDS) {
      frames.at = flagged[p + FLAGGED_RECORD.start] as number;
      frames.k = flagged[p + FLAGGED_RECORD.indexInBatch] as number;
      frames.computedChecksum = u64At(flagged, p + FLAGGED_RECORD.computedU64);
      runFlaggedChecks(frames, flagged[p + FLAGGED_RECORD.flags] as number, emit);
    }
  } else {
    checkEveryFrame(frames, rel + BATCH_HEADER_SIZE, frameCount, flagged, from, to, firstFrame, lateFlags, emit);
  }
  const computedChecksum = u64At(rec, at + BATCH_RECORD.checksumU64);
  const hasZeroTimestampDelta = (flags & KERNEL_FLAG.batchHasZeroTimestampDelta) !== 0;
  runBatchChecks(batchContext(header, pos, index, frameCount, computedChecksum, hasZeroTimestampDelta), emit);
  if (stamped) {
    const firstOffset = frameCount > 0 ? header.baseOffset + BigInt(rec[at + BATCH_RECORD.firstOffsetDelta] as number) : null;
    const prev = tails.get(header.partitionId);
    if (prev) checkContinuity(prev, header, firstOffset, pos, index, emit);
    else pending.push({ localBatch, header, firstOffset });
    const lastOffset = frameCount > 0 ? header.baseOffset + BigInt(rec[at + BATCH_RECORD.lastOffsetDelta] as number) : null;
    tails.set(header.partitionId, { lastOffset, baseTimestamp: header.baseTimestamp });
  }
  return { index, start: pos, end: walkEnd, header, stamped, computedChecksum, firstFrame, frameCount, truncatedFrame };
}

// The frame checks the kernel flagged on one frame; the kernel and the check must agree.
function runFlaggedChecks(frame: FrameContext, kernelFlags: number, emit: Emit): void {
  for (const c of FRAME_CHECKS) {
    if (c.kernelFlag === null || !(kernelFlags & c.kernelFlag)) continue;
    const found = c.check(frame);
    if (!found) throw new Error(`the kernel flagged ${c.code} at ${hexOffset(frame.base + frame.at, 0)}, its check finds nothing`);
    emit(c.code, found.start, found.end, frame.batch, frame.k, found.message);
  }
}

// With a check the kernel does not flag, every frame of the batch is walked here, in analyze()'s order:
// the flagged checks where the kernel flagged the frame, the JavaScript-only ones on every frame.
function checkEveryFrame(
  frame: FrameContext,
  firstAt: number,
  frameCount: number,
  flagged: Uint32Array,
  from: number,
  to: number,
  firstFrame: number,
  lateFlags: number[],
  emit: Emit,
): void {
  let p = from;
  let at = firstAt;
  for (let k = 0; k < frameCount; k++) {
    frame.at = at;
    frame.k = k;
    let kernelFlags = 0;
    // Frames the kernel did not flag have a matching checksum: the stored one is the computed one.
    frame.computedChecksum = frame.r.u64(at + FRAME_FIELD.checksum.offset);
    if (p < to && flagged[p + FLAGGED_RECORD.indexInBatch] === k) {
      kernelFlags = flagged[p + FLAGGED_RECORD.flags] as number;
      frame.computedChecksum = u64At(flagged, p + FLAGGED_RECORD.computedU64);
      p += FLAGGED_RECORD_WORDS;
    }
    for (const c of FRAME_CHECKS) {
      if (c.kernelFlag !== null) {
        if (kernelFlags & c.kernelFlag) runFlaggedChecks(frame, kernelFlags & c.kernelFlag, emit);
        continue;
      }
      const found = c.check(frame);
      if (!found) continue;
      lateFlags.push(firstFrame + k, FRAME_FLAG_OF[c.code]);
      emit(c.code, found.start, found.end, frame.batch, k, found.message);
    }
    at += frameLengthAt(frame.r, at);
  }
}

// The kernel's kept columns of one window appended to the builder; a frame's flags are final as the kernel
// wrote them, and a frame flagged with a checksum mismatch keeps the computed checksum of its flagged record.
// Per batch and per flagged frame, never per frame: each batch's last user_headers_length and the offset_delta
// runs come from the records (a frame not flagged offset-delta-not-index has its batch's base delta + its index).
function appendColumns(frames: KeptColumnsBuilder, c: KernelColumns, result: WalkResult, expectedStart: number, stamped: (batch: number) => boolean): void {
  const n = c.start.length;
  const at = frames.count;
  if (at !== expectedStart) throw new Error(`frame columns out of step: ${at} built, ${expectedStart} expected`);
  // Doubling when the density estimate fell short, so growth stays amortised.
  if (at + n > frames.allocated) frames.reserve(Math.max(at + n, frames.allocated * 2));
  if (c.startBase === 0) frames.start.set(c.start, at);
  else for (let j = 0; j < n; j++) frames.start[at + j] = c.startBase + (c.start[j] as number);
  frames.payloadLength.set(c.payloadLength, at);
  frames.flags.set(c.flags, at);
  const { records, flaggedRecords: flagged } = result;
  for (let b = 0; b < result.batches; b++) {
    const rec = b * BATCH_RECORD_WORDS;
    const from = (records[rec + BATCH_RECORD.firstFlagged] as number) * FLAGGED_RECORD_WORDS;
    const to = from + (records[rec + BATCH_RECORD.flaggedCount] as number) * FLAGGED_RECORD_WORDS;
    const first = at + (records[rec + BATCH_RECORD.firstFrame] as number);
    const count = records[rec + BATCH_RECORD.frameCount] as number;
    if (count === 0) continue;
    frames.addLast(first + count - 1, records[rec + BATCH_RECORD.lastUserHeadersLength] as number);
    const firstDelta = records[rec + BATCH_RECORD.firstOffsetDelta] as number;
    const baseDelta = stamped(b) ? firstDelta : 0;
    frames.noteOffsetDelta(first, firstDelta);
    for (let p = from; p < to; p += FLAGGED_RECORD_WORDS) {
      const flags = flagged[p + FLAGGED_RECORD.flags] as number;
      const k = flagged[p + FLAGGED_RECORD.indexInBatch] as number;
      if (flags & KERNEL_FLAG.frameChecksumMismatch) frames.addMismatch(first + k, u64At(flagged, p + FLAGGED_RECORD.computedU64));
      if (!(flags & KERNEL_FLAG.frameOffsetDeltaNotIndex)) continue;
      frames.noteOffsetDelta(first + k, flagged[p + FLAGGED_RECORD.offsetDelta] as number);
      // The frames after it are back on the batch's rule, unless the next one is flagged too (it notes itself).
      if (k + 1 < count) frames.noteOffsetDelta(first + k + 1, baseDelta + k + 1);
    }
  }
  frames.count = at + n;
}
