/**
 * Every container layout as data (containers.md): the tables the container decoders, the hex
 * colours, the tooltips and docs/FIELDS.md read, beside the batch's own in ../fields.ts.
 */
import type { FieldSpec } from "../field-spec.ts";
import { CONTAINER_KINDS, type ContainerByteKind } from "./kinds.ts";
import { INDEX_ENTRY_FIELDS } from "./index-entry.ts";
import { POLL_PREFIX_FIELDS } from "./poll-reply.ts";
import { SEND_IDENTIFIER_FIELDS, SEND_MESSAGES_COUNT_FIELDS, SEND_METADATA_LENGTH_FIELDS, SEND_PARTITIONING_FIELDS } from "./send-messages.ts";
import { CONSENSUS_COMMON_FIELDS, PREPARE_FIELDS, PREPARE_OK_FIELDS, REPLY_FIELDS, REQUEST_FIELDS } from "./consensus.ts";
import { LEGACY_HEADER_FIELDS } from "./legacy.ts";
import {
  CONFIRMATION_COUNT_FIELDS,
  CONFIRMATION_FIELDS,
  EVICTION_FIELDS,
  LOGIN_CONTEXT_FIELDS,
  LOGIN_NAME_FIELDS,
  LOGIN_SECRET_FIELDS,
  LOGIN_VERSION_FIELDS,
  POLL_REQUEST_CONSUMER_FIELDS,
  POLL_REQUEST_IDENTIFIER_FIELDS,
  POLL_REQUEST_TAIL_FIELDS,
} from "./protocol.ts";

export { CONTAINER_KINDS, type ContainerByteKind };

/** One titled layout table for the docs. */
export interface ContainerTable {
  readonly title: string;
  /** Where the offsets count from, in words. */
  readonly origin: string;
  readonly fields: readonly FieldSpec[];
}

/** Every container table in the order the docs list them. */
export const CONTAINER_TABLES: readonly ContainerTable[] = [
  { title: "Index entry (24 bytes, `.index` files)", origin: "from the entry's start", fields: INDEX_ENTRY_FIELDS },
  { title: "Poll reply prefix (16 bytes), then batch records", origin: "from the body's start", fields: POLL_PREFIX_FIELDS },
  { title: "SendMessages body: metadata_length", origin: "from the body's start", fields: SEND_METADATA_LENGTH_FIELDS },
  {
    title: "SendMessages body: identifier (stream_id, then topic_id)",
    origin: "from the identifier's first byte; the value is `length` bytes",
    fields: SEND_IDENTIFIER_FIELDS,
  },
  { title: "SendMessages body: partitioning", origin: "from its first byte; the value is `length` bytes", fields: SEND_PARTITIONING_FIELDS },
  { title: "SendMessages body: messages_count, then the batch at 4 + metadata_length", origin: "from its first byte", fields: SEND_MESSAGES_COUNT_FIELDS },
  { title: "Consensus header, common part (bytes 0..128)", origin: "from the frame's start", fields: CONSENSUS_COMMON_FIELDS },
  { title: "Consensus request (command 5), then a SendMessages body", origin: "from the frame's start", fields: REQUEST_FIELDS },
  { title: "Consensus reply (command 8), then a poll reply body", origin: "from the frame's start", fields: REPLY_FIELDS },
  { title: "Consensus prepare (command 6, the replicated record), then one stamped batch", origin: "from the frame's start", fields: PREPARE_FIELDS },
  { title: "Consensus prepare-ok (command 7, header only, a replica's acknowledgement)", origin: "from the frame's start", fields: PREPARE_OK_FIELDS },
  { title: "Consensus eviction (command 13, header only, session-terminal)", origin: "from the frame's start", fields: EVICTION_FIELDS },
  { title: "PollMessages request body (operation 2, legacy code 100): consumer kind", origin: "from the body's start", fields: POLL_REQUEST_CONSUMER_FIELDS },
  {
    title: "PollMessages request: identifier (consumer, then stream_id, then topic_id)",
    origin: "from the identifier's first byte; the value is `length` bytes",
    fields: POLL_REQUEST_IDENTIFIER_FIELDS,
  },
  { title: "PollMessages request: after the identifiers", origin: "from its first byte", fields: POLL_REQUEST_TAIL_FIELDS },
  { title: "Login (Register, operation 1) body: protocol version", origin: "from the body's start", fields: LOGIN_VERSION_FIELDS },
  {
    title: "Login body: name (SDK name, SDK version, then username unless a token is used)",
    origin: "from the name's first byte; the name is `length` bytes",
    fields: LOGIN_NAME_FIELDS,
  },
  { title: "Login body: password or personal access token (never shown)", origin: "from its first byte", fields: LOGIN_SECRET_FIELDS },
  { title: "Login body: context, last", origin: "from its first byte", fields: LOGIN_CONTEXT_FIELDS },
  { title: "Send reply body: confirmation count", origin: "from the body's start", fields: CONFIRMATION_COUNT_FIELDS },
  { title: "Send reply body: one confirmation (20 bytes), repeated count times", origin: "from the confirmation's first byte", fields: CONFIRMATION_FIELDS },
  {
    title: "Legacy message header (64 bytes, `iggy message poll --output-file`), then payload, then user headers",
    origin: "from the message's start",
    fields: LEGACY_HEADER_FIELDS,
  },
];

/** Container kinds no fixed table row describes: variable parts. */
export const CONTAINER_VARIABLE_PARTS: Readonly<Record<"index.trailing" | "legacy.payload" | "legacy.user_headers", { name: string; description: string }>> = {
  "index.trailing": { name: "trailing_partial_entry", description: "A partial entry at the end of an .index file; the server ignores it." },
  "legacy.payload": { name: "payload", description: "The legacy message's body." },
  "legacy.user_headers": { name: "user_headers", description: "The legacy message's user headers, after the payload." },
};

const FIXED = new Map<string, FieldSpec>();
for (const t of CONTAINER_TABLES) for (const f of t.fields) FIXED.set(f.kind, f);

/** Every container kind in display order. */
export const ALL_CONTAINER_KINDS: readonly ContainerByteKind[] = CONTAINER_KINDS;

/** Name, description and layout scope of a container kind. */
export function describeContainerKind(kind: ContainerByteKind): { name: string; description: string; scope: string } {
  const scope = kind.slice(0, kind.indexOf("."));
  const fixed = FIXED.get(kind);
  if (fixed) return { name: fixed.name, description: fixed.description, scope };
  const part = CONTAINER_VARIABLE_PARTS[kind as keyof typeof CONTAINER_VARIABLE_PARTS];
  return { name: part.name, description: part.description, scope };
}

/** True when a byte kind belongs to a container layout. */
export function isContainerKind(kind: string): kind is ContainerByteKind {
  return (CONTAINER_KINDS as readonly string[]).includes(kind);
}
