/**
 * The byte-kind colours as data, with no DOM: ui/common/kinds.css paints the page with exactly these (a unit
 * test holds them equal), and the SVG pictures of the bytes read them here.
 */
import type { ByteKind } from "../format/fields.ts";

/** A background colour per byte kind and the text colour on them. */
export interface KindPalette {
  readonly fg: string;
  readonly bg: { readonly [K in ByteKind]: string };
}

/** The light (and print) palette. */
export const LIGHT_PALETTE: KindPalette = {
  fg: "#1d1d1f",
  bg: {
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
};

/** The dark palette. */
export const DARK_PALETTE: KindPalette = {
  fg: "#ececef",
  bg: {
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
};
