/**
 * The binary protocol's message bodies and names a capture shows (captures.md "Messages on a
 * connection"): the eviction header, the PollMessages request, the login (Register) body, send
 * confirmations, and the operation, legacy command, polling strategy and eviction reason names.
 * Upstream apache/iggy at cc269ef70: core/binary_protocol/src/consensus/{header.rs,operation.rs},
 * core/binary_protocol/src/requests/messages/poll_messages.rs, primitives/{consumer,polling_strategy}.rs,
 * responses/messages/send_messages.rs, foreign/node/src/wire/vsr/register.ts:45-71,
 * foreign/node/src/wire/command.code.ts.
 */
import type { FieldSpec } from "../field-spec.ts";
import { COMMAND, PREPARE_FIELDS, PREPARE_OK_FIELDS, REPLY_FIELDS, REQUEST_FIELDS } from "./consensus.ts";
import { layout } from "./table.ts";

/**
 * Bytes 128..256 of an eviction (command 13, header only, session-terminal): header.rs EvictionHeader.
 * The reason is the last byte, 255: core/binary_protocol/src/consensus/header.rs:709-735 at cc269ef70
 * (`reason` after `reserved: [u8; 103]`, asserted `offset_of!(reason) + 1 == HEADER_SIZE`), as the Node
 * SDK reads it (foreign/node/src/wire/vsr/header.ts:59-65, `reason: 255`). The corpus's eviction.pcap was
 * written by a stub server that put its reason (15) at byte 128, the client id's first byte.
 */
export const EVICTION_FIELDS: readonly FieldSpec[] = layout(128, [
  ["eviction.client", "u128", 16, "producer-set", "Client id of the evicted session."],
  ["eviction.server_protocol_version", "u32", 4, "server-stamped", "Highest protocol version the server accepts (set for reason 14, else 0)."],
  ["eviction.server_protocol_version_min", "u32", 4, "server-stamped", "Lowest protocol version the server accepts (set for reason 14, else 0)."],
  ["eviction.reserved", "bytes", 103, "reserved", "Reserved."],
  ["eviction.reason", "u8", 1, "server-stamped", "Why the session ended: an EvictionReason (15 malformed login, e.g. a legacy login code)."],
]);

/** Bytes 128..256 by command byte: every header.rs variant a connection carries; any other command shows its common part only. */
export const CONSENSUS_VARIANT_FIELDS: ReadonlyMap<number, readonly FieldSpec[]> = new Map([
  [COMMAND.request, REQUEST_FIELDS],
  [COMMAND.prepare, PREPARE_FIELDS],
  [COMMAND.prepareOk, PREPARE_OK_FIELDS],
  [COMMAND.reply, REPLY_FIELDS],
  [COMMAND.eviction, EVICTION_FIELDS],
]);

/** EvictionReason by number (header.rs). */
export const EVICTION_REASON_NAMES: Readonly<Record<number, string>> = {
  0: "reserved",
  1: "no_session",
  2: "client_release_too_low",
  3: "client_release_too_high",
  4: "invalid_request_operation",
  5: "invalid_request_body",
  6: "invalid_request_body_size",
  7: "session_too_low",
  8: "session_release_mismatch",
  9: "invalid_credentials",
  10: "invalid_token",
  11: "user_inactive",
  12: "session_error",
  13: "stale_client",
  14: "incompatible_protocol",
  15: "malformed_login",
};

/** Consensus operation (request @208, reply @208) by number, as kebab-case names (operation.rs Operation). */
export const OPERATION_NAME_OF: Readonly<Record<number, string>> = {
  0: "reserved",
  1: "register",
  2: "non-replicated",
  3: "logout",
  64: "create-topic-with-assignments",
  65: "create-partitions-with-assignments",
  66: "remove-consumer-group-member",
  67: "complete-consumer-group-revocation",
  68: "truncate-partition",
  128: "create-stream",
  129: "update-stream",
  130: "delete-stream",
  131: "purge-stream",
  132: "create-topic",
  133: "update-topic",
  134: "delete-topic",
  135: "purge-topic",
  136: "create-partitions",
  137: "delete-partitions",
  138: "delete-segments",
  139: "create-consumer-group",
  140: "delete-consumer-group",
  141: "create-user",
  142: "update-user",
  143: "delete-user",
  144: "change-password",
  145: "update-permissions",
  146: "create-personal-access-token",
  147: "delete-personal-access-token",
  148: "join-consumer-group",
  149: "leave-consumer-group",
  160: "send-messages",
  161: "store-consumer-offset",
  162: "delete-consumer-offset",
};

/** Legacy command code (request @196 of a non-replicated operation 2) by number (command.code.ts COMMAND_CODE). */
export const LEGACY_COMMAND_NAME_OF: Readonly<Record<number, string>> = {
  1: "ping",
  10: "get-stats",
  11: "get-snapshot",
  12: "get-cluster-metadata",
  13: "describe-options",
  20: "get-me",
  21: "get-client",
  22: "get-clients",
  31: "get-user",
  32: "get-users",
  33: "create-user",
  34: "delete-user",
  35: "update-user",
  36: "update-permissions",
  37: "change-password",
  38: "login-user",
  39: "logout-user",
  40: "login-register",
  41: "get-access-tokens",
  42: "create-access-token",
  43: "delete-access-token",
  44: "login-with-access-token",
  45: "login-register-with-access-token",
  100: "poll-messages",
  101: "send-messages",
  102: "flush-unsaved-buffers",
  120: "get-offset",
  121: "store-offset",
  122: "delete-consumer-offset",
  200: "get-stream",
  201: "get-streams",
  202: "create-stream",
  203: "delete-stream",
  204: "update-stream",
  205: "purge-stream",
  300: "get-topic",
  301: "get-topics",
  302: "create-topic",
  303: "delete-topic",
  304: "update-topic",
  305: "purge-topic",
  402: "create-partitions",
  403: "delete-partitions",
  503: "delete-segments",
  600: "get-group",
  601: "get-groups",
  602: "create-group",
  603: "delete-group",
  604: "join-group",
  605: "leave-group",
  606: "sync-group",
};

/** Numbers the body decoder keys on. */
export const PROTOCOL = {
  operationRegister: 1,
  operationNonReplicated: 2,
  operationSendMessages: 160,
  legacyPollMessages: 100,
  /** Legacy login codes a VSR server answers with an eviction (reason 15). */
  legacyLogins: [38, 44],
} as const;

/** The PollMessages request body's head: the consumer kind, then the consumer identifier (SEND_IDENTIFIER_FIELDS' shape). */
export const POLL_REQUEST_CONSUMER_FIELDS: readonly FieldSpec[] = layout(0, [
  ["poll_request.consumer_kind", "u8", 1, "producer-set", "Consumer kind: 1 consumer, 2 consumer group; its identifier follows."],
]);

/** An identifier of a PollMessages request (consumer, stream, topic), relative to its first byte; the value's size is the length byte. */
export const POLL_REQUEST_IDENTIFIER_FIELDS: readonly FieldSpec[] = layout(0, [
  ["poll_request.identifier_kind", "u8", 1, "producer-set", "Identifier kind: 1 numeric (length 4, a u32 id), 2 string (1..255 bytes of UTF-8 name)."],
  ["poll_request.identifier_length", "u8", 1, "length", "Length of the identifier's value."],
  ["poll_request.identifier_value", "bytes", 0, "producer-set", "The identifier's value: a u32 id or a UTF-8 name."],
]);

/** The fixed tail of a PollMessages request after the three identifiers (19 bytes), relative to its first byte. */
export const POLL_REQUEST_TAIL_FIELDS: readonly FieldSpec[] = layout(0, [
  ["poll_request.partition_flag", "u8", 1, "producer-set", "1 when a partition id follows, 0 to let the server choose (the next 4 bytes are then 0)."],
  ["poll_request.partition_id", "u32", 4, "producer-set", "The partition polled, when the flag is 1."],
  ["poll_request.strategy", "u8", 1, "producer-set", "Polling strategy: 1 offset, 2 timestamp, 3 first, 4 last, 5 next."],
  ["poll_request.value", "u64", 8, "producer-set", "The strategy's value: an offset or a µs timestamp (0 for first, last, next)."],
  ["poll_request.count", "u32", 4, "length", "How many messages to poll at most."],
  ["poll_request.auto_commit", "u8", 1, "producer-set", "Nonzero: the server stores the consumer offset after the poll."],
]);

/** Size in bytes of the PollMessages request's fixed tail. */
export const POLL_REQUEST_TAIL_SIZE = 19;

/** Consumer kinds by number (primitives/consumer.rs). */
export const CONSUMER_KIND_NAMES: Readonly<Record<number, string>> = { 1: "consumer", 2: "consumer group" };
/** Polling strategies by number (primitives/polling_strategy.rs). */
export const POLLING_STRATEGY_NAMES: Readonly<Record<number, string>> = { 1: "offset", 2: "timestamp", 3: "first", 4: "last", 5: "next" };

/** The login (Register, operation 1) body's head: the client's protocol version, then u8-length-prefixed names. */
export const LOGIN_VERSION_FIELDS: readonly FieldSpec[] = layout(0, [
  ["login.protocol_version", "u32", 4, "producer-set", "The client's packed protocol semver (major << 20 | minor << 10 | patch)."],
]);

/** A u8-length-prefixed name of a login (SDK name, SDK version, username), relative to its first byte. */
export const LOGIN_NAME_FIELDS: readonly FieldSpec[] = layout(0, [
  ["login.name_length", "u8", 1, "length", "Length of the name that follows (1..255)."],
  ["login.name", "bytes", 0, "producer-set", "UTF-8: the SDK's name, the SDK's version, then the username (absent with a token)."],
]);

/** The secret of a login (password or personal access token), relative to its first byte: never shown, only its length. */
export const LOGIN_SECRET_FIELDS: readonly FieldSpec[] = layout(0, [
  ["login.secret_length", "u8", 1, "length", "Length of the password or token."],
  ["login.secret", "bytes", 0, "producer-set", "The password or personal access token, in clear on the wire; shown as •••• with its length, never its bytes."],
]);

/** The login body's end, relative to its first byte. */
export const LOGIN_CONTEXT_FIELDS: readonly FieldSpec[] = layout(0, [
  ["login.context_length", "u32", 4, "length", "Length of the context that follows (0 from the SDKs)."],
  ["login.context", "bytes", 0, "producer-set", "Opaque login context."],
]);

/** The mask shown in place of a login secret's bytes. */
export const SECRET_MASK = "••••";

/** A send reply body's head: how many confirmations follow (an empty body from older servers). */
export const CONFIRMATION_COUNT_FIELDS: readonly FieldSpec[] = layout(0, [
  ["confirm.count", "u32", 4, "length", "Confirmations that follow, one per partition written."],
]);

/** One send confirmation (20 bytes), relative to its first byte (responses/messages/send_messages.rs). */
export const CONFIRMATION_FIELDS: readonly FieldSpec[] = layout(0, [
  ["confirm.stream_id", "u32", 4, "producer-set", "Stream written."],
  ["confirm.topic_id", "u32", 4, "producer-set", "Topic written."],
  ["confirm.partition_id", "u32", 4, "server-stamped", "Partition the messages went to."],
  ["confirm.base_offset", "u64", 8, "server-stamped", "Offset the server gave the first message."],
]);

/** Size in bytes of one send confirmation. */
export const CONFIRMATION_SIZE = 20;
