/**
 * A large `.index` File's entries for a worker that checks it front to back: pages are read ahead through a
 * BYOB byte stream into two reused buffers, so a 1 GiB index leaves no garbage behind. FileReaderSync makes
 * a new ArrayBuffer per read, freed only at the engine's next collection: measured by `npm run bench:page --
 * --index 1024`, that kept the renderer 20-25 MiB higher and took about half the check's time. A read outside
 * the two pages held (a view's random access, a segment's recovery reading its last entry) goes through
 * FileReaderSync as before.
 */
import { IndexEntries, PAGE_ENTRIES } from "../core/containers/index-entries.ts";
import { INDEX_ENTRY_SIZE } from "../format/containers/index-entry.ts";
import { byobReader, heldRead } from "./byob-read.ts";
import type { ByteSource } from "../core/walk/stream-analyze.ts";

const PAGE_BYTES = PAGE_ENTRIES * INDEX_ENTRY_SIZE;

interface HeldPage {
  page: number;
  bytes: Uint8Array<ArrayBuffer>;
}

/** The entries of an index Blob read in pages: ahead through its byte stream, else through `fallback` (a synchronous read). */
export function streamedIndexEntries(blob: Blob, fallback: ByteSource): IndexEntries {
  const held: HeldPage[] = [];
  let stream: { reader: ReadableStreamBYOBReader; at: number } | null = null;
  let broken = false;

  const pageLength = (page: number): number => Math.min(PAGE_BYTES, blob.size - page * PAGE_BYTES);

  // Reads page `page` into `into` from the stream, opening one at its start when the stream is not there.
  const readPage = async (page: number, into: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer> | null> => {
    const start = page * PAGE_BYTES;
    if (!stream || stream.at !== start) {
      if (stream) void stream.reader.cancel().catch(() => {});
      const reader = byobReader(blob.slice(start));
      if (!reader) return null;
      stream = { reader, at: start };
    }
    const length = pageLength(page);
    let buffer = into.buffer;
    let got = 0;
    while (got < length) {
      const { value, done } = await heldRead(stream.reader, blob, new Uint8Array(buffer, got, length - got));
      if (value) {
        buffer = value.buffer;
        got += value.byteLength;
      }
      if (done || !value) break;
    }
    stream.at = start + got;
    // A File that shrank since it was measured: the rest of the page reads as zeros, as IndexEntries does.
    const bytes = new Uint8Array(buffer, 0, length);
    bytes.fill(0, got);
    return bytes;
  };

  const prefetch = async (position: number, length: number): Promise<void> => {
    if (broken || length <= 0) return;
    const first = Math.floor(position / PAGE_BYTES);
    const last = Math.floor((position + length - 1) / PAGE_BYTES);
    // Two pages at the most: a span of a check is one page and the entry before it.
    for (let page = first; page <= Math.min(last, first + 1); page++) {
      if (held.some((h) => h.page === page)) continue;
      const spare = held.length < 2 ? null : held.findIndex((h) => h.page < first || h.page > last);
      if (spare === -1) return;
      const buffer = spare === null ? new Uint8Array(PAGE_BYTES) : (held[spare] as HeldPage).bytes;
      if (spare !== null) held.splice(spare, 1);
      const bytes = await readPage(page, new Uint8Array(buffer.buffer));
      if (!bytes) {
        broken = true;
        return;
      }
      held.push({ page, bytes });
    }
  };

  const read = (into: Uint8Array, position: number): number => {
    const h = held.find((p) => position >= p.page * PAGE_BYTES && position < p.page * PAGE_BYTES + p.bytes.length);
    if (!h) return fallback.read(into, position);
    const from = position - h.page * PAGE_BYTES;
    const n = Math.min(into.length, h.bytes.length - from);
    into.set(h.bytes.subarray(from, from + n));
    return n;
  };

  return IndexEntries.paged(blob.size, read, prefetch);
}
