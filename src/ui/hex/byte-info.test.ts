import { describe, expect, test } from "vitest";
import { RangeIndex } from "../../lib/range-index.ts";
import { checksumRow, describeByte, formatOffset, hexPreview, textPreview, timeText, type ByteInfo } from "./byte-info.ts";
import { analysed, corpus, goldenBatch, type TestInput } from "./fixtures.test-util.ts";

function info(input: TestInput, offset: number): ByteInfo {
  return describeByte(input.analysis, input.bytes, offset, new RangeIndex(input.analysis.diagnostics));
}
function row(i: ByteInfo, label: string): string | undefined {
  return i.rows.find((r) => r.label === label)?.value;
}

describe("formatting", () => {
  test("offsets in hex and decimal", () => {
    expect(formatOffset(40)).toBe("0x00000028 (40)");
  });

  test("previews", () => {
    expect(hexPreview(new Uint8Array([1, 0xab]))).toBe("01 ab");
    expect(hexPreview(new Uint8Array(30), 4)).toBe("00 00 00 00 …");
    expect(hexPreview(new Uint8Array(0))).toBe("(empty)");
    expect(textPreview(new TextEncoder().encode("hello\nworld"))).toBe('"hello\\x0aworld"');
    expect(textPreview(new TextEncoder().encode("a\u202eb\rc\u2067"))).toBe('"a\\u202eb\\x0dc\\u2067"');
    expect(textPreview(new Uint8Array([0, 1, 2, 3]))).toBeNull();
    expect(textPreview(new TextEncoder().encode("x".repeat(60)), 4)).toBe('"xxxx"…');
  });

  test("timestamps with microseconds", () => {
    expect(timeText(1_764_420_000_123_456n)).toBe("2025-11-29T12:40:00.123456Z");
    expect(timeText(0n)).toBe("0 (not set)");
    expect(timeText(2n ** 64n - 1n)).toBe("out of range for a date");
  });

  test("checksum verdicts", () => {
    expect(checksumRow(5n, 5n, "")).toEqual({ label: "Computed", value: "0000000000000005 ✓ matches", tone: "ok" });
    expect(checksumRow(5n, 6n, "")).toMatchObject({ value: "0000000000000006 ✗ differs", tone: "bad" });
    expect(checksumRow(5n, null, "frame truncated").value).toBe("not computed (frame truncated)");
  });
});

describe("describeByte on the golden batch", () => {
  const input = analysed(goldenBatch());

  test("batch_checksum", () => {
    const i = info(input, 43);
    expect(i.name).toBe("batch_checksum");
    expect(i.where).toBe("batch 0 header");
    expect(i.description).toMatch(/XXH3-64/);
    expect(row(i, "Offset")).toBe("0x0000002b (43)");
    expect(row(i, "In batch")).toBe("+43");
    expect(row(i, "Field")).toBe("40..48 · u64, 8 bytes");
    expect(row(i, "Stored")).toBe("7c260763c8381fa9");
    expect(row(i, "Computed")).toBe("7c260763c8381fa9 ✓ matches");
    expect(i.problems).toEqual([]);
  });

  test("origin_timestamp as µs and ISO", () => {
    const i = info(input, 24);
    expect(row(i, "Value")).toBe("1000 µs");
    expect(row(i, "Time")).toBe("1970-01-01T00:00:00.001000Z");
  });

  test("lengths and counts", () => {
    expect(row(info(input, 32), "Value")).toBe("396 bytes");
    expect(row(info(input, 48), "Value")).toBe("2");
    expect(row(info(input, 48), "Frames walked")).toBe("2 ✓");
    expect(row(info(input, 317 + 36), "Value")).toBe("14 bytes");
    expect(row(info(input, 100), "Value")).toBe("all zero ✓");
  });

  test("frame fields", () => {
    const checksum = info(input, 256);
    expect(checksum.where).toBe("batch 0 · frame 0 of 2");
    expect(row(checksum, "In frame")).toBe("+0");
    expect(row(checksum, "Stored")).toBe("7596755a20b9d2bf");
    expect(row(checksum, "Computed")).toBe("7596755a20b9d2bf ✓ matches");
    const id = info(input, 330);
    expect(row(id, "u128")).toBe("00000000000000000000000000000008");
    expect(row(id, "UUID (wire order)")).toBe("08000000-0000-0000-0000-000000000000 · not an RFC 4122/9562 UUID");
    expect(row(id, "UUID (u128 value)")).toBe("00000000-0000-0000-0000-000000000008");
    expect(row(info(input, 317 + 24), "Message offset")).toBe("1");
    expect(row(info(input, 317 + 28), "Producer time")).toBe("1050 µs · 1970-01-01T00:00:00.001050Z");
  });

  test("payload and raw user headers previews", () => {
    const p = info(input, 310);
    expect(row(p, "Field")).toBe("304..317 · bytes, 13 bytes");
    expect(row(p, "Text")).toBe('"first-payload"');
    expect(row(p, "Hex")).toBe("66 69 72 73 74 2d 70 61 79 6c 6f 61 64");
    const u = info(input, 390);
    expect(row(u, "Length")).toBe("17 bytes");
    expect(row(u, "TLV")).toMatch(/^not TLV: /);
    expect(row(u, "Text")).toBe('"user-header-bytes"');
  });

  test("a checksum mismatch shows ✗ and the diagnostic", () => {
    const bytes = goldenBatch();
    bytes[310]! ^= 1;
    const i = info(analysed(bytes), 258);
    expect(row(i, "Computed")).toMatch(/✗ differs$/);
    expect(i.rows.find((r) => r.label === "Computed")?.tone).toBe("bad");
    expect(i.problems.map((d) => d.code)).toEqual(["frame-checksum-mismatch"]);
  });
});

describe("describeByte on damaged inputs", () => {
  test("an incomplete field", () => {
    const i = info(corpus("05-header-truncated.bin"), 408);
    expect(i.where).toBe("batch 1 header");
    expect(i.problems.map((d) => d.code)).toEqual(["header-truncated"]);
    expect(row(i, "Value")).toBe("incomplete: 48 of 204 bytes in the input");
    const golden = goldenBatch();
    const cut = new Uint8Array(golden.length + 45);
    cut.set(golden);
    cut.set(golden.subarray(0, 45), golden.length);
    const c = info(analysed(cut), 396 + 44);
    expect(c.name).toBe("batch_checksum");
    expect(row(c, "Field")).toBe("436..441 · u64, 8 bytes");
    expect(row(c, "Value")).toBe("incomplete: 5 of 8 bytes in the input");
  });

  test("a truncated frame", () => {
    const input = corpus("09-frame-truncated.bin");
    const i = info(input, 340);
    expect(i.where).toBe("batch 0 · frame 1 (truncated)");
    expect(row(i, "Computed")).toBe("not computed (frame truncated)");
    expect(i.problems.map((d) => d.code)).toEqual(["frame-truncated"]);
  });

  test("unattributed bytes", () => {
    const i = info(corpus("06-batch-length-too-small.bin"), 400);
    expect(i.name).toBe("unattributed");
    expect(i.where).toBe("outside any batch");
    expect(row(i, "Run")).toBe("316 bytes");
  });

  test("TLV user headers that do not decode", () => {
    const i = info(corpus("16-user-headers-malformed.bin"), 330);
    expect(i.name).toBe("user_headers");
    expect(row(i, "TLV")).toMatch(/^not TLV: entry at \d+ declares 8 bytes, 5 remain$/);
    expect(i.problems.map((d) => d.severity)).toEqual(["info"]);
  });
});
