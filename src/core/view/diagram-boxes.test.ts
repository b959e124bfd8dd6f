/** Diagram boxes tile each header table exactly, never cross a line, and fold only runs of whole lines. */
import { describe, expect, it } from "vitest";
import { BATCH_HEADER_FIELDS, BATCH_HEADER_SIZE, FRAME_HEADER_FIELDS, FRAME_HEADER_SIZE } from "../../format/fields.ts";
import { batchFieldValue, DIAGRAM_COLUMNS, diagramBoxes, frameFieldValue } from "./diagram-boxes.ts";
import { wholeWindow } from "../../lib/input-bytes.ts";
import { analyze, stampedBatch } from "../../../test/helpers.ts";

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

describe("diagram values from a window of the input", () => {
  it("match the whole input's values where the window holds the header, and are null (unread) where it does not", async () => {
    const bytes = stampedBatch(2, { baseOffset: 9n, baseTimestamp: 5n }, { messages: [{ payload: "a", id: 3n, timestampDelta: 4 }, { payload: "bc" }] });
    const a = await analyze(bytes);
    const start = a.frames.start[1] as number;
    const header = { start, bytes: bytes.slice(start, start + FRAME_HEADER_SIZE) };
    const batchHead = { start: 0, bytes: bytes.slice(0, BATCH_HEADER_SIZE) };
    for (const f of FRAME_HEADER_FIELDS) expect(frameFieldValue(a, header, 1, f), f.name).toBe(frameFieldValue(a, wholeWindow(bytes), 1, f));
    for (const f of BATCH_HEADER_FIELDS) expect(batchFieldValue(a, batchHead, 0, f), f.name).toBe(batchFieldValue(a, wholeWindow(bytes), 0, f));
    expect(
      frameFieldValue(
        a,
        wholeWindow(bytes),
        0,
        FRAME_HEADER_FIELDS.find((f) => f.name === "timestamp_delta")!,
      ),
    ).toBe("4");
    const elsewhere = { start: 0, bytes: bytes.slice(0, 16) };
    const byName = (name: string) => FRAME_HEADER_FIELDS.find((f) => f.name === name)!;
    expect(frameFieldValue(a, elsewhere, 1, byName("id"))).toBeNull();
    expect(frameFieldValue(a, elsewhere, 1, byName("checksum"))).toBeNull();
    expect(frameFieldValue(a, elsewhere, 1, byName("payload_length"))).toBe("2");
    expect(
      batchFieldValue(
        a,
        elsewhere,
        0,
        BATCH_HEADER_FIELDS.find((f) => f.role === "reserved")!,
      ),
    ).toBeNull();
    expect(
      batchFieldValue(
        a,
        elsewhere,
        0,
        BATCH_HEADER_FIELDS.find((f) => f.name === "base_offset")!,
      ),
    ).toBe("9");
  });
});
