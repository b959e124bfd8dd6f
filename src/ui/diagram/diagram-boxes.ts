/**
 * The boxes of a layout diagram, from the field table: 16 bytes a line as in the hex map, each
 * field cut at line ends so every box is to scale. Only runs of whole lines inside one long field
 * (the batch header's 204 reserved bytes) are folded into one line that says how many it stands for.
 */
import type { FieldSpec } from "../../format/fields.ts";

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
