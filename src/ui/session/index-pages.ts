/**
 * A large `.index` File's entries on the page, read in pages rather than whole: a 1 GiB index of zeros is
 * valid input, and the page shows 500 entries at a time. The entries are an IndexEntries.paged whose
 * synchronous reads are served from 1 MiB pages read beforehand with Blob.slice (`loadEntries`); a few pages
 * are kept. Views ask `entriesAtHand` first and load what is missing, as the hex map does with its bytes.
 */
import { IndexEntries, PAGE_ENTRIES } from "../../core/containers/index-entries.ts";
import { INDEX_ENTRY_SIZE } from "../../format/containers/index-entry.ts";
import { ON_DEMAND_FROM_BYTES } from "./on-demand.ts";

/** Index Files from this size on are read in pages on the page (the worker does the same from the same size). */
export const PAGED_INDEX_FROM = ON_DEMAND_FROM_BYTES;

/** Pages of entries kept per index File: a page of the table spans at most two. */
const KEPT_PAGES = 4;
const PAGE_BYTES = PAGE_ENTRIES * INDEX_ENTRY_SIZE;

interface PagedIndex {
  readonly file: Blob;
  /** Page number → its bytes, most recently used last. */
  readonly pages: Map<number, Uint8Array>;
  readonly reading: Map<number, Promise<void>>;
}

const paged = new WeakMap<IndexEntries, PagedIndex>();

/** The entries of an index File read in pages (a large one), or null: then read it whole. */
export function pagedIndexEntries(file: Blob): IndexEntries | null {
  if (file.size < PAGED_INDEX_FROM) return null;
  const state: PagedIndex = { file, pages: new Map(), reading: new Map() };
  const entries = IndexEntries.paged(file.size, (into, position) => {
    const page = state.pages.get(Math.floor(position / PAGE_BYTES));
    // IndexEntries reads whole pages at page starts; a page not read yet reads as nothing (views check entriesAtHand first).
    if (!page || position % PAGE_BYTES !== 0) return 0;
    const n = Math.min(into.length, page.length);
    into.set(page.subarray(0, n));
    return n;
  });
  paged.set(entries, state);
  return entries;
}

function pagesOf(first: number, count: number): number[] {
  const out: number[] = [];
  if (count <= 0) return out;
  for (let p = Math.floor(first / PAGE_ENTRIES); p <= Math.floor((first + count - 1) / PAGE_ENTRIES); p++) out.push(p);
  return out;
}

/** True when entries [first, first + count) can be read now (entries in memory always can). */
export function entriesAtHand(entries: IndexEntries, first: number, count: number): boolean {
  const state = paged.get(entries);
  if (!state) return true;
  const end = Math.min(first + count, entries.length);
  return pagesOf(first, end - first).every((p) => state.pages.has(p));
}

/** Reads the pages that hold entries [first, first + count); resolves when they can be read. */
export async function loadEntries(entries: IndexEntries, first: number, count: number): Promise<void> {
  const state = paged.get(entries);
  if (!state) return;
  const end = Math.min(first + count, entries.length);
  const wanted = pagesOf(first, end - first);
  await Promise.all(wanted.map((p) => readPage(state, p)));
  // Kept are the pages just asked for and the most recent others, KEPT_PAGES in all.
  for (const p of wanted) {
    const bytes = state.pages.get(p);
    if (bytes) {
      state.pages.delete(p);
      state.pages.set(p, bytes);
    }
  }
  for (const p of state.pages.keys()) {
    if (state.pages.size <= KEPT_PAGES) break;
    if (!wanted.includes(p)) state.pages.delete(p);
  }
}

function readPage(state: PagedIndex, p: number): Promise<void> {
  if (state.pages.has(p)) return Promise.resolve();
  const pending = state.reading.get(p);
  if (pending) return pending;
  const start = p * PAGE_BYTES;
  const read = state.file
    .slice(start, Math.min(state.file.size, start + PAGE_BYTES))
    .arrayBuffer()
    .then((buffer) => void state.pages.set(p, new Uint8Array(buffer)))
    .finally(() => state.reading.delete(p));
  state.reading.set(p, read);
  return read;
}
