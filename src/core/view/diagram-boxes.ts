/**
 * The boxes of a layout diagram, from the field table: 16 bytes a line as in the hex map, each
 * field cut at line ends so every box is to scale. Only runs of whole lines inside one long field
 * (the batch header's 204 reserved bytes) are folded into one line that says how many it stands for.
 */
import type { FieldSpec } from "../../format/fields.ts";
import { bytesToHex, hex64 } from "../../format/values.ts";
import type { Analysis } from "../model/model.ts";
import { storedChecksumIn, timestampDeltaIn, windowCovers } from "./frame-view.ts";
import { frameOffsetDelta, frameUserHeadersLength } from "../model/frame-columns.ts";
import type { ByteWindow } from "../../lib/input-bytes.ts";

/** Bytes per diagram line, as in the hex map. */
export const DIAGRAM_COLUMNS = 16;

/** One box: a piece of a field on one line, or a folded run of whole lines. */
export interface DiagramBox {
  readonly field: FieldSpec;
  /** Offset of the box's first byte from the header start, and its length in bytes. */
  readonly offset: number;
  readonly size: number;
  /** Column (0..15) the box starts at. */
  readonly column: number;
  /** True for the first box of its field (the one carrying the label). */
  readonly first: boolean;
  /** For a folded box: how many whole lines it stands for; else 1. */
  readonly lines: number;
}

/** Cuts a header table into boxes; runs of more than one whole line of a field are folded into one box. */
export function diagramBoxes(fields: readonly FieldSpec[]): DiagramBox[] {
  const boxes: DiagramBox[] = [];
  for (const field of fields) {
    let at = field.offset;
    const end = field.offset + field.size;
    let first = true;
    while (at < end) {
      const column = at % DIAGRAM_COLUMNS;
      if (column === 0 && end - at >= 2 * DIAGRAM_COLUMNS) {
        const lines = Math.floor((end - at) / DIAGRAM_COLUMNS);
        boxes.push({ field, offset: at, size: lines * DIAGRAM_COLUMNS, column: 0, first, lines });
        at += lines * DIAGRAM_COLUMNS;
      } else {
        const size = Math.min(end - at, DIAGRAM_COLUMNS - column);
        boxes.push({ field, offset: at, size, column, first, lines: 1 });
        at += size;
      }
      first = false;
    }
  }
  return boxes;
}

function reservedText(w: ByteWindow, start: number, size: number): string | null {
  const field = windowCovers(w, start, start + size);
  if (!field) return null;
  let nonzero = 0;
  for (const b of field) if (b !== 0) nonzero++;
  return nonzero === 0 ? "all zero" : `${nonzero} nonzero`;
}

/**
 * The value a diagram box of batch `batch`'s header shows: the decoded value, a checksum in hex, reserved bytes
 * as "all zero" or a count; null when it needs bytes `window` (absolute offsets) does not hold.
 */
export function batchFieldValue(analysis: Analysis, window: ByteWindow, batch: number, field: FieldSpec): string | null {
  const b = analysis.batches.at(batch);
  if (!b?.header) return "—";
  if (field.role === "reserved") return reservedText(window, b.start + field.offset, field.size);
  const v = (b.header as unknown as Record<string, bigint | number>)[field.jsonKey];
  return field.role === "checksum" && typeof v === "bigint" ? hex64(v) : String(v);
}

/** The value a diagram box of frame `frame`'s header shows (frame counted across the input), as batchFieldValue does. */
export function frameFieldValue(analysis: Analysis, window: ByteWindow, frame: number, field: FieldSpec): string | null {
  const f = analysis.frames;
  const start = f.start[frame] as number;
  switch (field.name) {
    case "checksum": {
      const v = storedChecksumIn(window, start);
      return v === null ? null : hex64(v);
    }
    case "id": {
      const id = windowCovers(window, start + 8, start + 24);
      return id ? bytesToHex(id) : null;
    }
    case "offset_delta":
      return String(frameOffsetDelta(f, frame));
    case "timestamp_delta": {
      const v = timestampDeltaIn(window, start);
      return v === null ? null : String(v);
    }
    case "user_headers_length":
      return String(frameUserHeadersLength(f, frame));
    case "payload_length":
      return String(f.payloadLength[frame]);
    default:
      return reservedText(window, start + field.offset, field.size);
  }
}
