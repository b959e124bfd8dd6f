/** Value helpers: fixed-width hex, message ids as u128 and as UUID in wire order, microsecond timestamps. */
import { describe, expect, it } from "vitest";
import { asciiOf, bytesToHex, decodeMessageId, hex128, hex64, hexOffset, microsToIso, millisToIso, plural } from "./values.ts";
import { hexToBytes } from "../../test/helpers.ts";

/** The 16 bytes of a UUID in its usual (RFC) order. */
const uuidBytes = (uuid: string): Uint8Array => hexToBytes(uuid.replace(/-/g, ""));

describe("hex64 / hex128 / bytesToHex", () => {
  it("pads to 16 and 32 lowercase digits", () => {
    expect(hex64(0n)).toBe("0000000000000000");
    expect(hex64(0x7c260763c8381fa9n)).toBe("7c260763c8381fa9");
    expect(hex64((1n << 64n) - 1n)).toBe("ffffffffffffffff");
    expect(hex128(7n)).toBe("00000000000000000000000000000007");
    expect(hex128((1n << 128n) - 1n)).toBe("f".repeat(32));
  });

  it("spells bytes in order, optionally separated", () => {
    expect(bytesToHex(new Uint8Array([0, 0x0a, 0xff]))).toBe("000aff");
    expect(bytesToHex(new Uint8Array([0, 0x0a, 0xff]), " ")).toBe("00 0a ff");
    expect(bytesToHex(new Uint8Array(0), " ")).toBe("");
  });
});

describe("decodeMessageId", () => {
  it("reads the u128 little-endian and the UUID in wire order", () => {
    const wire = new Uint8Array(16).map((_, i) => i);
    const id = decodeMessageId(wire);
    expect(id.value).toBe(0x0f0e0d0c0b0a09080706050403020100n);
    expect(id.uuid).toBe("00010203-0405-0607-0809-0a0b0c0d0e0f");
    expect(id.version).toBe(0);
    expect(id.rfcVariant).toBe(false);
    expect(id.unixMillis).toBeNull();
  });

  it("a small id (7) is the value 7 and a UUID starting with 07", () => {
    const wire = new Uint8Array(16);
    wire[0] = 7;
    expect(decodeMessageId(wire).value).toBe(7n);
    expect(decodeMessageId(wire).uuid).toBe("07000000-0000-0000-0000-000000000000");
  });

  it("detects a v4 UUID written by the Rust SDK (wire = RFC byte order)", () => {
    const id = decodeMessageId(uuidBytes("550e8400-e29b-41d4-a716-446655440000"));
    expect(id.uuid).toBe("550e8400-e29b-41d4-a716-446655440000");
    expect(id.version).toBe(4);
    expect(id.rfcVariant).toBe(true);
    expect(id.unixMillis).toBeNull();
  });

  it("reads a v7 UUID's millisecond timestamp (RFC 9562 appendix A.6 example)", () => {
    const id = decodeMessageId(uuidBytes("017f22e2-79b0-7cc3-98c4-dc0c0c07398f"));
    expect(id.version).toBe(7);
    expect(id.rfcVariant).toBe(true);
    expect(id.unixMillis).toBe(0x017f22e279b0);
    expect(new Date(id.unixMillis as number).toISOString()).toBe("2022-02-22T19:22:22.000Z");
  });

  it("a v7 UUID written by the Node SDK (its number little-endian) is the value, but not a v7 UUID in wire order", () => {
    const rfc = uuidBytes("017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    const id = decodeMessageId(rfc.slice().reverse());
    expect(id.value).toBe(0x017f22e279b07cc398c4dc0c0c07398fn);
    expect(id.uuid).toBe("8f39070c-0cdc-c498-c37c-b079e2227f01");
    expect(id.version).not.toBe(7);
    expect(id.unixMillis).toBeNull();
  });

  it("a version 7 nibble without the RFC variant carries no timestamp", () => {
    const bytes = uuidBytes("017f22e2-79b0-7cc3-18c4-dc0c0c07398f"); // variant bits 00
    const id = decodeMessageId(bytes);
    expect(id.version).toBe(7);
    expect(id.rfcVariant).toBe(false);
    expect(id.unixMillis).toBeNull();
  });
});

describe("microsToIso", () => {
  it("keeps all six fractional digits", () => {
    expect(microsToIso(1_700_000_000_123_456n)).toBe("2023-11-14T22:13:20.123456Z");
    expect(microsToIso(1_000_001n)).toBe("1970-01-01T00:00:01.000001Z");
    expect(microsToIso(999n)).toBe("1970-01-01T00:00:00.000999Z");
    expect(microsToIso(0n)).toBe("1970-01-01T00:00:00.000000Z");
  });

  it("spells years past 9999 with the expanded year and still shows the seconds", () => {
    expect(microsToIso(253_402_300_800_000_000n)).toBe("+010000-01-01T00:00:00.000000Z");
    expect(microsToIso(253_402_300_799_999_999n)).toBe("9999-12-31T23:59:59.999999Z");
    expect(microsToIso(8_640_000_000_000_000_999n)).toBe("+275760-09-13T00:00:00.000999Z"); // the last millisecond a Date holds
  });

  it("returns null past the range of a Date, up to u64 max", () => {
    expect(microsToIso(8_640_000_000_000_001_000n)).toBeNull();
    expect(microsToIso((1n << 64n) - 1n)).toBeNull();
  });
});

describe("asciiOf", () => {
  it("shows printable ASCII and a dot for everything else", () => {
    expect(asciiOf(0x41)).toBe("A");
    expect(asciiOf(0x20)).toBe(" ");
    expect(asciiOf(0x7e)).toBe("~");
    expect([0x00, 0x1f, 0x7f, 0x80, 0xff].map(asciiOf).join("")).toBe(".....");
  });
});

describe("hexOffset, millisToIso, plural", () => {
  it("spells a byte position padded, unpadded or as a bare row label", () => {
    expect(hexOffset(0x1f)).toBe("0x0000001f");
    expect(hexOffset(0x1f, 0)).toBe("0x1f");
    expect(hexOffset(0x1f, 6)).toBe("0x00001f");
    expect(hexOffset(0x12345, 8, "")).toBe("00012345");
    expect(hexOffset(0x123456789, 8)).toBe("0x123456789");
  });

  it("dates a v7 UUID's milliseconds, and refuses what no Date holds", () => {
    expect(millisToIso(1_700_000_000_123)).toBe("2023-11-14T22:13:20.123Z");
    expect(millisToIso(8_640_000_000_000_001)).toBeNull();
  });

  it("counts with the singular only for exactly one, numbers and bigints alike", () => {
    expect([plural(0, "byte"), plural(1, "byte"), plural(2, "batch", "batches"), plural(1n, "entry", "entries")]).toEqual([
      "0 bytes",
      "1 byte",
      "2 batches",
      "1 entry",
    ]);
    expect(plural(1234, "frame", undefined, (n) => Number(n).toLocaleString("en-US"))).toBe("1,234 frames");
  });
});
