/** Diagram boxes tile each header table exactly, never cross a line, and fold only runs of whole lines. */
import { describe, expect, it } from "vitest";
import { BATCH_HEADER_FIELDS, BATCH_HEADER_SIZE, FRAME_HEADER_FIELDS, FRAME_HEADER_SIZE } from "../format/fields.ts";
import { DIAGRAM_COLUMNS, diagramBoxes } from "./diagram-boxes.ts";

describe("diagramBoxes", () => {
  for (const [name, table, size] of [
    ["batch", BATCH_HEADER_FIELDS, BATCH_HEADER_SIZE],
    ["frame", FRAME_HEADER_FIELDS, FRAME_HEADER_SIZE],
  ] as const) {
    it(`tiles the ${name} header byte for byte, line by line`, () => {
      const boxes = diagramBoxes(table);
      let at = 0;
      for (const b of boxes) {
        expect(b.offset).toBe(at);
        expect(b.column).toBe(at % DIAGRAM_COLUMNS);
        expect(b.offset >= b.field.offset && b.offset + b.size <= b.field.offset + b.field.size).toBe(true);
        if (b.lines > 1) expect([b.column, b.size]).toEqual([0, b.lines * DIAGRAM_COLUMNS]);
        else expect(b.column + b.size).toBeLessThanOrEqual(DIAGRAM_COLUMNS);
        at += b.size;
      }
      expect(at).toBe(size);
      expect(boxes.filter((b) => b.first).map((b) => b.field.name)).toEqual(table.map((f) => f.name));
    });
  }

  it("folds the 192 whole-line bytes of the batch header's reserved field into one box", () => {
    const reserved = diagramBoxes(BATCH_HEADER_FIELDS).filter((b) => b.field.name === "reserved");
    expect(reserved.map((b) => [b.offset, b.size, b.lines])).toEqual([
      [52, 12, 1],
      [64, 192, 12],
    ]);
  });
});
