/**
 * Pre-0.9 messages as `iggy message poll --output-file` writes them: [64-byte header][payload][user_headers].
 * containers.md "Legacy messages"; upstream core/common/src/types/message/message_header.rs:23-46,
 * core/cli/src/commands/binary_message/poll_messages.rs:230.
 */
import type { FieldSpec } from "../field-spec.ts";
import { layout } from "./table.ts";

/** Size in bytes of a legacy message header. */
export const LEGACY_HEADER_SIZE = 64;

/** The 64-byte legacy message header, in wire order. */
export const LEGACY_HEADER_FIELDS: readonly FieldSpec[] = layout(0, [
  [
    "legacy.checksum",
    "u64",
    8,
    "checksum",
    "The frame checksum of the batch the message was polled from (polled_messages.rs:121-131); checkable only where the batch's frames can be rebuilt.",
  ],
  ["legacy.id", "u128", 16, "producer-set", "Message id (a u128 stored little-endian)."],
  ["legacy.offset", "u64", 8, "server-stamped", "Absolute message offset."],
  ["legacy.timestamp", "u64", 8, "server-stamped", "The batch's base_timestamp (µs): messages with the same timestamp came from one batch."],
  ["legacy.origin_timestamp", "u64", 8, "producer-set", "Producer time of the message (µs)."],
  ["legacy.user_headers_length", "u32", 4, "length", "Byte length of the user headers after the payload."],
  ["legacy.payload_length", "u32", 4, "length", "Byte length of the payload."],
  ["legacy.reserved", "u64", 8, "reserved", "Must be zero."],
]);
