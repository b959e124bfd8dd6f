/**
 * The colour of every byte kind: one CSS class per kind (colours live in kinds.css as custom
 * properties with a light and a dark palette) and a short label for legends and swatches.
 */
import type { ByteKind } from "../../format/fields.ts";
import { CONTAINER_KIND_STYLE, type KindStyle } from "./container-kind-style.ts";
import "./kinds.css";

export type { KindStyle } from "./container-kind-style.ts";

// A mapped type over ByteKind: a new kind without a style fails to compile.
/** Style of every byte kind, shared by the hex map, its legend and the tables' swatches. */
export const KIND_STYLE: { readonly [K in ByteKind]: KindStyle } = {
  "batch.partition_id": { className: "kind-batch-partition-id", label: "batch partition_id" },
  "batch.base_offset": { className: "kind-batch-base-offset", label: "batch base_offset" },
  "batch.base_timestamp": { className: "kind-batch-base-timestamp", label: "batch base_timestamp" },
  "batch.origin_timestamp": { className: "kind-batch-origin-timestamp", label: "batch origin_timestamp" },
  "batch.batch_length": { className: "kind-batch-batch-length", label: "batch batch_length" },
  "batch.batch_checksum": { className: "kind-batch-batch-checksum", label: "batch batch_checksum" },
  "batch.message_count": { className: "kind-batch-message-count", label: "batch message_count" },
  "batch.reserved": { className: "kind-batch-reserved", label: "batch reserved" },
  "frame.checksum": { className: "kind-frame-checksum", label: "frame checksum" },
  "frame.id": { className: "kind-frame-id", label: "frame id" },
  "frame.offset_delta": { className: "kind-frame-offset-delta", label: "frame offset_delta" },
  "frame.timestamp_delta": { className: "kind-frame-timestamp-delta", label: "frame timestamp_delta" },
  "frame.user_headers_length": { className: "kind-frame-user-headers-length", label: "frame user_headers_length" },
  "frame.payload_length": { className: "kind-frame-payload-length", label: "frame payload_length" },
  "frame.reserved": { className: "kind-frame-reserved", label: "frame reserved" },
  "frame.payload": { className: "kind-frame-payload", label: "frame payload" },
  "frame.user_headers": { className: "kind-frame-user-headers", label: "frame user_headers" },
  unattributed: { className: "kind-unattributed", label: "unattributed" },
  ...CONTAINER_KIND_STYLE,
};

/** Class of a small square colour swatch; combine with a kind's className. */
export const SWATCH_CLASS = "kind-swatch";
