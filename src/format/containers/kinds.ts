/**
 * Every byte kind a container adds (containers.md): the names are `<layout>.<field>`, so the hex
 * colours, tooltips and docs treat them like batch fields. fields.ts folds them into ByteKind.
 */

/** Container byte kinds in display order. */
export const CONTAINER_KINDS = [
  "index.offset", "index.timestamp", "index.position", "index.trailing",
  "poll.partition_id", "poll.current_offset", "poll.count",
  "send.metadata_length", "send.identifier_kind", "send.identifier_length", "send.identifier_value",
  "send.partitioning_kind", "send.partitioning_length", "send.partitioning_value", "send.messages_count",
  "consensus.checksum", "consensus.checksum_body", "consensus.cluster", "consensus.size", "consensus.view",
  "consensus.release", "consensus.command", "consensus.replica", "consensus.reserved_frame",
  "request.client", "request.request_checksum", "request.timestamp", "request.request", "request.operation",
  "request.operation_padding", "request.session", "request.user_id", "request.legacy_operation", "request.reserved",
  "reply.request_checksum", "reply.context", "reply.client", "reply.op", "reply.commit", "reply.timestamp",
  "reply.request", "reply.operation", "reply.operation_padding", "reply.status", "reply.reserved",
  "prepare.client", "prepare.parent", "prepare.request_checksum", "prepare.op", "prepare.commit", "prepare.timestamp",
  "prepare.request", "prepare.operation", "prepare.operation_padding", "prepare.group", "prepare.user_id", "prepare.reserved",
  "legacy.checksum", "legacy.id", "legacy.offset", "legacy.timestamp", "legacy.origin_timestamp",
  "legacy.user_headers_length", "legacy.payload_length", "legacy.reserved", "legacy.payload", "legacy.user_headers",
] as const;

/** One byte kind of a container's own fields. */
export type ContainerByteKind = (typeof CONTAINER_KINDS)[number];
