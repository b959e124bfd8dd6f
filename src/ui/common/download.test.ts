import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ONE_CALL_SHA256_BYTES, SHA256_SLICE_BYTES, sha256Hex } from "./download.ts";

const reference = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("sha256Hex", () => {
  it("hashes a small input in one call", async () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 37) & 0xff);
    expect(await sha256Hex(bytes)).toBe(reference(bytes));
    expect(await sha256Hex(new Uint8Array(0))).toBe(reference(new Uint8Array(0)));
  });

  it("hashes a large input slice by slice to the same digest, a view into a larger buffer included", async () => {
    const size = ONE_CALL_SHA256_BYTES + SHA256_SLICE_BYTES + 12345;
    const buffer = new Uint8Array(size + 7);
    for (let i = 0; i < buffer.length; i++) buffer[i] = (i * 2654435761) >>> 24;
    const view = buffer.subarray(3, 3 + size);
    expect(await sha256Hex(view)).toBe(reference(view));
  });
});
