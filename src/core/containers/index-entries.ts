/**
 * An index file's entries read in place: the file's own 24-byte records are the columns, so an index
 * of millions of entries (one per single-message batch) costs its bytes, not an object of three bigints
 * per entry; `at(i)` makes an IndexEntry when a view shows one.
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

/** The whole entries of an index file, in file order. */
export class IndexEntries implements Iterable<IndexEntry> {
  /** No entries. */
  static readonly EMPTY = new IndexEntries(new Uint8Array(0));

  private readonly view: DataView;
  /** Number of whole entries. */
  readonly length: number;

  /** The entries of an index file's bytes; a trailing partial entry is left out, as the server does (no copy). */
  static of(bytes: Uint8Array): IndexEntries {
    const whole = bytes.length - (bytes.length % INDEX_ENTRY_SIZE);
    return whole === 0 ? IndexEntries.EMPTY : new IndexEntries(bytes.subarray(0, whole));
  }

  private constructor(
    /** The whole entries' bytes: what crosses between threads (IndexEntries.of wraps them again). */
    readonly bytes: Uint8Array,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.length = bytes.length / INDEX_ENTRY_SIZE;
  }

  /** Byte position of entry i in the index file. */
  start(i: number): number {
    return i * INDEX_ENTRY_SIZE;
  }

  /** Entry i's offset (its batch's base_offset). */
  offset(i: number): bigint {
    return this.view.getBigUint64(i * INDEX_ENTRY_SIZE + OFFSET_AT, true);
  }

  /** Entry i's timestamp (its batch's base_timestamp). */
  timestamp(i: number): bigint {
    return this.view.getBigUint64(i * INDEX_ENTRY_SIZE + TIMESTAMP_AT, true);
  }

  /** Entry i's position (its batch's byte offset in the .log). */
  position(i: number): bigint {
    return this.view.getBigUint64(i * INDEX_ENTRY_SIZE + POSITION_AT, true);
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
