import { describe, expect, it } from "vitest";
import { byteAt, fileBytes, memoryBytes, windowSlice } from "./input-bytes.ts";

const DATA = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 7 + 3) & 0xff);

// A Blob that counts the slices read from it, as a File read on demand would be.
function countingBlob(bytes: Uint8Array): { blob: Blob; reads: () => number } {
  const blob = new Blob([bytes as Uint8Array<ArrayBuffer>]);
  let reads = 0;
  const slice = blob.slice.bind(blob);
  blob.slice = (start?: number, end?: number) => {
    reads++;
    return slice(start, end);
  };
  return { blob, reads: () => reads };
}

describe("memoryBytes", () => {
  it("peeks any range at once, clamped to the input", () => {
    const m = memoryBytes(DATA);
    const w = m.peek(9_990, 20_000)!;
    expect(w.start).toBe(9_990);
    expect([...w.bytes]).toEqual([...DATA.subarray(9_990)]);
    expect(byteAt(w, 9_995)).toBe(DATA[9_995]);
    expect(m.whole).toBe(DATA);
  });
});

describe("fileBytes", () => {
  it("misses until a load lands, then peeks the same bytes, within and across pages", async () => {
    const { blob, reads } = countingBlob(DATA);
    const f = fileBytes(blob, { pageBytes: 1024, maxPages: 4 });
    let heard = 0;
    f.subscribe(() => heard++);
    expect(f.peek(1000, 1100)).toBeNull();
    const loaded = await f.load(1000, 1100);
    expect([...loaded.bytes]).toEqual([...DATA.subarray(1000, 1100)]);
    expect(heard).toBe(1);
    expect(reads()).toBe(2); // pages 0 and 1
    const again = f.peek(1000, 1100)!;
    expect([...again.bytes]).toEqual([...DATA.subarray(1000, 1100)]);
    expect([...windowSlice(again, 1024, 1030)]).toEqual([...DATA.subarray(1024, 1030)]);
    await f.load(1030, 1040);
    expect(reads()).toBe(2);
    expect(heard).toBe(1);
  });

  it("keeps at most maxPages pages, dropping the least recently used", async () => {
    const { blob, reads } = countingBlob(DATA);
    const f = fileBytes(blob, { pageBytes: 1024, maxPages: 2 });
    await f.load(0, 10);
    await f.load(1024, 1034);
    f.peek(0, 10); // page 0 is now the most recent
    await f.load(2048, 2058);
    expect(f.peek(0, 10)).not.toBeNull();
    expect(f.peek(1024, 1034)).toBeNull();
    expect(reads()).toBe(3);
  });

  it("reads a range larger than the cache whole, without keeping it", async () => {
    const { blob } = countingBlob(DATA);
    const f = fileBytes(blob, { pageBytes: 1024, maxPages: 2 });
    const w = await f.load(0, 9_000);
    expect([...w.bytes]).toEqual([...DATA.subarray(0, 9_000)]);
    expect(f.peek(0, 9_000)).toBeNull();
  });

  it("says so when the file shrank since it was opened", async () => {
    const now = new Blob([DATA.subarray(0, 1500)]);
    const opened = { size: DATA.length, slice: (a?: number, b?: number) => now.slice(a, b) } as Blob;
    const f = fileBytes(opened, { pageBytes: 1024 });
    await expect(f.load(1024, 1100)).rejects.toThrow(/changed since it was opened/);
    // Not cached as if it were whole: the next peek still misses.
    expect(f.peek(1024, 1100)).toBeNull();
  });
});
