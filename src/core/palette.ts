/**
 * The byte-kind colours as data, with no DOM: ui/common/kinds.css paints the page with exactly these
 * (ui/common/palette.test.ts holds them equal), and the SVG pictures of the bytes read them here, in
 * the page and in the CLI alike. Container kinds take the colour of their role group.
 */
import { ALL_BYTE_KINDS, type ByteKind } from "../format/fields.ts";
import type { ContainerByteKind } from "../format/containers/kinds.ts";

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
    "batch.partition_id": "#f8c9c4",
    "batch.base_offset": "#fbd7ae",
    "batch.base_timestamp": "#f7e7a1",
    "batch.origin_timestamp": "#dbeeab",
    "batch.batch_length": "#f6c2e0",
    "batch.batch_checksum": "#f2a65a",
    "batch.message_count": "#dcc8f4",
    "batch.reserved": "#e9e4da",
    "frame.checksum": "#6fd0c2",
    "frame.id": "#aecbf7",
    "frame.offset_delta": "#bfe6f5",
    "frame.timestamp_delta": "#c6efcf",
    "frame.user_headers_length": "#cfc4f6",
    "frame.payload_length": "#9fdcb0",
    "frame.reserved": "#d6dee8",
    "frame.payload": "#eaf3dc",
    "frame.user_headers": "#f1e0f8",
    unattributed: "#d4d4d4",
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
    "batch.partition_id": "#6b2f2b",
    "batch.base_offset": "#6e4419",
    "batch.base_timestamp": "#5e5212",
    "batch.origin_timestamp": "#45561a",
    "batch.batch_length": "#6a2a55",
    "batch.batch_checksum": "#8a4a0c",
    "batch.message_count": "#4d3a70",
    "batch.reserved": "#3f3b35",
    "frame.checksum": "#146159",
    "frame.id": "#24457a",
    "frame.offset_delta": "#1d5266",
    "frame.timestamp_delta": "#245a33",
    "frame.user_headers_length": "#403880",
    "frame.payload_length": "#1f6140",
    "frame.reserved": "#33404d",
    "frame.payload": "#26301d",
    "frame.user_headers": "#3a2745",
    unattributed: "#4a4a4a",
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
