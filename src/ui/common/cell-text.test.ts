import { describe, expect, it } from "vitest";
import { FrameFlag } from "../../core/model/model.ts";
import { decodeMessageId } from "../../format/values.ts";
import { batchVerdict, checksumVerdict, frameTone, hexOffset, idCell, isProblemBatch, plural, previewText, timeText, timeWithRaw } from "./cell-text.ts";

const header = { partitionId: 0n, baseOffset: 0n, baseTimestamp: 0n, originTimestamp: 0n, batchLength: 256n, batchChecksum: 0n, messageCount: 0 };
const enc = new TextEncoder();

describe("batch verdicts", () => {
  it("reads ok, or the counts of each severity", () => {
    expect(batchVerdict({ header, errors: 0, warnings: 0, infos: 0 })).toEqual({ text: "ok", tone: "ok" });
    expect(batchVerdict({ header, errors: 2, warnings: 1, infos: 0 })).toEqual({ text: "2 errors, 1 warning", tone: "error" });
    expect(batchVerdict({ header, errors: 0, warnings: 3, infos: 1 })).toEqual({ text: "3 warnings, 1 info", tone: "warning" });
    expect(batchVerdict({ header, errors: 0, warnings: 0, infos: 2 })).toEqual({ text: "2 infos", tone: "info" });
  });

  it("says a header-less batch has an incomplete header", () => {
    expect(batchVerdict({ header: null, errors: 1, warnings: 0, infos: 0 }).text).toBe("incomplete header");
  });

  it("counts errors and warnings as problems, not infos", () => {
    expect(isProblemBatch({ header, errors: 0, warnings: 0 })).toBe(false);
    expect(isProblemBatch({ header, errors: 0, warnings: 1 })).toBe(true);
    expect(isProblemBatch({ header: null, errors: 0, warnings: 0 })).toBe(true);
  });

  it("tones frames by their flags", () => {
    expect(frameTone(0)).toBe("ok");
    expect(frameTone(FrameFlag.userHeadersMalformed)).toBe("info");
    expect(frameTone(FrameFlag.offsetDeltaNotIndex | FrameFlag.userHeadersMalformed)).toBe("warning");
    expect(frameTone(FrameFlag.checksumMismatch | FrameFlag.offsetDeltaNotIndex)).toBe("error");
  });
});

describe("value text", () => {
  it("formats offsets, plurals and times", () => {
    expect(hexOffset(256)).toBe("0x00000100");
    expect(hexOffset(0x1_0000_0000)).toBe("0x100000000");
    expect(plural(1, "byte")).toBe("1 byte");
    expect(plural(1234, "byte")).toBe("1,234 bytes");
    expect(timeText(1_764_420_000_000_123n)).toBe("2025-11-29T12:40:00.000123Z");
    expect(timeWithRaw(1000n)).toBe("1970-01-01T00:00:00.001000Z (1000)");
    expect(timeWithRaw(2n ** 64n - 1n)).toBe("18446744073709551615 µs (out of the date range)");
  });

  it("gives a frame checksum verdict", () => {
    expect(checksumVerdict(0x7596755a20b9d2bfn, 0x7596755a20b9d2bfn)).toEqual({
      ok: true,
      text: "✓",
      title: "stored 7596755a20b9d2bf / computed 7596755a20b9d2bf",
    });
    const bad = checksumVerdict(1n, 2n);
    expect(bad.ok).toBe(false);
    expect(bad.text).toBe("✗ stored≠computed");
    expect(bad.title).toBe("stored 0000000000000001 / computed 0000000000000002");
  });
});

describe("id cells", () => {
  it("tags a v7 UUID in wire order", () => {
    const wire = Uint8Array.from([0x01, 0x92, 0xf0, 0xc4, 0xa1, 0xb2, 0x7c, 0x3e, 0x8d, 0x4f, 0x5a, 0x6b, 0x7c, 0x8d, 0x9e, 0x0f]);
    const cell = idCell(decodeMessageId(wire));
    expect(cell.uuid).toBe("0192f0c4-a1b2-7c3e-8d4f-5a6b7c8d9e0f");
    expect(cell.tag).toBe("v7");
    expect(cell.title).toContain("u128 0f9e8d7c6b5a4f8d3e7cb2a1c4f09201");
  });

  it("recognises a UUID written as a little-endian number (Node SDK)", () => {
    const wire = Uint8Array.from([0x0f, 0x9e, 0x8d, 0x7c, 0x6b, 0x5a, 0x4f, 0x8d, 0x3e, 0x4c, 0xb2, 0xa1, 0xc4, 0xf0, 0x92, 0x01]);
    const cell = idCell(decodeMessageId(wire));
    expect(cell.tag).toBe("LE v4");
    expect(cell.title).toContain("0192f0c4-a1b2-4c3e-8d4f-5a6b7c8d9e0f");
  });

  it("marks a small numeric id as no UUID", () => {
    const wire = new Uint8Array(16);
    wire[0] = 7;
    const cell = idCell(decodeMessageId(wire));
    expect(cell.uuid).toBe("07000000-0000-0000-0000-000000000000");
    expect(cell.tag).toBe("—");
  });
});

describe("payload previews", () => {
  it("shows short text as it is", () => {
    expect(previewText(enc.encode("first-payload"))).toBe("first-payload");
    expect(previewText(new Uint8Array(0))).toBe("");
  });

  it("shows controls, line breaks and bidi characters as visible escapes, invalid UTF-8 as a middle dot", () => {
    expect(previewText(Uint8Array.from([0x61, 0x00, 0x0a, 0x62, 0xff, 0x63, 0x7f]))).toBe("a\\x00\\x0ab·c\\x7f");
    expect(previewText(enc.encode("txt.\u202eexe\r\u2066\u200f\\"))).toBe("txt.\\u202eexe\\x0d\\u2066\\u200f\\\\");
  });

  it("keeps multi-byte characters whole and cuts at maxChars with an ellipsis", () => {
    expect(previewText(enc.encode("žluťoučký kůň"), 5)).toBe("žluťo…");
    expect(previewText(enc.encode("x".repeat(41)))).toBe(`${"x".repeat(40)}…`);
    expect(previewText(enc.encode("x".repeat(40)))).toBe("x".repeat(40));
    expect(previewText(enc.encode("😀".repeat(3)), 2)).toBe("😀😀…");
  });

  it("looks at a bounded head of a huge payload", () => {
    expect(previewText(new Uint8Array(10_000_000).fill(0x41))).toBe(`${"A".repeat(40)}…`);
  });
});
