/**
 * The poll reply body's 16-byte prefix, then batch records back to back.
 * containers.md "Poll reply body"; upstream core/server/src/responses.rs:1655-1714, core/common/src/lib.rs:42.
 */
import type { FieldSpec } from "../field-spec.ts";
import { layout } from "./table.ts";

/** Size in bytes of the poll reply prefix. */
export const POLL_PREFIX_SIZE = 16;
/** partition_id of a 16-byte consumer-group resync sentinel. */
export const POLL_RESYNC_SENTINEL = 0xffff_ffff;

/** The poll reply prefix, in wire order. */
export const POLL_PREFIX_FIELDS: readonly FieldSpec[] = layout(0, [
  [
    "poll.partition_id",
    "u32",
    4,
    "server-stamped",
    "The partition polled; every record's partition_id equals it. 0xFFFFFFFF in a 16-byte body is a consumer-group resync sentinel.",
  ],
  ["poll.current_offset", "u64", 8, "server-stamped", "The partition's current (last) offset when the reply was built."],
  ["poll.count", "u32", 4, "length", "Messages in the reply: the sum of the records' message_count."],
]);
