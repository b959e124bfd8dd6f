/**
 * The byte-kind colours as data, with no DOM: ui/common/kinds.css paints the page with exactly these
 * (ui/common/palette.test.ts holds them equal), and the SVG pictures of the bytes read them here, in
 * the page and in the CLI alike. Container kinds take the colour of their role group.
 */
import { ALL_BYTE_KINDS, type ByteKind } from "../../format/fields.ts";
import type { ContainerByteKind } from "../../format/containers/kinds.ts";

/** The role groups container fields are coloured by. */
export type ColourGroup = "id" | "offset" | "time" | "length" | "checksum" | "reserved" | "value" | "command";

/** The group of every container kind; the exhaustive Record makes a new container kind without a group fail to compile. */
export const CONTAINER_COLOUR_GROUP: Readonly<Record<ContainerByteKind, ColourGroup>> = {
  "index.offset": "offset",
  "index.timestamp": "time",
  "index.position": "length",
  "index.trailing": "reserved",
  "poll.partition_id": "id",
  "poll.current_offset": "offset",
  "poll.count": "length",
  "send.metadata_length": "length",
  "send.identifier_kind": "command",
  "send.identifier_length": "length",
  "send.identifier_value": "id",
  "send.partitioning_kind": "command",
  "send.partitioning_length": "length",
  "send.partitioning_value": "value",
  "send.messages_count": "length",
  "consensus.checksum": "checksum",
  "consensus.checksum_body": "checksum",
  "consensus.cluster": "id",
  "consensus.size": "length",
  "consensus.view": "offset",
  "consensus.release": "value",
  "consensus.command": "command",
  "consensus.replica": "id",
  "consensus.reserved_frame": "reserved",
  "request.client": "id",
  "request.request_checksum": "checksum",
  "request.timestamp": "time",
  "request.request": "offset",
  "request.operation": "command",
  "request.operation_padding": "reserved",
  "request.session": "value",
  "request.user_id": "id",
  "request.legacy_operation": "command",
  "request.reserved": "reserved",
  "reply.request_checksum": "checksum",
  "reply.context": "value",
  "reply.client": "id",
  "reply.op": "offset",
  "reply.commit": "offset",
  "reply.timestamp": "time",
  "reply.request": "offset",
  "reply.operation": "command",
  "reply.operation_padding": "reserved",
  "reply.status": "command",
  "reply.reserved": "reserved",
  "prepare.client": "id",
  "prepare.parent": "checksum",
  "prepare.request_checksum": "checksum",
  "prepare.op": "offset",
  "prepare.commit": "offset",
  "prepare.timestamp": "time",
  "prepare.request": "offset",
  "prepare.operation": "command",
  "prepare.operation_padding": "reserved",
  "prepare.group": "id",
  "prepare.user_id": "id",
  "prepare.reserved": "reserved",
  "prepare_ok.parent": "checksum",
  "prepare_ok.prepare_checksum": "checksum",
  "prepare_ok.op": "offset",
  "prepare_ok.commit": "offset",
  "prepare_ok.timestamp": "time",
  "prepare_ok.request": "offset",
  "prepare_ok.operation": "command",
  "prepare_ok.operation_padding": "reserved",
  "prepare_ok.group": "id",
  "prepare_ok.reserved": "reserved",
  "eviction.client": "id",
  "eviction.server_protocol_version": "value",
  "eviction.server_protocol_version_min": "value",
  "eviction.reserved": "reserved",
  "eviction.reason": "command",
  "poll_request.consumer_kind": "command",
  "poll_request.identifier_kind": "command",
  "poll_request.identifier_length": "length",
  "poll_request.identifier_value": "id",
  "poll_request.partition_flag": "command",
  "poll_request.partition_id": "id",
  "poll_request.strategy": "command",
  "poll_request.value": "offset",
  "poll_request.count": "length",
  "poll_request.auto_commit": "value",
  "login.protocol_version": "value",
  "login.name_length": "length",
  "login.name": "value",
  "login.secret_length": "length",
  "login.secret": "value",
  "login.context_length": "length",
  "login.context": "value",
  "confirm.count": "length",
  "confirm.stream_id": "id",
  "confirm.topic_id": "id",
  "confirm.partition_id": "id",
  "confirm.base_offset": "offset",
  "legacy.checksum": "checksum",
  "legacy.id": "id",
  "legacy.offset": "offset",
  "legacy.timestamp": "time",
  "legacy.origin_timestamp": "time",
  "legacy.user_headers_length": "length",
  "legacy.payload_length": "length",
  "legacy.reserved": "reserved",
  "legacy.payload": "value",
  "legacy.user_headers": "value",
};

/** A background colour per byte kind and the text colour on them. */
export interface KindPalette {
  readonly fg: string;
  readonly bg: { readonly [K in ByteKind]: string };
  readonly groups: { readonly [G in ColourGroup]: string };
}

type BaseKind = Exclude<ByteKind, ContainerByteKind>;

function palette(p: { fg: string; base: { readonly [K in BaseKind]: string }; groups: { readonly [G in ColourGroup]: string } }): KindPalette {
  const groupOf = CONTAINER_COLOUR_GROUP as Readonly<Record<string, ColourGroup>>;
  const base = p.base as Readonly<Record<string, string>>;
  const bg = Object.fromEntries(ALL_BYTE_KINDS.map((k) => [k, groupOf[k] ? p.groups[groupOf[k]] : base[k]])) as { readonly [K in ByteKind]: string };
  return { fg: p.fg, bg, groups: p.groups };
}

/** The light (and print) palette. */
export const LIGHT_PALETTE: KindPalette = palette({
  fg: "#1d1d1f",
  base: {
    "batch.partition_id": "#fdd9b0",
    "batch.base_offset": "#f6bc7c",
    "batch.base_timestamp": "#fcd0a0",
    "batch.origin_timestamp": "#bcd4f9",
    "batch.batch_length": "#dccaf6",
    "batch.batch_checksum": "#5fc9b7",
    "batch.message_count": "#d3bdf3",
    "batch.reserved": "#e4e4e4",
    "frame.checksum": "#6ed3c2",
    "frame.id": "#a8c6f6",
    "frame.offset_delta": "#cfe0fb",
    "frame.timestamp_delta": "#b2cdf8",
    "frame.user_headers_length": "#cab3f1",
    "frame.payload_length": "#e6daf9",
    "frame.reserved": "#dcdcdc",
    "frame.payload": "#e4f2d5",
    "frame.user_headers": "#f7dcec",
    unattributed: "#c8c8c8",
  },
  groups: {
    id: "#d9c9e6",
    offset: "#c9d9e6",
    time: "#e6e0c9",
    length: "#e6c9d6",
    checksum: "#c2b0d9",
    reserved: "#e2e2ea",
    value: "#d6e6d2",
    command: "#b9c7e8",
  },
});

/** The dark palette. */
export const DARK_PALETTE: KindPalette = palette({
  fg: "#ececef",
  base: {
    "batch.partition_id": "#6b4317",
    "batch.base_offset": "#87551c",
    "batch.base_timestamp": "#74491a",
    "batch.origin_timestamp": "#24477d",
    "batch.batch_length": "#4c3874",
    "batch.batch_checksum": "#146a5f",
    "batch.message_count": "#563f82",
    "batch.reserved": "#3e3e41",
    "frame.checksum": "#17715f",
    "frame.id": "#20406f",
    "frame.offset_delta": "#2c5391",
    "frame.timestamp_delta": "#234a82",
    "frame.user_headers_length": "#5a4089",
    "frame.payload_length": "#44316b",
    "frame.reserved": "#38383b",
    "frame.payload": "#26321f",
    "frame.user_headers": "#40273a",
    unattributed: "#4e4e4e",
  },
  groups: {
    id: "#4a3a5c",
    offset: "#2f4a5c",
    time: "#55502c",
    length: "#5c2f45",
    checksum: "#3f2f66",
    reserved: "#3a3a44",
    value: "#334a2e",
    command: "#2c3c66",
  },
});
