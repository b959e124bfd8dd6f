/**
 * Where each value of a batch lives in a BatchTable's columns (batch-table.ts), from the header field
 * table: shared by the table, which reads them, and its builder (batch-table-build.ts), which writes them.
 */
import { BATCH_HEADER_LAYOUT, valueFields } from "../../format/fields.ts";

/** The header's value fields, in wire order (format/fields.ts). */
export const HEADER_FIELDS = valueFields(BATCH_HEADER_LAYOUT);
// Every batch header value is a u64 or a u32 today; a field of another type needs a column kind here and in copyHeader.
for (const f of HEADER_FIELDS) if (!["u32", "u64"].includes(f.type)) throw new Error(`batch-table: no column for ${f.jsonKey} (${f.type})`);
/** Their JSON keys, the keys of BatchHeader. */
export const HEADER_KEYS: readonly string[] = HEADER_FIELDS.map((f) => f.jsonKey);
/** Whether field k is a u64 (kept in the wide column). */
export const HEADER_WIDE: readonly boolean[] = HEADER_FIELDS.map((f) => f.type === "u64");
/** Field k's offset in the header. */
export const HEADER_OFFSETS: readonly number[] = HEADER_FIELDS.map((f) => f.offset);
/** Header u32 fields follow the batch's own words; u64 fields follow its computed checksum in the wide column. */
export const U32_FIELDS = HEADER_WIDE.filter((w) => !w).length;
/** Header u64 fields. */
export const U64_FIELDS = HEADER_WIDE.length - U32_FIELDS;
/** Whether a u64 of a BigUint64Array is its two u32 words low first here (copyHeader, pushClean and headerFloat rely on it). */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** A header of zeros, the shape at(i) fills. */
export const HEADER_TEMPLATE: Readonly<Record<string, bigint | number>> = Object.fromEntries(HEADER_FIELDS.map((f) => [f.jsonKey, f.type === "u64" ? 0n : 0]));

/** Flags-word bit: the batch had 256 bytes for its header. */
export const HAS_HEADER = 1;
/** Flags-word bit: base_timestamp is nonzero. */
export const STAMPED = 2;
/** Flags-word bit: a computed checksum is kept. */
export const HAS_CHECKSUM = 4;

/** Words per batch: index, firstFrame, frameCount, errors, warnings, infos, flags, then the header's u32 fields. */
export const OWN_WORDS = 7;
/** u32 words per batch, the header's u32 fields included. */
export const WORDS = OWN_WORDS + U32_FIELDS;
/** u64 values per batch: the computed checksum, then the header's u64 fields. */
export const WIDE = 1 + U64_FIELDS;
/** Slots of the batch's own words. */
export const W_INDEX = 0;
export const W_FIRST_FRAME = 1;
export const W_FRAME_COUNT = 2;
export const W_ERRORS = 3;
export const W_WARNINGS = 4;
export const W_INFOS = 5;
export const W_FLAGS = 6;

/** Where header field k lives: its slot among the batch's words or its wide values. */
export const HEADER_SLOT: readonly number[] = (() => {
  let narrow = OWN_WORDS;
  let wide = 1;
  return HEADER_WIDE.map((w) => (w ? wide++ : narrow++));
})();
/** Field k of a JSON key. */
export const HEADER_INDEX = new Map<string, number>(HEADER_KEYS.map((k, i) => [k, i]));
