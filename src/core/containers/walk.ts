/** Header-only walks over batches back to back: what detection and recovery need, without decoding frames. */
import { BATCH_HEADER_SIZE } from "../../format/fields.ts";

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

/** Checks one header as upstream's BatchHeader::decode does (core/binary_protocol/src/batch.rs:98-123) plus the fit in [.., end). */
export function readHeaderAt(bytes: Uint8Array, pos: number, end: number): WalkedHeader | WalkStop {
  if (end - pos < BATCH_HEADER_SIZE) return "header-truncated";
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const batchLength = view.getBigUint64(pos + 32, true);
  if (batchLength < BigInt(BATCH_HEADER_SIZE)) return "batch-length-too-small";
  for (let i = pos + 52; i < pos + BATCH_HEADER_SIZE; i++) if (bytes[i] !== 0) return "batch-reserved-nonzero";
  if (batchLength > BigInt(end - pos)) return "batch-truncated";
  return {
    start: pos, end: pos + Number(batchLength), partitionId: view.getBigUint64(pos, true), baseOffset: view.getBigUint64(pos + 8, true),
    baseTimestamp: view.getBigUint64(pos + 16, true), messageCount: view.getUint32(pos + 48, true),
  };
}

/** Walks headers from `start`; `tiles` is true when they end exactly at `end` (at least one header). */
export function walkHeaders(bytes: Uint8Array, start: number, end: number = bytes.length, limit = Infinity): { headers: WalkedHeader[]; tiles: boolean; stop: WalkStop | null; stopAt: number } {
  const headers: WalkedHeader[] = [];
  let pos = start;
  while (pos < end && headers.length < limit) {
    const h = readHeaderAt(bytes, pos, end);
    if (typeof h === "string") return { headers, tiles: false, stop: h, stopAt: pos };
    headers.push(h);
    pos = h.end;
  }
  return { headers, tiles: pos === end && headers.length > 0, stop: null, stopAt: pos };
}
