/**
 * Colours of the container kinds (src/format/containers): one colour per role group, so a container
 * header reads at a glance (ids, offsets, times, lengths, checksums, reserved, values) without a
 * palette entry per field. The exhaustive Record makes a new container kind without a group fail to compile.
 */
import type { ContainerByteKind } from "../../format/containers/kinds.ts";
import type { KindStyle } from "./kind-style.ts";

type Group = "id" | "offset" | "time" | "length" | "checksum" | "reserved" | "value" | "command";

const GROUP: Readonly<Record<ContainerByteKind, Group>> = {
  "index.offset": "offset", "index.timestamp": "time", "index.position": "length", "index.trailing": "reserved",
  "poll.partition_id": "id", "poll.current_offset": "offset", "poll.count": "length",
  "send.metadata_length": "length", "send.identifier_kind": "command", "send.identifier_length": "length", "send.identifier_value": "id",
  "send.partitioning_kind": "command", "send.partitioning_length": "length", "send.partitioning_value": "value", "send.messages_count": "length",
  "consensus.checksum": "checksum", "consensus.checksum_body": "checksum", "consensus.cluster": "id", "consensus.size": "length",
  "consensus.view": "offset", "consensus.release": "value", "consensus.command": "command", "consensus.replica": "id", "consensus.reserved_frame": "reserved",
  "request.client": "id", "request.request_checksum": "checksum", "request.timestamp": "time", "request.request": "offset",
  "request.operation": "command", "request.operation_padding": "reserved", "request.session": "value", "request.user_id": "id",
  "request.legacy_operation": "command", "request.reserved": "reserved",
  "reply.request_checksum": "checksum", "reply.context": "value", "reply.client": "id", "reply.op": "offset", "reply.commit": "offset",
  "reply.timestamp": "time", "reply.request": "offset", "reply.operation": "command", "reply.operation_padding": "reserved",
  "reply.status": "command", "reply.reserved": "reserved",
  "prepare.client": "id", "prepare.parent": "checksum", "prepare.request_checksum": "checksum", "prepare.op": "offset",
  "prepare.commit": "offset", "prepare.timestamp": "time", "prepare.request": "offset", "prepare.operation": "command",
  "prepare.operation_padding": "reserved", "prepare.group": "id", "prepare.user_id": "id", "prepare.reserved": "reserved",
  "legacy.checksum": "checksum", "legacy.id": "id", "legacy.offset": "offset", "legacy.timestamp": "time",
  "legacy.origin_timestamp": "time", "legacy.user_headers_length": "length", "legacy.payload_length": "length",
  "legacy.reserved": "reserved", "legacy.payload": "value", "legacy.user_headers": "value",
};

/** The colour class of a container kind's group (the first class of its className). */
export function containerColourClass(kind: ContainerByteKind): string {
  return `kind-container-${GROUP[kind]}`;
}

/** Style of every container kind: its group's colour class, a class of its own (for tests and selectors) and a label naming the field. */
export const CONTAINER_KIND_STYLE = Object.fromEntries(
  Object.keys(GROUP).map((kind) => [kind, { className: `${containerColourClass(kind as ContainerByteKind)} kind-c-${kind.replace(/[._]/g, "-")}`, label: kind.replace(".", " ") }]),
) as { readonly [K in ContainerByteKind]: KindStyle };
