/**
 * Frames table data read lazily from the analysis' typed-array columns: per-cell values
 * for visible rows only, filters, and sort keys for each column (no row objects).
 */
import { FRAME_HEADER_SIZE } from "../../format/fields.ts";
import type { MessageId } from "../../format/values.ts";
import { FrameFlag, type Analysis } from "../../core/model/model.ts";
import { PROBLEM_FRAME_FLAGS } from "../common/cell-text.ts";
import { bigintSortKey, type SortKey } from "./row-order.ts";
import { frameBatch, frameIndexInBatch, frameOffsetDelta, frameUserHeadersLength } from "../../core/model/frame-columns.ts";
import { messageIdIn, timestampDeltaIn } from "../../core/view/frame-view.ts";
import { windowSlice, type ByteWindow } from "../../lib/input-bytes.ts";

/** Column ids of the frames table. */
export type FrameColumnId = "batch" | "index" | "offset" | "id" | "time" | "payload" | "userHeaders" | "checksum" | "preview";

/** base_offset + offset_delta of a frame, or null when its batch has no header. */
export function messageOffsetOf(analysis: Analysis, frame: number): bigint | null {
  const header = analysis.batches.at(frameBatch(analysis.batches, frame))?.header;
  return header ? header.baseOffset + BigInt(frameOffsetDelta(analysis.frames, frame)) : null;
}

/** origin_timestamp + timestamp_delta of a frame (µs), or null when its batch has no header or `w` does not hold its header. */
export function producerTimeOf(analysis: Analysis, w: ByteWindow, frame: number): bigint | null {
  const header = analysis.batches.at(frameBatch(analysis.batches, frame))?.header;
  const delta = timestampDeltaIn(w, analysis.frames.start[frame] as number);
  return header && delta !== null ? header.originTimestamp + BigInt(delta) : null;
}

/** The 16 id bytes of a frame, decoded, or null when `w` does not hold its header. */
export function messageIdOf(analysis: Analysis, w: ByteWindow, frame: number): MessageId | null {
  return messageIdIn(w, analysis.frames.start[frame] as number);
}

/** The payload bytes of a frame `w` holds from its start (a view, no copy): all of it in memory, its head on demand. */
export function payloadOf(analysis: Analysis, w: ByteWindow, frame: number): Uint8Array {
  const start = (analysis.frames.start[frame] as number) + FRAME_HEADER_SIZE;
  return start < w.start ? new Uint8Array(0) : windowSlice(w, start, start + (analysis.frames.payloadLength[frame] as number));
}

/** Columns whose sort reads the bytes of every frame sorted: on demand, offered for one batch of up to BYTE_SORT_READ_BYTES. */
export const BYTE_SORTED_COLUMNS: ReadonlySet<FrameColumnId> = new Set(["id", "time", "preview"]);

/** The most bytes of a file read on demand that a byte column's sort reads (one batch's frames): more is a whole-file read. */
export const BYTE_SORT_READ_BYTES = 16 << 20;

/** True for a frame with an error or warning flag. */
export function isProblemFrame(analysis: Analysis, frame: number): boolean {
  return ((analysis.frames.flags[frame] as number) & PROBLEM_FRAME_FLAGS) !== 0;
}

// Byte strings compare by their first six bytes as a number, then byte by byte.
function bytesKey(slice: (frame: number) => Uint8Array): SortKey {
  return {
    primary: (frame) => {
      const s = slice(frame);
      let v = 0;
      for (let i = 0; i < 6; i++) v = v * 257 + (i < s.length ? (s[i] as number) + 1 : 0);
      return v;
    },
    tie: (a, b) => {
      const sa = slice(a);
      const sb = slice(b);
      const n = Math.min(sa.length, sb.length);
      for (let i = 0; i < n; i++) if (sa[i] !== sb[i]) return (sa[i] as number) - (sb[i] as number);
      return sa.length - sb.length;
    },
  };
}

/** The sort key of a frames-table column; the columns of BYTE_SORTED_COLUMNS read the frames' bytes from `all`, which must hold every frame sorted. */
export function frameSortKey(column: FrameColumnId, analysis: Analysis, all: ByteWindow): SortKey {
  const f = analysis.frames;
  const bytes = all.bytes;
  const base = all.start;
  switch (column) {
    case "batch":
      return { primary: (i) => frameBatch(analysis.batches, i) };
    case "index":
      return { primary: (i) => frameIndexInBatch(analysis.batches, i) };
    case "offset":
      return bigintSortKey((i) => messageOffsetOf(analysis, i));
    case "time":
      return bigintSortKey((i) => producerTimeOf(analysis, all, i));
    case "payload":
      return { primary: (i) => f.payloadLength[i] as number };
    case "userHeaders":
      return { primary: (i) => frameUserHeadersLength(f, i) };
    case "checksum":
      return { primary: (i) => ((f.flags[i] as number) & FrameFlag.checksumMismatch ? 1 : 0) };
    case "id": {
      // The u128 value: id bytes 15 down to 0 (input bytes start+23 .. start+8) are its big-endian digits.
      return {
        primary: (i) => {
          const top = (f.start[i] as number) + 23 - base;
          let v = 0;
          for (let k = 0; k < 6; k++) v = v * 256 + (bytes[top - k] as number);
          return v;
        },
        tie: (a, b) => {
          const ta = (f.start[a] as number) + 23 - base;
          const tb = (f.start[b] as number) + 23 - base;
          for (let k = 0; k < 16; k++) {
            const d = (bytes[ta - k] as number) - (bytes[tb - k] as number);
            if (d !== 0) return d;
          }
          return 0;
        },
      };
    }
    case "preview":
      return bytesKey((i) => payloadOf(analysis, all, i).subarray(0, 64));
  }
}
