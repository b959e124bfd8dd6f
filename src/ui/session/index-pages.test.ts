/**
 * A large index File on the page is read in pages: entries not at hand are loaded first, then read the
 * same as the whole file's entries, across page boundaries; a small one is read whole (null).
 */
import { describe, expect, it } from "vitest";
import { IndexEntries, PAGE_ENTRIES } from "../../core/containers/index-entries.ts";
import { entriesAtHand, loadEntries, pagedIndexEntries, PAGED_INDEX_FROM } from "./index-pages.ts";

describe("index entries read in pages on the page", () => {
  it("loads the pages a span needs, then reads as the whole file does", async () => {
    const bytes = new Uint8Array(PAGED_INDEX_FROM + 30);
    const view = new DataView(bytes.buffer);
    // Distinct values around the first two page boundaries and at the last whole entry.
    const marked = [0, PAGE_ENTRIES - 1, PAGE_ENTRIES, 2 * PAGE_ENTRIES - 1, 2 * PAGE_ENTRIES, Math.floor(bytes.length / 24) - 1];
    for (const i of marked) for (let f = 0; f < 3; f++) view.setBigUint64(i * 24 + f * 8, BigInt(i * 3 + f + 1), true);
    const whole = IndexEntries.of(bytes);
    const paged = pagedIndexEntries(new Blob([bytes]));
    if (!paged) throw new Error("a file of PAGED_INDEX_FROM bytes is read in pages");
    expect(paged.length).toBe(whole.length);
    expect(paged.fileSize).toBe(bytes.length);
    for (const first of [PAGE_ENTRIES - 250, 2 * PAGE_ENTRIES - 1, whole.length - 500]) {
      expect(entriesAtHand(paged, first, 500)).toBe(false);
      await loadEntries(paged, first, 500);
      expect(entriesAtHand(paged, first, 500)).toBe(true);
      expect(paged.slice(first, first + 500)).toEqual(whole.slice(first, first + 500));
    }
    expect(whole.slice(PAGE_ENTRIES - 1, PAGE_ENTRIES + 1).map((e) => e.offset)).toEqual([BigInt((PAGE_ENTRIES - 1) * 3 + 1), BigInt(PAGE_ENTRIES * 3 + 1)]);
  });

  it("a small index is read whole, and entries in memory are always at hand", () => {
    expect(pagedIndexEntries(new Blob([new Uint8Array(24 * 10)]))).toBeNull();
    expect(entriesAtHand(IndexEntries.of(new Uint8Array(48)), 0, 500)).toBe(true);
  });
});
