/** Reading and writing whole headers through the layout tables, and their JSON form. */
import { describe, expect, it } from "vitest";
import { BATCH_FIELD, BATCH_HEADER_LAYOUT, BATCH_HEADER_SIZE, FRAME_HEADER_LAYOUT, FRAME_HEADER_SIZE, showOf, valueFields, type FieldSpec } from "./fields.ts";
import { headerJson, readField, readHeader, writeField, writeHeader } from "./field-codec.ts";
import { ByteReader } from "./reader.ts";
import { ByteWriter } from "./writer.ts";

describe("headers through the layout tables", () => {
  it("write then read a batch header field by field, at the spec's offsets, leaving reserved bytes alone", () => {
    const w = ByteWriter.alloc(10 + BATCH_HEADER_SIZE);
    const header = { partitionId: 1n, baseOffset: 2n, baseTimestamp: 3n, originTimestamp: 4n, batchLength: 5n, batchChecksum: 0xabcn, messageCount: 6 };
    writeHeader(w, 10, BATCH_HEADER_LAYOUT, header);
    const r = new ByteReader(w.bytes);
    expect(readHeader(r, 10, BATCH_HEADER_LAYOUT)).toEqual(header);
    expect(Object.keys(readHeader(r, 10, BATCH_HEADER_LAYOUT))).toEqual(Object.keys(header)); // wire order
    expect(r.u64(10 + 40)).toBe(0xabcn); // batch_checksum at 40 (batch-format.md)
    expect(r.u32(10 + 48)).toBe(6); // message_count at 48
    expect(r.allZero(10 + 52, 10 + BATCH_HEADER_SIZE)).toBe(true);
    expect(readField(r, 10, BATCH_FIELD.reserved)).toHaveLength(204);
  });

  it("write only the fields given", () => {
    const w = ByteWriter.alloc(FRAME_HEADER_SIZE).bytes.fill(0x11);
    const writer = new ByteWriter(w);
    writeHeader(writer, 0, FRAME_HEADER_LAYOUT, { offsetDelta: 7 });
    const frame = readHeader(new ByteReader(w), 0, FRAME_HEADER_LAYOUT);
    expect(frame.offsetDelta).toBe(7);
    expect(frame.timestampDelta).toBe(0x11111111);
  });

  it("spell JSON as the contract does: u64 as decimal strings, checksums as 16 hex digits, u32 as numbers", () => {
    const header = {
      partitionId: (1n << 64n) - 1n,
      baseOffset: 2n,
      baseTimestamp: 3n,
      originTimestamp: 4n,
      batchLength: 300n,
      batchChecksum: 0xabcn,
      messageCount: 6,
    };
    expect(headerJson(BATCH_HEADER_LAYOUT, header)).toEqual({
      partitionId: "18446744073709551615",
      baseOffset: "2",
      baseTimestamp: "3",
      originTimestamp: "4",
      batchLength: "300",
      batchChecksum: "0000000000000abc",
      messageCount: 6,
    });
  });

  it("u8 and u16 fields (container layouts) read and write like the others", () => {
    const table = [
      { kind: "unattributed", name: "flag", jsonKey: "flag", offset: 0, size: 1, type: "u8", role: "producer-set", description: "a flag" },
      { kind: "unattributed", name: "port", jsonKey: "port", offset: 1, size: 2, type: "u16", role: "producer-set", description: "a port" },
    ] as const satisfies readonly FieldSpec[];
    const w = ByteWriter.alloc(3);
    writeHeader(w, 0, table, { flag: 0x1ff, port: 8090 });
    expect([...w.bytes]).toEqual([0xff, 0x9a, 0x1f]);
    expect(readHeader(new ByteReader(w.bytes), 0, table)).toEqual({ flag: 0xff, port: 8090 });
    writeField(w, 0, table[1], 1);
    expect(readField(new ByteReader(w.bytes), 0, table[1])).toBe(1);
    expect(showOf(table[0])).toBe("integer");
  });

  it("name how every header field is shown, and carry every value but reserved", () => {
    for (const f of [...BATCH_HEADER_LAYOUT, ...FRAME_HEADER_LAYOUT]) expect(showOf(f)).toBe(f.show);
    expect(valueFields(BATCH_HEADER_LAYOUT).map((f) => f.name)).not.toContain("reserved");
    expect(valueFields(FRAME_HEADER_LAYOUT)).toHaveLength(6);
  });
});
