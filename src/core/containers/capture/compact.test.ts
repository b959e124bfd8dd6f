/** What a capture's message index shares and keeps in columns (issue #24): every field read back as written. */
import { describe, expect, it } from "vitest";
import { compactBatch, Interner, MessageStarts, NO_FINDINGS } from "./compact.ts";

describe("MessageStarts", () => {
  it("reads back every message's direction, offset, packet and time, across growth", () => {
    const starts = new MessageStarts();
    const want = Array.from({ length: 1000 }, (_, i) => ({
      toServer: i % 3 !== 0,
      offset: i * 2 ** 33 + i,
      packet: (i * 2654435761) >>> 0,
      timeNs: 1_700_000_000_000_000_000n + BigInt(i) * 999_999_937n,
    }));
    for (const [i, w] of want.entries()) expect(starts.push(w.toServer, w.offset, w.packet, w.timeNs)).toBe(i);
    expect(starts.length).toBe(want.length);
    for (const [i, w] of want.entries()) {
      expect(starts.at(i)).toEqual(w);
      expect([starts.offset(i), starts.toServer(i)]).toEqual([w.offset, w.toServer]);
    }
  });
});

describe("sharing", () => {
  it("interns equal strings up to its limit, and a batch's equal checksums are one string", () => {
    const intern = new Interner();
    const a = intern.of(["ab", "c"].join(""));
    expect(intern.of("abc")).toBe(a);
    const doc = { index: 0, start: 0, end: 64, stamped: false, header: { batchChecksum: "00ff", baseOffset: "7" }, computedChecksum: "00ff" };
    const out = compactBatch(doc as never, intern);
    expect(out).toEqual(doc);
    expect(compactBatch({ ...doc, computedChecksum: "0100" } as never, intern).computedChecksum).toBe("0100");
    expect(Object.isFrozen(NO_FINDINGS)).toBe(true);
  });
});
