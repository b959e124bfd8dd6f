import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { startsWithTlsRecord } from "./encrypted.ts";
import { loadXxh3 } from "../../../checksum/xxh3.ts";
import { encodeBatch } from "../../walk/encode.ts";
import { consensus } from "../../samples/container-samples.ts";

describe("startsWithTlsRecord", () => {
  it("knows a ClientHello record and the other content types of TLS 1.0..1.3", () => {
    expect(startsWithTlsRecord(Uint8Array.of(22, 3, 1, 0x01, 0x25, 1))).toBe(true);
    for (const type of [20, 21, 23]) expect(startsWithTlsRecord(Uint8Array.of(type, 3, 3, 0, 40))).toBe(true);
  });

  it("refuses what is not a record header: short, other types and versions, an empty or oversized record", () => {
    expect(startsWithTlsRecord(Uint8Array.of(22, 3, 1, 0))).toBe(false);
    expect(startsWithTlsRecord(Uint8Array.of(24, 3, 1, 0, 40))).toBe(false);
    expect(startsWithTlsRecord(Uint8Array.of(22, 2, 0, 0, 40))).toBe(false);
    expect(startsWithTlsRecord(Uint8Array.of(22, 3, 5, 0, 40))).toBe(false);
    expect(startsWithTlsRecord(Uint8Array.of(22, 3, 3, 0, 0))).toBe(false);
    expect(startsWithTlsRecord(Uint8Array.of(22, 3, 3, 0x48, 0x01))).toBe(false);
  });

  it("never takes a client's consensus header for TLS, whatever its command and body", async () => {
    const xxh = await loadXxh3();
    const body = encodeBatch(xxh, { messages: [{ payload: new Uint8Array(8) }] });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), (command) => {
        expect(startsWithTlsRecord(consensus(command, body, () => {}))).toBe(false);
      }),
    );
  });
});
