/**
 * The independent reference the walk tests compare the shipped walk against: the JavaScript walk,
 * frame by frame over the whole input, hashing with hash-wasm's XXH3 (an XXH3 build that is not our
 * kernel's). analyze() ships only the kernel's walk (core/walk/stream-analyze.ts); this one stays here so a
 * fault in the kernel, its records or the fast path shows as a difference. Both run the same check rows
 * (core/walk/walk-checks.ts): the rows are the rule, the walks only where and how they run.
 */
import { createXXHash3, type IHasher } from "hash-wasm";
import { BATCH_HEADER_LAYOUT, BATCH_HEADER_SIZE, FRAME_FIELD, FRAME_HEADER_SIZE } from "../src/format/fields.ts";
import { readHeader } from "../src/format/field-codec.ts";
import { ByteReader } from "../src/format/reader.ts";
import { diagnostic, FRAME_FLAG_OF, FrameFlag, type DiagnosticCode } from "../src/format/diagnostics.ts";
import type { Xxh3 } from "../src/checksum/xxh3.ts";
import { computeBatchChecksum, computeFrameChecksums } from "../src/checksum/verify.ts";
import { DiagnosticKeeper } from "../src/core/model/diagnostic-cap.ts";
import { FrameColumnsBuilder } from "../src/core/model/frame-columns-build.ts";
import { widePositions, type Analysis, type BatchHeader, type TruncatedFrame } from "../src/core/model/model.ts";
import { BatchTableBuilder } from "../src/core/model/batch-table-build.ts";
import { DEFAULT_MAX_DIAGNOSTICS, type AnalyzeOptions } from "../src/core/walk/walk-options.ts";
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
  runBatchChecks,
  type Emit,
  type PartitionTail,
} from "../src/core/walk/walk-checks.ts";

/** hash-wasm's XXH3 behind the Xxh3 interface: the reference's hash, and an encoder's in tests. */
export function loadHashWasmXxh3(): Promise<Xxh3> {
  return createXXHash3(0, 0).then(wrapHasher);
}

function wrapHasher(hasher: IHasher): Xxh3 {
  // hash-wasm's digest is the canonical big-endian byte order of the 64-bit value, copied into one scratch buffer.
  const scratch = new Uint8Array(8);
  const scratchView = new DataView(scratch.buffer);
  const digestValue = (): bigint => {
    scratch.set(hasher.digest("binary"));
    return scratchView.getBigUint64(0, false);
  };
  return {
    hash(data) {
      hasher.init();
      hasher.update(data);
      return digestValue();
    },
    hashWindows(input, starts, ends, from, to, out) {
      for (let i = from; i < to; i++) {
        hasher.init();
        hasher.update(input.subarray(starts[i], ends[i]));
        out[i] = digestValue();
      }
    },
  };
}

/** The reference's XXH3 (hash-wasm). */
export const referenceXxh3: Xxh3 = await loadHashWasmXxh3();

/** A field as the decoder relies on it: where it is, and the type its read below assumes. */
type Field<T extends string> = { readonly offset: number; readonly size: number; readonly type: T };

// The per-frame loop reads at offsets taken once from the layout table, as plain number constants,
// never through the table; the Field<…> annotations make the compiler check that each read below
// still matches its field's type when the table changes.
const FRAME_CHECKSUM: Field<"u64"> = FRAME_FIELD.checksum;
const OFFSET_DELTA: Field<"u32"> = FRAME_FIELD.offset_delta;
const TIMESTAMP_DELTA: Field<"u32"> = FRAME_FIELD.timestamp_delta;
const USER_HEADERS_LENGTH: Field<"u32"> = FRAME_FIELD.user_headers_length;
const PAYLOAD_LENGTH: Field<"u32"> = FRAME_FIELD.payload_length;
const CHECKSUM_AT = FRAME_CHECKSUM.offset;
const OFFSET_DELTA_AT = OFFSET_DELTA.offset;
const TIMESTAMP_DELTA_AT = TIMESTAMP_DELTA.offset;
const USER_HEADERS_LENGTH_AT = USER_HEADERS_LENGTH.offset;
const PAYLOAD_LENGTH_AT = PAYLOAD_LENGTH.offset;
const FRAME_RESERVED_START = FRAME_FIELD.reserved.offset;
const FRAME_RESERVED_END = FRAME_FIELD.reserved.offset + FRAME_FIELD.reserved.size;

/** The Analysis analyze() must give for `bytes`, walked frame by frame here with hash-wasm's XXH3. */
export function referenceAnalyze(bytes: Uint8Array, options: AnalyzeOptions = {}): Analysis {
  const xxh = referenceXxh3;
  const maxDiagnostics = options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS;
  const progressEvery = options.progressEveryBytes ?? 8 << 20;
  const size = bytes.length;
  const r = new ByteReader(bytes);
  const frames = new FrameColumnsBuilder(Math.min(1 << 16, Math.ceil(size / FRAME_HEADER_SIZE) + 1), widePositions(size));
  const batches = new BatchTableBuilder();
  const kept = new DiagnosticKeeper(maxDiagnostics);
  const totals = { errors: 0, warnings: 0, infos: 0 };
  let counts = { errors: 0, warnings: 0, infos: 0 };
  const tails = new Map<bigint, PartitionTail>();
  let nextProgress = progressEvery;
  let stampedNow = false;

  const emit = (code: DiagnosticCode, start: number, end: number, batch: number | null, frame: number | null, message: string): void => {
    if (options.dropFinding?.(code, stampedNow)) return;
    const d = diagnostic(code, start, end, batch, frame, message);
    const key = d.severity === "error" ? "errors" : d.severity === "warning" ? "warnings" : "infos";
    totals[key]++;
    counts[key]++;
    kept.add(d);
  };

  let pos = Math.max(0, Math.min(size, Math.trunc(options.startOffset ?? 0)));
  while (pos < size) {
    const index = batches.length;
    counts = { errors: 0, warnings: 0, infos: 0 };
    stampedNow = false;
    if (size - pos < BATCH_HEADER_SIZE) {
      emitHeaderTruncated(emit, pos, size, index);
      batches.push(unwalkedBatch(index, pos, size, null, frames.count), counts);
      break;
    }
    const header: BatchHeader = readHeader(r, pos, BATCH_HEADER_LAYOUT);
    const stamped = header.baseTimestamp !== 0n;
    stampedNow = stamped;
    emitBatchReservedRuns(emit, r, pos, pos, index);
    if (header.batchLength < BigInt(BATCH_HEADER_SIZE)) {
      emitBatchLengthTooSmall(emit, pos, index, header.batchLength);
      batches.push(unwalkedBatch(index, pos, size, header, frames.count), counts);
      break;
    }
    // Compared as a float: batch_length may be up to 2^64−1, far past any input, and is never used to allocate.
    const declaredEnd = pos + Number(header.batchLength);
    if (declaredEnd > size) {
      emitBatchTruncated(emit, pos, index, header.batchLength, size);
    }
    const walkEnd = Math.min(declaredEnd, size);

    const firstFrame = frames.count;
    let truncatedFrame: TruncatedFrame | null = null;
    let f = pos + BATCH_HEADER_SIZE;
    while (f < walkEnd) {
      const inBatch = frames.count - firstFrame;
      if (walkEnd - f < FRAME_HEADER_SIZE) {
        truncatedFrame = { start: f, end: walkEnd, headerComplete: false };
        emitFrameHeaderTruncated(emit, f, walkEnd, index, inBatch);
        break;
      }
      const userHeadersLength = r.u32(f + USER_HEADERS_LENGTH_AT);
      const payloadLength = r.u32(f + PAYLOAD_LENGTH_AT);
      const reservedNonzero = !r.allZero(f + FRAME_RESERVED_START, f + FRAME_RESERVED_END);
      if (reservedNonzero) emitFrameReservedNonzero(emit, f, index, inBatch);
      const frameEnd = f + FRAME_HEADER_SIZE + payloadLength + userHeadersLength;
      if (frameEnd > walkEnd) {
        truncatedFrame = { start: f, end: walkEnd, headerComplete: true };
        const pastInput = walkEnd === size && declaredEnd > size;
        emitFrameBodyTruncated(emit, f, walkEnd, index, inBatch, { payload: payloadLength, userHeaders: userHeadersLength, pastInput });
        break;
      }
      const i = frames.next();
      frames.start[i] = f;
      frames.end[i] = frameEnd;
      frames.batch[i] = index;
      frames.indexInBatch[i] = inBatch;
      frames.offsetDelta[i] = r.u32(f + OFFSET_DELTA_AT);
      frames.timestampDelta[i] = r.u32(f + TIMESTAMP_DELTA_AT);
      frames.payloadLength[i] = payloadLength;
      frames.userHeadersLength[i] = userHeadersLength;
      frames.storedChecksum[i] = r.u64(f + CHECKSUM_AT);
      frames.flags[i] = reservedNonzero ? FrameFlag.reservedNonzero : 0;
      f = frameEnd;
    }
    const frameCount = frames.count - firstFrame;
    computeFrameChecksums(xxh, bytes, frames.start, frames.end, firstFrame, frames.count, frames.computedChecksum);
    checkFrames(frames, firstFrame, frameCount, pos, index, stamped, r, emit);

    const computedChecksum = computeBatchChecksum(xxh, bytes, pos, frames.start, firstFrame, frames.count);
    const hasZeroTimestampDelta = frames.timestampDelta.subarray(firstFrame, frames.count).includes(0);
    runBatchChecks(batchContext(header, pos, index, frameCount, computedChecksum, hasZeroTimestampDelta), emit);
    if (stamped) {
      const firstOffset = frameCount > 0 ? header.baseOffset + BigInt(frames.offsetDelta[firstFrame] as number) : null;
      const prev = tails.get(header.partitionId);
      if (prev) checkContinuity(prev, header, firstOffset, pos, index, emit);
      const lastOffset = frameCount > 0 ? header.baseOffset + BigInt(frames.offsetDelta[frames.count - 1] as number) : null;
      tails.set(header.partitionId, { lastOffset, baseTimestamp: header.baseTimestamp });
    }

    batches.push({ index, start: pos, end: walkEnd, header, stamped, computedChecksum, firstFrame, frameCount, truncatedFrame, ...counts });
    kept.endBatch();
    pos = walkEnd;
    // Size the columns from the frame density seen so far (frames found, never a length field).
    if (pos > 0 && frames.count > 0) frames.reserve(Math.min(size / FRAME_HEADER_SIZE, (frames.count / pos) * size * 1.02 + 16));
    if (pos >= nextProgress) {
      options.onProgress?.(pos, size);
      nextProgress = pos + progressEvery;
    }
  }
  options.onProgress?.(size, size);
  const { diagnostics, omitted } = kept.finish();
  const finished = frames.finish();
  return {
    size,
    batches: batches.finish(),
    frames: finished,
    diagnostics,
    diagnosticsOmitted: omitted,
    summary: { batches: batches.length, frames: finished.count, ...totals },
  };
}

// The frame checks of walk-checks.ts on every complete frame of one batch; a finding sets the frame's flag for its code.
function checkFrames(frames: FrameColumnsBuilder, first: number, count: number, pos: number, batch: number, stamped: boolean, r: ByteReader, emit: Emit): void {
  const input = frameContext(r, 0, pos, batch, stamped, stamped && count > 0 ? (frames.offsetDelta[first] as number) : 0);
  for (let k = 0; k < count; k++) {
    const i = first + k;
    input.k = k;
    input.at = frames.start[i] as number;
    input.computedChecksum = frames.computedChecksum[i] as bigint;
    for (const c of FRAME_CHECKS) {
      const found = c.check(input);
      if (!found) continue;
      frames.flags[i]! |= FRAME_FLAG_OF[c.code];
      emit(c.code, found.start, found.end, batch, k, found.message);
    }
  }
}
