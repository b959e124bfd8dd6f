/**
 * A large index read ahead through its byte stream (index-stream.ts) checks as the same bytes in memory do,
 * reads each byte once through the stream and never through the synchronous fallback on a front-to-back
 * check, and still serves a random read (a view's, a recovery's) through the fallback.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkIndex, checkIndexPaged } from "../core/containers/index-file.ts";
import { IndexEntries, PAGE_ENTRIES } from "../core/containers/index-entries.ts";
import { INDEX_ENTRY_SIZE } from "../format/containers/index-entry.ts";
import type { ByteSource } from "../core/walk/stream-analyze.ts";
import { streamedIndexEntries } from "./index-stream.ts";

/** The bytes' synchronous source, counting its reads. */
function countingSource(bytes: Uint8Array): ByteSource & { reads: number } {
  return {
    size: bytes.length,
    reads: 0,
    read(into, position) {
      this.reads++;
      const part = bytes.subarray(position, position + into.length);
      into.set(part);
      return part.length;
    },
  };
}

/** An index of `count` entries whose offsets and timestamps mostly ascend, with some steps back, and `rest` trailing bytes. */
function indexBytes(count: number, rest: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(count * INDEX_ENTRY_SIZE + rest);
  const view = new DataView(bytes.buffer);
  let x = seed | 1;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) | 0;
    const back = (x & 0xff) === 0 ? 5 : 0;
    view.setBigUint64(i * INDEX_ENTRY_SIZE, BigInt(Math.max(0, i - back)), true);
    view.setBigUint64(i * INDEX_ENTRY_SIZE + 8, BigInt(1_000 + i * 3 - back), true);
  }
  return bytes;
}

describe("an index read ahead through its byte stream", () => {
  it("checks as the bytes in memory do, across page boundaries, with no synchronous read", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 3 * PAGE_ENTRIES + 10 }), fc.integer({ min: 0, max: 23 }), fc.integer(), async (count, rest, seed) => {
        const bytes = indexBytes(count, rest, seed);
        const fallback = countingSource(bytes);
        const entries = streamedIndexEntries(new Blob([bytes]), fallback);
        expect(entries.prefetched).toBe(true);
        const streamed = await checkIndexPaged(entries, undefined, [], 50);
        const whole = checkIndex(IndexEntries.of(bytes), undefined, [], 50);
        expect(streamed.list).toEqual(whole.list);
        expect(streamed.omitted).toEqual(whole.omitted);
        expect(fallback.reads).toBe(0);
      }),
      { numRuns: 12 },
    );
  });

  it("a read outside the pages it holds goes through the fallback, and reads the right entry", async () => {
    const count = 3 * PAGE_ENTRIES + 7;
    const bytes = indexBytes(count, 0, 7);
    const fallback = countingSource(bytes);
    const entries = streamedIndexEntries(new Blob([bytes]), fallback);
    const whole = IndexEntries.of(bytes);
    await entries.ready(0, 10);
    expect(entries.offset(5)).toBe(whole.offset(5));
    expect(fallback.reads).toBe(0);
    expect(entries.timestamp(count - 1)).toBe(whole.timestamp(count - 1));
    expect(fallback.reads).toBeGreaterThan(0);
  });
});
