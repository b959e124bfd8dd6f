/** analyze(): the one entry point the worker, the main-thread fallback and the CLI call. */
import { BATCH_HEADER_LAYOUT, BATCH_HEADER_SIZE, FRAME_FIELD, FRAME_HEADER_SIZE } from "../format/fields.ts";
import { readHeader } from "../format/field-codec.ts";
import { ByteReader } from "../format/reader.ts";
import { diagnostic, FRAME_FLAG_OF, FrameFlag, type DiagnosticCode } from "../format/diagnostics.ts";
import { loadXxh3, type Xxh3 } from "../checksum/xxh3.ts";
import { computeBatchChecksum, computeFrameChecksums } from "../checksum/verify.ts";
import { DiagnosticKeeper } from "./diagnostic-cap.ts";
import { FrameColumnsBuilder } from "./frame-columns-build.ts";
import { widePositions, type Analysis, type BatchHeader, type TruncatedFrame } from "./model.ts";
import { BatchTableBuilder } from "./batch-table.ts";
import { analyzeInKernel } from "./stream-analyze.ts";
import {
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
  runBatchChecks,
  type Emit,
  type PartitionTail,
} from "./walk-checks.ts";

/** Limits and hooks of one analysis; every limit has a default. */
export interface AnalyzeOptions {
  /**
   * Diagnostics kept in the model: every batch-level finding, then frame-level ones first by
   * position to fill the rest; more are counted but dropped. Default 200,000.
   */
  readonly maxDiagnostics?: number;
  /** Called with bytes walked so far, about every progressEveryBytes. */
  readonly onProgress?: (bytesDone: number, bytesTotal: number) => void;
  /** Default 8 MiB. */
  readonly progressEveryBytes?: number;
  /** Where the first batch starts (after an envelope, see envelopes.ts); earlier bytes are unattributed. Default 0. */
  readonly startOffset?: number;
  /** An XXH3 kernel to use instead of the shared hash-wasm one. */
  readonly xxh3?: Xxh3;
  /** Container rules (containers.md; core/containers segment.ts, poll-reply.ts, send-messages.ts): true drops a batch finding the container replaces or exempts. Default: keep all. */
  readonly dropFinding?: (code: DiagnosticCode, stamped: boolean) => boolean;
}

/** Default for AnalyzeOptions.maxDiagnostics. */
export const DEFAULT_MAX_DIAGNOSTICS = 200_000;

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

/** Decodes any input (one batch, a segment of batches, or garbage) into an Analysis; never throws on bad input. */
export async function analyze(bytes: Uint8Array, options: AnalyzeOptions = {}): Promise<Analysis> {
  const xxh = options.xxh3 ?? (await loadXxh3());
  return analyzeWith(xxh, bytes, options);
}

/** The synchronous body of analyze() for a loaded kernel. */
export function analyzeWith(xxh: Xxh3, bytes: Uint8Array, options: AnalyzeOptions = {}): Analysis {
  const maxDiagnostics = options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS;
  // Our wasm kernel walks whole batches itself (stream-analyze.ts, same result); hash-wasm goes frame by frame below.
  const inKernel = xxh.walker ? analyzeInKernel(xxh.walker, bytes, { ...options, maxDiagnostics }) : null;
  if (inKernel) return inKernel;
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
    checkFrames(frames, firstFrame, frameCount, index, stamped, r, emit);

    const computedChecksum = computeBatchChecksum(xxh, bytes, pos, frames.start, firstFrame, frames.count);
    const hasZeroTimestampDelta = frames.timestampDelta.subarray(firstFrame, frames.count).includes(0);
    runBatchChecks({ header, pos, batch: index, frameCount, computedChecksum, hasZeroTimestampDelta }, emit);
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
function checkFrames(frames: FrameColumnsBuilder, first: number, count: number, batch: number, stamped: boolean, r: ByteReader, emit: Emit): void {
  const input = { r, at: 0, base: 0, batch, k: 0, stamped, baseDelta: stamped && count > 0 ? (frames.offsetDelta[first] as number) : 0, computedChecksum: 0n };
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
