/**
 * The `.index` file: 24-byte sparse entries, one per flush chunk, pointing at that chunk's first batch.
 * containers.md "Index file"; upstream core/partitions/src/iggy_index.rs:18-42, iggy_index_reader.rs:55-69.
 */
import type { FieldSpec } from "../field-spec.ts";
import { layout } from "./table.ts";

/** Size in bytes of one index entry. */
export const INDEX_ENTRY_SIZE = 24;

/** One index entry, in wire order. */
export const INDEX_ENTRY_FIELDS: readonly FieldSpec[] = layout(0, [
  ["index.offset", "u64", 8, "server-stamped", "Absolute offset of the first message of the chunk's first batch (that batch's base_offset)."],
  ["index.timestamp", "u64", 8, "server-stamped", "That batch's base_timestamp, in microseconds; entries ascend in offset and in timestamp."],
  ["index.position", "u64", 8, "length", "Byte offset of that batch in the .log; boot recovery starts from the last whole entry's position."],
]);
