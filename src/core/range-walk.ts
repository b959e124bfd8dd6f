/**
 * Analysis of one batch-aligned byte range through the wasm kernel's walk: bytes are read from a
 * ByteSource straight into the kernel's input area a window at a time, the kernel walks and checks
 * every frame, and this module does per batch (and per frame with a finding) what analyze() does,
 * with the same diagnostics in the same order. Ranges are merged by range-merge.ts.
 */
import { BATCH_HEADER_SIZE, FRAME_HEADER_SIZE } from "../format/fields.ts";
import { ByteReader } from "../format/reader.ts";
import { diagnostic, type Diagnostic, type DiagnosticCode } from "../format/diagnostics.ts";
import { findUserHeadersFault } from "../format/user-headers.ts";
import { hex64 } from "../format/values.ts";
import { BATCH_RECORD, BATCH_RECORD_WORDS, FLAGGED_RECORD, FLAGGED_RECORD_WORDS, KERNEL_FLAG } from "../checksum/kernel/abi.ts";
import type { KernelColumns, KernelWalker } from "../checksum/kernel/wasm-kernel.ts";
import { KeptColumnsBuilder } from "./frame-columns.ts";
import type { AnalyzeOptions } from "./analyze.ts";
import { FrameFlag, type BatchHeader, type BatchModel, type FrameColumns, type TruncatedFrame } from "./model.ts";

/** Random-access bytes of an input: memory, a file, a Blob read ahead. */
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
}

/** A dropFinding from a list of codes dropped whatever the batch: what can cross to a worker thread, where a function cannot. */
export function dropCodesFinding(codes: readonly DiagnosticCode[] | undefined): ((code: DiagnosticCode) => boolean) | undefined {
  return codes && codes.length > 0 ? (code) => codes.includes(code) : undefined;
}

/** The per-partition state continuity checks carry from one stamped batch to the next. */
export interface PartitionTail {
  readonly lastOffset: bigint | null;
  readonly baseTimestamp: bigint;
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
  readonly batches: BatchModel[];
  readonly frames: FrameColumns | null;
  readonly frameCount: number;
  /**
   * Kept diagnostics in emission order: every batch-level one, and the frame-level ones of every batch
   * until a batch ends with maxDiagnostics of them kept (so the range's first by position are all here).
   */
  readonly diagnostics: Diagnostic[];
  /** For each batch, the end of its group in `diagnostics`. */
  readonly diagnosticGroupEnds: number[];
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
  const frames = task.keepFrames ? new KeptColumnsBuilder(Math.min(1 << 16, Math.ceil((end - task.start) / FRAME_HEADER_SIZE) + 1)) : null;
  const batches: BatchModel[] = [];
  const diagnostics: Diagnostic[] = [];
  const groupEnds: number[] = [];
  let frameLevelKept = 0;
  let frameLevelClosed = false;
  const totals: Counts = { errors: 0, warnings: 0, infos: 0 };
  const tails = new Map<bigint, PartitionTail>();
  const pending: PendingContinuity[] = [];
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
  const closeBatch = (b: BatchModel): void => {
    batches.push(b);
    groupEnds.push(diagnostics.length);
    if (frameLevelKept >= maxDiagnostics) frameLevelClosed = true;
  };

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
      if (got <= 0) break;
      have += got;
    }
    const reachesEnd = winStart + have === size;
    const result = kernel.walk(have, winStart, task.firstBatch + batches.length, frames !== null, reachesEnd);
    const view = new DataView(area.buffer, area.byteOffset, have);
    const r = new ByteReader(new Uint8Array(area.buffer, area.byteOffset, have));
    for (let b = 0; b < result.batches; b++) {
      counts = { errors: 0, warnings: 0, infos: 0 };
      const rec = result.records.subarray(b * BATCH_RECORD_WORDS, (b + 1) * BATCH_RECORD_WORDS);
      const firstFrame = frameCount;
      stampedNow = view.getBigUint64((rec[BATCH_RECORD.start] as number) + 16, true) !== 0n;
      const model = batchFromRecord(
        rec,
        result.flaggedRecords,
        winStart,
        size,
        task.firstBatch + batches.length,
        firstFrame,
        view,
        r,
        emit,
        tails,
        pending,
        batches.length,
      );
      frameCount += model.frameCount;
      closeBatch({ ...model, ...counts });
    }
    if (frames && result.columns) {
      appendColumns(frames, result.columns, frameCount - result.frames);
      // Size the columns from the frame density seen so far, as analyze() does (frames found, never a length field).
      const done = winStart + result.consumed - task.start;
      if (done > 0) frames.reserve(Math.min((end - task.start) / FRAME_HEADER_SIZE, (frameCount / done) * (end - task.start) * 1.02 + 16));
    }
    pos = winStart + result.consumed;
    task.onProgress?.(pos);
    if (result.batches > 0) continue;

    // Nothing walked: the batch at pos ends the input, or does not fit the window yet.
    counts = { errors: 0, warnings: 0, infos: 0 };
    stampedNow = false;
    const index = task.firstBatch + batches.length;
    if (size - pos < BATCH_HEADER_SIZE) {
      emit("header-truncated", pos, size, index, null, `batch ${index}: ${size - pos} bytes left at 0x${pos.toString(16)}, a batch header needs 256`);
      closeBatch({
        index,
        start: pos,
        end: size,
        header: null,
        stamped: false,
        computedChecksum: null,
        firstFrame: frameCount,
        frameCount: 0,
        truncatedFrame: null,
        ...counts,
      });
      break;
    }
    const header = readBatchHeader(view, 0);
    stampedNow = header.baseTimestamp !== 0n;
    if (header.batchLength < BigInt(BATCH_HEADER_SIZE)) {
      emitReservedRuns(r, 0, pos, index, emit);
      emit("batch-length-too-small", pos + 32, pos + 40, index, null, `batch ${index}: batch_length ${header.batchLength} < 256, the walk cannot step past it`);
      closeBatch({
        index,
        start: pos,
        end: pos + BATCH_HEADER_SIZE,
        header,
        stamped: header.baseTimestamp !== 0n,
        computedChecksum: null,
        firstFrame: frameCount,
        frameCount: 0,
        truncatedFrame: null,
        ...counts,
      });
      break;
    }
    const needed = Math.min(pos + Number(header.batchLength), size) - pos;
    if (needed <= capacity) throw new Error(`kernel walked no batch at 0x${pos.toString(16)} though ${needed} bytes fit the window`);
    capacity = needed;
    area = kernel.inputArea(capacity);
  }
  const finished = frames?.finish() ?? null;
  return { batches, frames: finished, frameCount, diagnostics, diagnosticGroupEnds: groupEnds, totals, pending, tails };
}

type Emit = (code: DiagnosticCode, start: number, end: number, batch: number | null, frame: number | null, message: string) => void;

function readBatchHeader(v: DataView, at: number): BatchHeader {
  return {
    partitionId: v.getBigUint64(at, true),
    baseOffset: v.getBigUint64(at + 8, true),
    baseTimestamp: v.getBigUint64(at + 16, true),
    originTimestamp: v.getBigUint64(at + 24, true),
    batchLength: v.getBigUint64(at + 32, true),
    batchChecksum: v.getBigUint64(at + 40, true),
    messageCount: v.getUint32(at + 48, true),
  };
}

function emitReservedRuns(r: ByteReader, rel: number, pos: number, index: number, emit: Emit): void {
  for (const [s, e] of r.nonzeroRuns(rel + 52, rel + BATCH_HEADER_SIZE)) {
    emit("batch-reserved-nonzero", pos + s - rel, pos + e - rel, index, null, `batch ${index}: reserved header bytes ${s - rel}..${e - rel} are nonzero`);
  }
}

const u64At = (words: Uint32Array, at: number): bigint => (BigInt(words[at + 1] as number) << 32n) | BigInt(words[at] as number);

// One walked batch: the diagnostics analyze() emits for it, in its order, from the kernel's record.
function batchFromRecord(
  rec: Uint32Array,
  flagged: Uint32Array,
  winStart: number,
  size: number,
  index: number,
  firstFrame: number,
  view: DataView,
  r: ByteReader,
  emit: Emit,
  tails: Map<bigint, PartitionTail>,
  pending: PendingContinuity[],
  localBatch: number,
): Omit<BatchModel, keyof Counts> {
  const rel = rec[BATCH_RECORD.start] as number;
  const pos = winStart + rel;
  const walkEnd = winStart + (rec[BATCH_RECORD.walkEnd] as number);
  const flags = rec[BATCH_RECORD.flags] as number;
  const frameCount = rec[BATCH_RECORD.frameCount] as number;
  const header = readBatchHeader(view, rel);
  const stamped = header.baseTimestamp !== 0n;
  if (flags & KERNEL_FLAG.batchReservedNonzero) emitReservedRuns(r, rel, pos, index, emit);
  const declaredEnd = pos + Number(header.batchLength);
  if (declaredEnd > size) {
    emit(
      "batch-truncated",
      pos + 32,
      pos + 40,
      index,
      null,
      `batch ${index}: batch_length ${header.batchLength} runs ${declaredEnd - size} bytes past the end of the input`,
    );
  }
  const from = (rec[BATCH_RECORD.firstFlagged] as number) * FLAGGED_RECORD_WORDS;
  const to = from + (rec[BATCH_RECORD.flaggedCount] as number) * FLAGGED_RECORD_WORDS;
  for (let p = from; p < to; p += FLAGGED_RECORD_WORDS) {
    if (!((flagged[p + FLAGGED_RECORD.flags] as number) & KERNEL_FLAG.frameReservedNonzero)) continue;
    const f = winStart + (flagged[p + FLAGGED_RECORD.start] as number);
    const k = flagged[p + FLAGGED_RECORD.indexInBatch] as number;
    emit("frame-reserved-nonzero", f + 40, f + 48, index, k, `batch ${index} frame ${k}: reserved bytes 40..48 are not zero`);
  }
  let truncatedFrame: TruncatedFrame | null = null;
  if (flags & KERNEL_FLAG.batchTruncatedFrame) {
    const fRel = rec[BATCH_RECORD.truncatedStart] as number;
    const f = winStart + fRel;
    const k = frameCount;
    if (flags & KERNEL_FLAG.batchTruncatedHeaderComplete) {
      if (flags & KERNEL_FLAG.batchTruncatedReservedNonzero)
        emit("frame-reserved-nonzero", f + 40, f + 48, index, k, `batch ${index} frame ${k}: reserved bytes 40..48 are not zero`);
      const uh = view.getUint32(fRel + 32, true);
      const pl = view.getUint32(fRel + 36, true);
      truncatedFrame = { start: f, end: walkEnd, headerComplete: true };
      const where = walkEnd === size && declaredEnd > size ? "the input" : "the blob";
      emit(
        "frame-truncated",
        f,
        walkEnd,
        index,
        k,
        `batch ${index} frame ${k}: needs ${FRAME_HEADER_SIZE + pl + uh} bytes (payload ${pl}, user headers ${uh}), ${where} has ${walkEnd - f}`,
      );
    } else {
      truncatedFrame = { start: f, end: walkEnd, headerComplete: false };
      emit("frame-truncated", f, walkEnd, index, k, `batch ${index} frame ${k}: ${walkEnd - f} bytes left, a frame header needs 48`);
    }
  }
  const baseDelta = stamped && frameCount > 0 ? (rec[BATCH_RECORD.firstOffsetDelta] as number) : 0;
  for (let p = from; p < to; p += FLAGGED_RECORD_WORDS) {
    const ff = flagged[p + FLAGGED_RECORD.flags] as number;
    const sRel = flagged[p + FLAGGED_RECORD.start] as number;
    const s = winStart + sRel;
    const k = flagged[p + FLAGGED_RECORD.indexInBatch] as number;
    if (ff & KERNEL_FLAG.frameChecksumMismatch) {
      emit(
        "frame-checksum-mismatch",
        s,
        s + 8,
        index,
        k,
        `batch ${index} frame ${k}: stored checksum ${hex64(view.getBigUint64(sRel, true))} ≠ computed ${hex64(u64At(flagged, p + FLAGGED_RECORD.computedU64))}`,
      );
    }
    if (ff & KERNEL_FLAG.frameOffsetDeltaNotIndex) {
      const rule = stamped ? `frame 0's ${baseDelta} + ${k}` : `its index ${k}`;
      emit("offset-delta-not-index", s + 24, s + 28, index, k, `batch ${index} frame ${k}: offset_delta ${view.getUint32(sRel + 24, true)}, expected ${rule}`);
    }
    if (ff & KERNEL_FLAG.frameUserHeadersMalformed) {
      const uhLength = view.getUint32(sRel + 32, true);
      const uhRel = sRel + FRAME_HEADER_SIZE + view.getUint32(sRel + 36, true);
      const fault = findUserHeadersFault(new Uint8Array(view.buffer, view.byteOffset + uhRel, uhLength));
      if (!fault) throw new Error(`kernel and findUserHeadersFault disagree on the user headers at 0x${(winStart + uhRel).toString(16)}`);
      emit(
        "user-headers-malformed",
        winStart + uhRel,
        winStart + uhRel + uhLength,
        index,
        k,
        `batch ${index} frame ${k}: user headers are not Iggy TLV (${fault.reason}); shown raw`,
      );
    }
  }
  if (frameCount !== header.messageCount) {
    emit(
      "message-count-mismatch",
      pos + 48,
      pos + 52,
      index,
      null,
      `batch ${index}: message_count ${header.messageCount}, ${frameCount} complete frame${frameCount === 1 ? "" : "s"} walked`,
    );
  }
  if (header.messageCount === 0 && header.batchLength === BigInt(BATCH_HEADER_SIZE)) {
    emit("empty-batch", pos + 48, pos + 52, index, null, `batch ${index}: no messages; the server refuses to admit an empty batch`);
  }
  if (frameCount > 0 && !(flags & KERNEL_FLAG.batchHasZeroTimestampDelta)) {
    emit(
      "origin-not-earliest",
      pos + 24,
      pos + 32,
      index,
      null,
      `batch ${index}: no frame has timestamp_delta 0, so origin_timestamp ${header.originTimestamp} is not the earliest`,
    );
  }
  const computedChecksum = u64At(rec, BATCH_RECORD.checksumU64);
  if (computedChecksum !== header.batchChecksum) {
    emit(
      "batch-checksum-mismatch",
      pos + 40,
      pos + 48,
      index,
      null,
      `batch ${index}: stored batch_checksum ${hex64(header.batchChecksum)} ≠ computed ${hex64(computedChecksum)}`,
    );
  }
  if (stamped) {
    const firstOffset = frameCount > 0 ? header.baseOffset + BigInt(rec[BATCH_RECORD.firstOffsetDelta] as number) : null;
    const prev = tails.get(header.partitionId);
    if (prev) checkContinuity(prev, header, firstOffset, pos, index, emit);
    else pending.push({ localBatch, header, firstOffset });
    const lastOffset = frameCount > 0 ? header.baseOffset + BigInt(rec[BATCH_RECORD.lastOffsetDelta] as number) : null;
    tails.set(header.partitionId, { lastOffset, baseTimestamp: header.baseTimestamp });
  }
  return { index, start: pos, end: walkEnd, header, stamped, computedChecksum, firstFrame, frameCount, truncatedFrame };
}

/** Offsets and base timestamps must move forward between stamped batches of one partition (as analyze()). */
export function checkContinuity(prev: PartitionTail, header: BatchHeader, firstOffset: bigint | null, pos: number, batch: number, emit: Emit): void {
  if (prev.lastOffset !== null && firstOffset !== null && firstOffset !== prev.lastOffset + 1n) {
    emit(
      "offset-discontinuity",
      pos + 8,
      pos + 16,
      batch,
      null,
      `batch ${batch}: first message offset ${firstOffset}, expected ${prev.lastOffset + 1n} after partition ${header.partitionId}'s previous batch`,
    );
  }
  if (header.baseTimestamp < prev.baseTimestamp) {
    emit(
      "timestamp-regression",
      pos + 16,
      pos + 24,
      batch,
      null,
      `batch ${batch}: base_timestamp ${header.baseTimestamp} < ${prev.baseTimestamp} of partition ${header.partitionId}'s previous batch`,
    );
  }
}

// The kept columns of the kernel's columns of one window appended to the builder; a frame's flags are
// final as the kernel wrote them, and a frame flagged with a checksum mismatch keeps its computed checksum.
function appendColumns(frames: KeptColumnsBuilder, c: KernelColumns, expectedStart: number): void {
  const n = c.start.length;
  const at = frames.count;
  if (at !== expectedStart) throw new Error(`frame columns out of step: ${at} built, ${expectedStart} expected`);
  // Doubling when the density estimate fell short, so growth stays amortised.
  if (at + n > frames.allocated) frames.reserve(Math.max(at + n, frames.allocated * 2));
  frames.start.set(c.start, at);
  frames.offsetDelta.set(c.offsetDelta, at);
  frames.payloadLength.set(c.payloadLength, at);
  frames.userHeadersLength.set(c.userHeadersLength, at);
  frames.flags.set(c.flags, at);
  const flags = c.flags;
  for (let k = 0; k < n; k++) if ((flags[k] as number) & FrameFlag.checksumMismatch) frames.addMismatch(at + k, c.computedChecksum[k] as bigint);
  frames.count = at + n;
}
