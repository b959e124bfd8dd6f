/**
 * The kernel's user-headers rule (tlv_faulty in kernel.c) against src/format/user-headers.ts, row by row:
 * every rule findUserHeadersFault states (a short head, kind 0, a length outside 1..255, a fixed kind's width,
 * a bool above 1, a value past the block, an odd count) and the blocks around each, walked by the kernel,
 * which must flag exactly the frames whose block the TypeScript rule finds a fault in.
 */
import { describe, expect, it } from "vitest";
import { findUserHeadersFault } from "../../format/user-headers.ts";
import { encodeBatch } from "../../core/walk/encode.ts";
import { prng } from "../../../test/helpers.ts";
import { FLAGGED_RECORD, FLAGGED_RECORD_WORDS, KERNEL_FLAG } from "./abi.ts";
import { createWasmKernel } from "./wasm-kernel.ts";

const kernel = await createWasmKernel();

/** For each block, whether the kernel flags the frame carrying it as user-headers-malformed. */
function kernelFlags(blocks: readonly Uint8Array[]): boolean[] {
  const batch = encodeBatch(kernel, { messages: blocks.map((userHeaders) => ({ payload: "p", userHeaders })) });
  kernel.inputArea(batch.length).set(batch);
  const result = kernel.walk(batch.length, 0, false, true);
  expect(result.frames).toBe(blocks.length);
  const flagged = new Array<boolean>(blocks.length).fill(false);
  for (let p = 0; p < result.flagged * FLAGGED_RECORD_WORDS; p += FLAGGED_RECORD_WORDS) {
    if ((result.flaggedRecords[p + FLAGGED_RECORD.flags] as number) & KERNEL_FLAG.frameUserHeadersMalformed)
      flagged[result.flaggedRecords[p + FLAGGED_RECORD.indexInBatch] as number] = true;
  }
  return flagged;
}

/** One TLV entry: kind, a u32 length as declared, and `value` bytes (which may differ from the length). */
function entry(kind: number, length: number, value: readonly number[]): number[] {
  return [kind, length & 0xff, (length >>> 8) & 0xff, (length >>> 16) & 0xff, length >>> 24, ...value];
}
const bytes = (...parts: number[][]): Uint8Array => Uint8Array.from(parts.flat());
const key = entry(2, 1, [0x6b]);

// Which rule of scanUserHeaders a fault is, from its reason.
const RULES: Array<[string, RegExp]> = [
  ["short head", /a TLV head needs 5/],
  ["kind 0", /kind 0/],
  ["length outside 1..255", /TLV lengths are 1\.\.255/],
  ["fixed width", /which needs/],
  ["bool above 1", /is a bool with value/],
  ["value past the block", /remain$/],
  ["odd count", /even count/],
];

describe("the kernel's user-headers rule equals findUserHeadersFault", () => {
  it("on every kind 0..255 at every width that matters, with and without a key before it", () => {
    const blocks: Uint8Array[] = [];
    for (let kind = 0; kind < 256; kind++)
      for (const length of [0, 1, 2, 3, 4, 8, 16, 17, 255, 256]) {
        const value = Array.from({ length: Math.min(length, 256) }, (_, i) => (kind === 3 ? i % 3 : i));
        blocks.push(bytes(key, entry(kind, length, value)), bytes(entry(kind, length, value)));
      }
    const want = blocks.map((b) => findUserHeadersFault(b) !== null);
    expect(kernelFlags(blocks)).toEqual(want);
    expect(want.filter(Boolean).length).toBeGreaterThan(100);
    expect(want.filter((w) => !w).length).toBeGreaterThan(100);
  });

  it("rule by rule, on seeded random blocks that reach every rule and the valid case", () => {
    const rand = prng(0x71f);
    const int = (n: number): number => Math.floor(rand() * n);
    const seen = new Map<string, number>();
    const blocks: Uint8Array[] = [];
    for (let i = 0; i < 4000; i++) {
      const parts: number[][] = [];
      for (let e = 0, n = 1 + int(4); e < n; e++) {
        const kind = [0, 1, 2, 3, 4, 7, 9, 13, 15, 16, 200][int(11)] as number;
        const length = int(6) === 0 ? [0, 256, 0x1_0000, 2 ** 32 - 1][int(4)]! : 1 + int(17);
        const have = int(8) === 0 ? int(length + 2) : length;
        parts.push(
          entry(
            kind,
            length,
            Array.from({ length: Math.min(have, 300) }, () => (kind === 3 ? int(3) : int(256))),
          ),
        );
      }
      let block = bytes(...parts);
      if (int(6) === 0) block = block.subarray(0, Math.max(1, int(block.length)));
      blocks.push(block);
      const fault = findUserHeadersFault(block);
      const rule = fault ? (RULES.find(([, re]) => re.test(fault.reason))?.[0] ?? fault.reason) : "valid";
      seen.set(rule, (seen.get(rule) ?? 0) + 1);
    }
    for (let at = 0; at < blocks.length; at += 500) {
      const part = blocks.slice(at, at + 500);
      expect(kernelFlags(part), `blocks ${at}..${at + part.length}`).toEqual(part.map((b) => findUserHeadersFault(b) !== null));
    }
    expect([...seen.keys()].sort()).toEqual([...RULES.map(([name]) => name), "valid"].sort());
  });
});
