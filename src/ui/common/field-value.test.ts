import { describe, expect, it } from "vitest";
import { BATCH_HEADER_FIELDS, FRAME_HEADER_FIELDS, fieldByName } from "../../format/fields.ts";
import { writeField } from "../../core/edit/edit.ts";
import { fieldText, parseFieldText } from "./field-value.ts";

const batch = (name: string) => fieldByName(BATCH_HEADER_FIELDS, name);
const frame = (name: string) => fieldByName(FRAME_HEADER_FIELDS, name);

describe("field value editing", () => {
  it("parses decimal and 0x hex within the field's width", () => {
    expect(parseFieldText("42", batch("message_count"))).toEqual({ ok: true, value: 42n });
    expect(parseFieldText("0xff_ff", batch("message_count"))).toEqual({ ok: true, value: 0xffffn });
    expect(parseFieldText("4294967296", batch("message_count"))).toEqual({ ok: false, error: "does not fit 32 bits" });
    expect(parseFieldText("18446744073709551615", batch("base_offset"))).toEqual({ ok: true, value: (1n << 64n) - 1n });
    expect(parseFieldText("-1", batch("base_offset"))).toMatchObject({ ok: false });
    expect(parseFieldText("twelve", frame("offset_delta"))).toMatchObject({ ok: false });
  });

  it("reads checksums as 16 bare hex digits and ids as UUIDs in wire order", () => {
    expect(parseFieldText("7c260763c8381fa9", batch("batch_checksum"))).toEqual({ ok: true, value: 0x7c260763c8381fa9n });
    const parsed = parseFieldText("74f75857-fc08-46ee-9129-f0ee7cb845ee", frame("id"));
    expect(parsed.ok).toBe(true);
    const bytes = writeField(new Uint8Array(48), 0, frame("id"), (parsed as { value: bigint }).value);
    expect(Array.from(bytes.subarray(8, 12))).toEqual([0x74, 0xf7, 0x58, 0x57]);
  });

  it("round-trips every field through its text", () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => (i * 37 + 11) & 0xff);
    for (const spec of [...BATCH_HEADER_FIELDS, ...FRAME_HEADER_FIELDS]) {
      const parsed = parseFieldText(fieldText(bytes, 0, spec), spec);
      expect(parsed.ok, spec.name).toBe(true);
      expect(writeField(bytes, 0, spec, (parsed as { value: bigint | Uint8Array }).value), spec.name).toEqual(bytes);
    }
  });

  it("pads short reserved hex with zeros and rejects too many bytes", () => {
    const parsed = parseFieldText("de ad", batch("reserved"));
    expect(parsed.ok && parsed.value instanceof Uint8Array && Array.from(parsed.value.subarray(0, 3))).toEqual([0xde, 0xad, 0]);
    expect(parseFieldText("00".repeat(205), batch("reserved"))).toEqual({ ok: false, error: "at most 204 bytes" });
  });
});
