/**
 * The SendMessages request body: metadata, then one producer batch at 4 + metadata_length.
 * containers.md "SendMessages body"; upstream core/server_common/src/send_messages.rs:434-540.
 * Identifiers and the partitioning are variable: each is [kind u8][length u8][value], described by one
 * three-row table placed at wherever it starts.
 */
import type { FieldSpec } from "../field-spec.ts";
import { layout } from "./table.ts";

/** The fixed field at the start of the body. */
export const SEND_METADATA_LENGTH_FIELDS: readonly FieldSpec[] = layout(0, [
  ["send.metadata_length", "u32", 4, "length", "Bytes of stream_id, topic_id, partitioning and messages_count: the batch starts at 4 + metadata_length."],
]);

/** An identifier (stream_id, topic_id) relative to its first byte; the value's size is the length byte. */
export const SEND_IDENTIFIER_FIELDS: readonly FieldSpec[] = layout(0, [
  ["send.identifier_kind", "u8", 1, "producer-set", "Identifier kind: 1 numeric (length 4, a u32 id), 2 string (1..255 bytes of UTF-8 name)."],
  ["send.identifier_length", "u8", 1, "length", "Length of the identifier's value."],
  ["send.identifier_value", "bytes", 0, "producer-set", "The identifier's value: a u32 id or a UTF-8 name."],
]);

/** The partitioning relative to its first byte; the value's size is the length byte. */
export const SEND_PARTITIONING_FIELDS: readonly FieldSpec[] = layout(0, [
  [
    "send.partitioning_kind",
    "u8",
    1,
    "producer-set",
    "Partitioning kind: 1 balanced (length 0), 2 partition id (length 4, u32), 3 messages key (1..255 bytes).",
  ],
  ["send.partitioning_length", "u8", 1, "length", "Length of the partitioning value."],
  ["send.partitioning_value", "bytes", 0, "producer-set", "The partition id or the messages key; empty for balanced."],
]);

/** The field that ends the metadata, relative to its first byte. */
export const SEND_MESSAGES_COUNT_FIELDS: readonly FieldSpec[] = layout(0, [
  ["send.messages_count", "u32", 4, "length", "Messages in the batch: at least 1 and equal to the batch's message_count."],
]);

/** Identifier kinds and partitioning kinds by number. */
export const IDENTIFIER_KIND_NAMES: Readonly<Record<number, string>> = { 1: "numeric", 2: "string" };
/** Partitioning kinds by number. */
export const PARTITIONING_KIND_NAMES: Readonly<Record<number, string>> = { 1: "balanced", 2: "partition id", 3: "messages key" };
