/**
 * One record per complete frame (contracts.md §1.3): absolute offset, server and producer time, id, sizes,
 * decoded user headers and the payload, read from an analysis and its bytes. Hosts stream analyses of
 * parts of an input through it, so a 1 GiB segment never is one analysis.
 */
import { FrameFlag } from "../../format/diagnostics.ts";
import { decodeUserHeaders } from "../../format/user-headers.ts";
import { hex128 } from "../../format/values.ts";
import { frameEnd } from "../model/frame-columns.ts";
import type { Analysis } from "../model/model.ts";
import { toBase64 } from "../../lib/byte-formats.ts";

/** One message as `iggy-batch messages` lists it. */
export interface MessageRecord {
  readonly file: string | null;
  readonly batch: number;
  readonly frame: number;
  /** Absolute byte offset of the frame in its file. */
  readonly start: number;
  readonly partitionId: bigint;
  /** base_offset + offset_delta. */
  readonly offset: bigint;
  /** The batch's base_timestamp (server time; 0 for a producer batch). */
  readonly timestamp: bigint;
  /** origin_timestamp + timestamp_delta (producer time). */
  readonly originTimestamp: bigint;
  readonly id: bigint;
  readonly payloadLength: number;
  readonly userHeadersLength: number;
  /** Decoded TLV user headers, or null when the block is not TLV (then shown raw). */
  readonly userHeaders: readonly { readonly key: string; readonly kind: string; readonly value: string }[] | null;
  readonly payload: Uint8Array;
  readonly userHeadersBlock: Uint8Array;
  /** The frame's stored checksum matches the computed one. */
  readonly checksumOk: boolean;
}

const u32 = (b: Uint8Array, at: number) =>
  ((b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16) | ((b[at + 3] as number) << 24)) >>> 0;
const u64 = (b: Uint8Array, at: number) => BigInt(u32(b, at)) | (BigInt(u32(b, at + 4)) << 32n);

/**
 * The messages of an analysis of `bytes` (its offsets relative to them), in input order; `base` is where the
 * bytes start in their file and `batchBase` the number of batches before them, so records carry absolute values.
 */
export function* messagesOf(analysis: Analysis, bytes: Uint8Array, file: string | null, base = 0, batchBase = 0): Generator<MessageRecord> {
  const f = analysis.frames;
  for (let b = 0; b < analysis.batches.length; b++) {
    const h = analysis.batches.at(b)?.header;
    if (!h) continue;
    const first = analysis.batches.firstFrame(b);
    const count = analysis.batches.frameCount(b);
    for (let k = 0; k < count; k++) {
      const i = first + k;
      const s = f.start[i] as number;
      const end = frameEnd(f, i);
      const payloadLength = f.payloadLength[i] as number;
      const block = bytes.subarray(s + 48 + payloadLength, end);
      const decoded = block.length > 0 ? decodeUserHeaders(block) : { ok: true as const, headers: [] };
      yield {
        file,
        batch: batchBase + b,
        frame: k,
        start: base + s,
        partitionId: h.partitionId,
        offset: h.baseOffset + BigInt(u32(bytes, s + 24)),
        timestamp: h.baseTimestamp,
        originTimestamp: h.originTimestamp + BigInt(u32(bytes, s + 28)),
        id: u64(bytes, s + 8) | (u64(bytes, s + 16) << 64n),
        payloadLength,
        userHeadersLength: block.length,
        userHeaders: decoded.ok ? decoded.headers.map((x) => ({ key: x.key.text, kind: x.value.kindName, value: x.value.text })) : null,
        payload: bytes.subarray(s + 48, s + 48 + payloadLength),
        userHeadersBlock: block,
        checksumOk: ((f.flags[i] as number) & FrameFlag.checksumMismatch) === 0,
      };
    }
  }
}

/** How a payload is printed: text where it is UTF-8 (else base64), or forced hex or base64. */
export type PayloadMode = "text" | "hex" | "base64";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** A payload as text (valid UTF-8), else base64; hex and base64 when forced. */
export function payloadText(payload: Uint8Array, mode: PayloadMode): string {
  if (mode === "hex") return Array.from(payload, (x) => x.toString(16).padStart(2, "0")).join("");
  if (mode === "base64") return toBase64(payload);
  try {
    return strictUtf8.decode(payload);
  } catch {
    return toBase64(payload);
  }
}

/** The JSON object of one message (contracts.md §1.3); `payload` only when a mode is given. */
export function messageJson(m: MessageRecord, mode: PayloadMode | null): Record<string, unknown> {
  return {
    file: m.file,
    batch: m.batch,
    frame: m.frame,
    start: m.start,
    partitionId: m.partitionId.toString(),
    offset: m.offset.toString(),
    timestamp: m.timestamp.toString(),
    originTimestamp: m.originTimestamp.toString(),
    id: hex128(m.id),
    payloadLength: m.payloadLength,
    userHeadersLength: m.userHeadersLength,
    userHeaders: m.userHeaders ?? [],
    ...(m.userHeaders === null ? { userHeadersRaw: toBase64(m.userHeadersBlock) } : {}),
    ...(mode ? { payload: payloadText(m.payload, mode) } : {}),
    checksumOk: m.checksumOk,
  };
}
