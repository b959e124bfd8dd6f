/**
 * The 256-byte consensus header of every network frame and replicated record, with its request,
 * reply, prepare and prepare-ok variants. containers.md "Consensus headers"; upstream
 * core/binary_protocol/src/consensus/header.rs (GenericHeader, RequestHeader, ReplyHeader, PrepareHeader,
 * PrepareOkHeader).
 */
import type { FieldSpec } from "../field-spec.ts";
import { layout } from "./table.ts";

/** Size in bytes of a consensus header. */
export const CONSENSUS_HEADER_SIZE = 256;
/** Command numbers (header.rs Command). */
export const COMMAND = { request: 5, prepare: 6, prepareOk: 7, reply: 8, eviction: 13 } as const;
/** Each command's name as the JSON, the text and the dissector say it: "request", "prepare-ok", … */
export const COMMAND_NAME_OF: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(COMMAND).map(([name, n]) => [n, name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())]),
);
/** Operation numbers worth naming. */
export const OPERATION_NAMES: Readonly<Record<number, string>> = { 2: "non-replicated (legacy code at 196)", 160: "SendMessages" };

/** Bytes 0..128, shared by every command. */
export const CONSENSUS_COMMON_FIELDS: readonly FieldSpec[] = layout(0, [
  ["consensus.checksum", "u128", 16, "checksum", "Checksum of the header; zero in a partition prepare (not verified here)."],
  ["consensus.checksum_body", "u128", 16, "checksum", "Checksum of the body; zero in a partition prepare (not verified here)."],
  ["consensus.cluster", "u128", 16, "server-stamped", "Cluster id."],
  ["consensus.size", "u32", 4, "length", "Frame size: 256 + body length (a prepare: 256 + batch_length)."],
  ["consensus.view", "u32", 4, "server-stamped", "View number of the consensus."],
  ["consensus.release", "u32", 4, "server-stamped", "Release (protocol version) of the sender."],
  ["consensus.command", "u8", 1, "server-stamped", "Command: 5 request, 6 prepare, 7 prepare-ok, 8 reply, 13 eviction."],
  ["consensus.replica", "u8", 1, "server-stamped", "Replica index of the sender."],
  ["consensus.reserved_frame", "bytes", 66, "reserved", "Reserved frame bytes 62..128."],
]);

/** Bytes 128..256 of a request (command 5); its body is a SendMessages body. */
export const REQUEST_FIELDS: readonly FieldSpec[] = layout(128, [
  ["request.client", "u128", 16, "producer-set", "Client id."],
  ["request.request_checksum", "u128", 16, "checksum", "Checksum of the request."],
  ["request.timestamp", "u64", 8, "producer-set", "Client time of the request."],
  ["request.request", "u64", 8, "producer-set", "Request number of the client."],
  ["request.operation", "u8", 1, "producer-set", "Operation: 160 SendMessages; 2 a non-replicated operation, whose legacy code sits at 196..200."],
  ["request.operation_padding", "bytes", 7, "reserved", "Padding after operation."],
  ["request.session", "u64", 8, "server-stamped", "Session epoch of the client's registration."],
  ["request.user_id", "u32", 4, "server-stamped", "Acting user id, stamped at admission."],
  ["request.legacy_operation", "u32", 4, "producer-set", "Legacy command code of a non-replicated operation (e.g. 100 PollMessages); first bytes of reserved."],
  ["request.reserved", "bytes", 56, "reserved", "Reserved."],
]);

/** Bytes 128..256 of a reply (command 8); its body is a poll reply body, batches from byte 272. */
export const REPLY_FIELDS: readonly FieldSpec[] = layout(128, [
  ["reply.request_checksum", "u128", 16, "checksum", "Checksum of the request answered."],
  ["reply.context", "u128", 16, "server-stamped", "Reply context."],
  ["reply.client", "u128", 16, "producer-set", "Client id."],
  ["reply.op", "u64", 8, "server-stamped", "Op number."],
  ["reply.commit", "u64", 8, "server-stamped", "Commit number."],
  ["reply.timestamp", "u64", 8, "server-stamped", "Server time of the reply."],
  ["reply.request", "u64", 8, "producer-set", "Request number answered."],
  ["reply.operation", "u8", 1, "producer-set", "Operation answered."],
  ["reply.operation_padding", "bytes", 7, "reserved", "Padding after operation."],
  ["reply.status", "u32", 4, "server-stamped", "0 ok; nonzero an IggyError code, and the body is empty."],
  ["reply.reserved", "bytes", 36, "reserved", "Reserved."],
]);

/** Bytes 128..256 of a prepare (command 6), the replicated record; its body is exactly one stamped batch. */
export const PREPARE_FIELDS: readonly FieldSpec[] = layout(128, [
  ["prepare.client", "u128", 16, "producer-set", "Client id."],
  ["prepare.parent", "u128", 16, "checksum", "Checksum of the previous prepare."],
  ["prepare.request_checksum", "u128", 16, "checksum", "Copied from the admitted request."],
  ["prepare.op", "u64", 8, "server-stamped", "Op number."],
  ["prepare.commit", "u64", 8, "server-stamped", "Commit number."],
  ["prepare.timestamp", "u64", 8, "server-stamped", "Prepare time; equals the batch's base_timestamp."],
  ["prepare.request", "u64", 8, "producer-set", "Request number."],
  ["prepare.operation", "u8", 1, "producer-set", "Operation: 160 SendMessages."],
  ["prepare.operation_padding", "bytes", 7, "reserved", "Padding after operation."],
  ["prepare.group", "u64", 8, "server-stamped", "Consensus group: the partition's packed stream-topic-partition key, or the metadata plane."],
  ["prepare.user_id", "u32", 4, "server-stamped", "Acting user id, copied from the request."],
  ["prepare.reserved", "bytes", 28, "reserved", "Reserved."],
]);

/**
 * Bytes 128..256 of a prepare-ok (command 7, header only), a replica's acknowledgement of a prepare:
 * header.rs PrepareOkHeader (lines 1118-1151 at cc269ef70, whose asserts fix parent at 128 and the 48
 * reserved bytes at the end).
 */
export const PREPARE_OK_FIELDS: readonly FieldSpec[] = layout(128, [
  ["prepare_ok.parent", "u128", 16, "checksum", "Parent checksum of the prepare acknowledged."],
  ["prepare_ok.prepare_checksum", "u128", 16, "checksum", "Checksum of the prepare acknowledged."],
  ["prepare_ok.op", "u64", 8, "server-stamped", "Op number of the prepare acknowledged."],
  ["prepare_ok.commit", "u64", 8, "server-stamped", "Commit number of the replica."],
  ["prepare_ok.timestamp", "u64", 8, "server-stamped", "Timestamp of the prepare acknowledged."],
  ["prepare_ok.request", "u64", 8, "producer-set", "Request number of the prepare acknowledged."],
  ["prepare_ok.operation", "u8", 1, "producer-set", "Operation of the prepare acknowledged: 160 SendMessages."],
  ["prepare_ok.operation_padding", "bytes", 7, "reserved", "Padding after operation."],
  ["prepare_ok.group", "u64", 8, "server-stamped", "Consensus group of the prepare acknowledged."],
  ["prepare_ok.reserved", "bytes", 48, "reserved", "Reserved."],
]);
