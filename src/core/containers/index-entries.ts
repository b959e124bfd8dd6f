/**
 * An index file's entries read in place: the file's own 24-byte records are the columns, so an index
 * of millions of entries (one per single-message batch) costs its bytes, not an object of three bigints
 * per entry; `at(i)` makes an IndexEntry when a view shows one. A host that cannot hold the file
 * (the CLI on a 1 GiB index) reads it a page at a time instead (IndexEntries.paged).
 */
import { INDEX_ENTRY_FIELDS, INDEX_ENTRY_SIZE } from "../../format/containers/index-entry.ts";

const fieldAt = (kind: string): number => {
  const f = INDEX_ENTRY_FIELDS.find((x) => x.kind === kind);
  if (!f || f.type !== "u64") throw new Error(`index entry field ${kind} is not a u64 of the table`);
  return f.offset;
};
const OFFSET_AT = fieldAt("index.offset");
const TIMESTAMP_AT = fieldAt("index.timestamp");
const POSITION_AT = fieldAt("index.position");

/** One decoded `.index` entry; start is its byte offset in the index file. */
export interface IndexEntry {
  readonly index: number;
  readonly start: number;
  readonly offset: bigint;
  readonly timestamp: bigint;
  readonly position: bigint;
}

/** Reads up to `into.length` bytes of the index file from byte `position` into `into`; returns how many it read. */
export type IndexPageReader = (into: Uint8Array, position: number) => number;

/**
 * Makes the index file's bytes [position, position + length) readable by the IndexPageReader before a check
 * reads them: a host that reads asynchronously (a worker's byte stream into reused buffers) fills them here.
 */
export type IndexPagePrefetch = (position: number, length: number) => Promise<void>;

/** Entries per page of a paged index: 1 MiB of whole entries (a host that fills pages ahead reads these spans). */
export const PAGE_ENTRIES = Math.floor((1 << 20) / INDEX_ENTRY_SIZE);

/** The whole entries of an index file, in file order. */
export class IndexEntries implements Iterable<IndexEntry> {
  /** No entries. */
  static readonly EMPTY = new IndexEntries(new Uint8Array(0), 0);

  private view: DataView;
  /** The first entry `view` holds (0 unless paged). */
  private pageFirst = 0;
  /** Entries `view` holds. */
  private pageCount: number;
  /** The buffer a paged index reads its pages into. */
  private pageBuffer: Uint8Array<ArrayBuffer> | null = null;
  /** Number of whole entries. */
  readonly length: number;

  /** The entries of an index file's bytes; a trailing partial entry is left out, as the server does (no copy). */
  static of(bytes: Uint8Array): IndexEntries {
    const whole = bytes.length - (bytes.length % INDEX_ENTRY_SIZE);
    return whole === 0 && bytes.length === 0 ? IndexEntries.EMPTY : new IndexEntries(bytes.subarray(0, whole), bytes.length);
  }

  /** The entries of a `fileSize`-byte index file read 1 MiB at a time through `read` (one page held): memory flat whatever its size. */
  static paged(fileSize: number, read: IndexPageReader, prefetch?: IndexPagePrefetch): IndexEntries {
    return new IndexEntries(new Uint8Array(0), fileSize, read, prefetch);
  }

  private constructor(
    private readonly whole: Uint8Array,
    /** The index file's size in bytes, a trailing partial entry included. */
    readonly fileSize: number,
    private readonly read?: IndexPageReader,
    private readonly prefetch?: IndexPagePrefetch,
  ) {
    this.view = new DataView(whole.buffer, whole.byteOffset, whole.byteLength);
    this.length = Math.floor((read ? fileSize : whole.length) / INDEX_ENTRY_SIZE);
    this.pageCount = read ? 0 : this.length;
  }

  /** False for a paged index (its bytes are read a page at a time, never held). */
  get inMemory(): boolean {
    return !this.read;
  }

  /** True when a host fills this paged index's pages ahead (IndexEntries.paged's prefetch): await ready() before reading. */
  get prefetched(): boolean {
    return this.prefetch !== undefined;
  }

  /** Resolves once entries [first, end) can be read (at once, unless a host fills the pages ahead). */
  ready(first: number, end: number): Promise<void> {
    if (!this.prefetch || end <= first) return Promise.resolve();
    const from = Math.max(0, first) * INDEX_ENTRY_SIZE;
    return this.prefetch(from, Math.min(end, this.length) * INDEX_ENTRY_SIZE - from);
  }

  /** The whole entries' bytes: what crosses between threads (IndexEntries.of wraps them again). A paged index has none in memory. */
  get bytes(): Uint8Array {
    if (this.read) throw new Error("a paged index is not held in memory");
    return this.whole;
  }

  /** Where entry i lies in `view`, loading its page first when paged. */
  private at24(i: number): number {
    if (i < this.pageFirst || i >= this.pageFirst + this.pageCount) this.load(i);
    return (i - this.pageFirst) * INDEX_ENTRY_SIZE;
  }

  private load(i: number): void {
    const read = this.read;
    if (!read || i < 0 || i >= this.length) throw new RangeError(`index entry ${i} is not among ${this.length}`);
    const first = i - (i % PAGE_ENTRIES);
    const count = Math.min(PAGE_ENTRIES, this.length - first);
    // One page buffer, reused: a 1 GiB index is a thousand pages, and each new one would be garbage to collect.
    if (!this.pageBuffer) this.pageBuffer = new Uint8Array(PAGE_ENTRIES * INDEX_ENTRY_SIZE);
    const page = this.pageBuffer.subarray(0, count * INDEX_ENTRY_SIZE);
    let got = 0;
    while (got < page.length) {
      const n = read(page.subarray(got), first * INDEX_ENTRY_SIZE + got);
      if (n <= 0) break;
      got += n;
    }
    // A file that shrank since it was measured reads as zeros past its new end, never as a throw mid-check.
    page.fill(0, got);
    this.view = new DataView(page.buffer, 0, page.length);
    this.pageFirst = first;
    this.pageCount = count;
  }

  /** Byte position of entry i in the index file. */
  start(i: number): number {
    return i * INDEX_ENTRY_SIZE;
  }

  /** Entry i's offset (its batch's base_offset). */
  offset(i: number): bigint {
    const at = this.at24(i); // first: it may load another page into view
    return this.view.getBigUint64(at + OFFSET_AT, true);
  }

  /** Entry i's timestamp (its batch's base_timestamp). */
  timestamp(i: number): bigint {
    const at = this.at24(i); // first: it may load another page into view
    return this.view.getBigUint64(at + TIMESTAMP_AT, true);
  }

  /** Entry i's position (its batch's byte offset in the .log). */
  position(i: number): bigint {
    const at = this.at24(i); // first: it may load another page into view
    return this.view.getBigUint64(at + POSITION_AT, true);
  }

  /** Entry i as an object (a new one on every call), or undefined past the end; a negative i counts from the end. */
  at(i: number): IndexEntry | undefined {
    const k = i < 0 ? this.length + i : i;
    if (!(k >= 0 && k < this.length)) return undefined;
    return { index: k, start: this.start(k), offset: this.offset(k), timestamp: this.timestamp(k), position: this.position(k) };
  }

  /** Entries [from, to) as objects, for a page of rows. */
  slice(from = 0, to = this.length): IndexEntry[] {
    const out: IndexEntry[] = [];
    for (let i = Math.max(0, from); i < Math.min(to, this.length); i++) out.push(this.at(i) as IndexEntry);
    return out;
  }

  *[Symbol.iterator](): Iterator<IndexEntry> {
    for (let i = 0; i < this.length; i++) yield this.at(i) as IndexEntry;
  }
}
