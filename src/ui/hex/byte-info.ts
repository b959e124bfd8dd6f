/**
 * What the tooltip says about one byte: its field, where it sits, the spec's description and the
 * decoded value. Pure: everything is read from the analysis and the bytes, nothing from the DOM.
 */
import type { Analysis, BatchModel } from "../../core/model.ts";
import type { Diagnostic } from "../../format/diagnostics.ts";
import { describeKind } from "../../format/fields.ts";
import { fieldValueText } from "../../format/containers/value-text.ts";
import { decodeUserHeaders } from "../../format/user-headers.ts";
import { asciiOf, bytesToHex, decodeMessageId, hex128, hex64, microsToIso } from "../../format/values.ts";
import type { RangeIndex } from "../../lib/range-index.ts";
import { fieldAt, type FieldHit } from "./field-at.ts";

/** One labelled line of the tooltip; tone marks a checksum verdict. */
export interface InfoRow {
  readonly label: string;
  readonly value: string;
  readonly tone?: "ok" | "bad";
}

/** Everything the tooltip shows about a byte. */
export interface ByteInfo {
  readonly hit: FieldHit;
  /** The spec's field name, e.g. "base_offset". */
  readonly name: string;
  /** Where the field is, e.g. "batch 0 · frame 2". */
  readonly where: string;
  /** The spec's description of the field. */
  readonly description: string;
  readonly rows: readonly InfoRow[];
  /** Diagnostics covering this byte. */
  readonly problems: readonly Diagnostic[];
}

/** Bytes shown in hex and text previews. */
const PREVIEW_BYTES = 24;
/** User-header blocks up to this size are decoded as TLV for the tooltip; larger ones are previewed raw. */
const MAX_TLV_DECODE = 64 * 1024;
/** User headers listed before "+N more". */
const MAX_HEADERS_SHOWN = 4;

/** An offset as hex (8 digits at least) and decimal, e.g. "0x00000028 (40)". */
export function formatOffset(offset: number): string {
  return `0x${offset.toString(16).padStart(8, "0")} (${offset})`;
}

/** "1 byte" / "n bytes". */
export function plural(n: number | bigint, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 || n === 1n ? one : many}`;
}

/** The first bytes of a block as spaced hex, with an ellipsis when there is more. */
export function hexPreview(bytes: Uint8Array, max = PREVIEW_BYTES): string {
  if (bytes.length === 0) return "(empty)";
  return bytesToHex(bytes.subarray(0, max), " ") + (bytes.length > max ? " …" : "");
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

/**
 * The first bytes of a block as quoted text when they look like text (mostly printable ASCII or
 * UTF-8), else null. Control characters show as "·"; the result is only ever rendered as text.
 */
export function textPreview(bytes: Uint8Array, max = 48): string | null {
  const head = bytes.subarray(0, max);
  if (head.length === 0) return null;
  let texty = 0;
  for (const b of head) if ((b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d || b >= 0x80) texty++;
  if (texty < head.length * 0.85) return null;
  // eslint-disable-next-line no-control-regex
  const text = utf8.decode(head).replace(/[\u0000-\u001f\u007f]/g, "·");
  return `"${text}"${bytes.length > max ? "…" : ""}`;
}

/** A microsecond timestamp as an ISO date, or a note when it is zero or out of range. */
export function timeText(micros: bigint): string {
  if (micros === 0n) return "0 (not set)";
  return microsToIso(micros) ?? "out of range for a date";
}

/** A checksum verdict row: the computed value and ✓/✗ against the stored one. */
export function checksumRow(stored: bigint, computed: bigint | null, why: string): InfoRow {
  if (computed === null) return { label: "Computed", value: `not computed (${why})` };
  return computed === stored
    ? { label: "Computed", value: `${hex64(computed)} ✓ matches`, tone: "ok" }
    : { label: "Computed", value: `${hex64(computed)} ✗ differs`, tone: "bad" };
}

function uuidOfHex(h: string): string {
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function whereText(analysis: Analysis, hit: FieldHit): string {
  if (hit.batch < 0) return "outside any batch";
  if (hit.frameStart < 0) return hit.kind === "unattributed" ? `batch ${hit.batch}, outside any frame` : `batch ${hit.batch} header`;
  const total = (analysis.batches[hit.batch] as BatchModel).frameCount;
  return `batch ${hit.batch} · frame ${hit.frameInBatch}${hit.truncated ? " (truncated)" : ` of ${total}`}`;
}

function valueRows(analysis: Analysis, bytes: Uint8Array, hit: FieldHit): InfoRow[] {
  const field = bytes.subarray(hit.start, hit.end);
  const spec = hit.spec;
  if (spec && field.length < spec.size) {
    return [{ label: "Value", value: `incomplete: ${field.length} of ${plural(spec.size, "byte")} in the input` }];
  }
  const view = new DataView(field.buffer, field.byteOffset, field.byteLength);
  const u64 = (): bigint => view.getBigUint64(0, true);
  const u32 = (): number => view.getUint32(0, true);
  const batch = hit.batch >= 0 ? (analysis.batches[hit.batch] as BatchModel) : null;
  switch (hit.kind) {
    case "batch.partition_id":
    case "batch.base_offset":
      return [{ label: "Value", value: u64().toString() }];
    case "batch.base_timestamp":
    case "batch.origin_timestamp": {
      const v = u64();
      return [{ label: "Value", value: `${v} µs` }, { label: "Time", value: timeText(v) }];
    }
    case "batch.batch_length":
      return [{ label: "Value", value: plural(u64(), "byte") }];
    case "batch.batch_checksum": {
      const v = u64();
      return [{ label: "Stored", value: hex64(v) }, checksumRow(v, batch?.computedChecksum ?? null, "header incomplete or batch_length < 256")];
    }
    case "batch.message_count": {
      const v = u32();
      const walked = batch?.frameCount ?? 0;
      return [{ label: "Value", value: String(v) }, { label: "Frames walked", value: `${walked} ${walked === v ? "✓" : "✗"}`, tone: walked === v ? "ok" : "bad" }];
    }
    case "batch.reserved":
    case "frame.reserved": {
      let nonzero = 0;
      for (const b of field) if (b !== 0) nonzero++;
      return nonzero === 0
        ? [{ label: "Value", value: "all zero ✓", tone: "ok" }]
        : [{ label: "Value", value: `${plural(nonzero, "nonzero byte")} ✗`, tone: "bad" }, { label: "Hex", value: hexPreview(field) }];
    }
    case "frame.checksum": {
      const v = u64();
      const computed = hit.frame >= 0 ? (analysis.frames.computedChecksum[hit.frame] as bigint) : null;
      return [{ label: "Stored", value: hex64(v) }, checksumRow(v, computed, "frame truncated")];
    }
    case "frame.id": {
      const id = decodeMessageId(field);
      const version = !id.rfcVariant
        ? "not an RFC 4122/9562 UUID"
        : id.unixMillis !== null
          ? `v${id.version}, ${new Date(id.unixMillis).toISOString()}`
          : `v${id.version}`;
      return [
        { label: "u128", value: hex128(id.value) },
        { label: "UUID (wire order)", value: `${id.uuid} · ${version}` },
        { label: "UUID (u128 value)", value: uuidOfHex(hex128(id.value)) },
      ];
    }
    case "frame.offset_delta": {
      const v = u32();
      const rows: InfoRow[] = [{ label: "Value", value: String(v) }];
      if (batch?.header) rows.push({ label: "Message offset", value: (batch.header.baseOffset + BigInt(v)).toString() });
      return rows;
    }
    case "frame.timestamp_delta": {
      const v = u32();
      const rows: InfoRow[] = [{ label: "Value", value: `${v} µs` }];
      if (batch?.header) {
        const t = batch.header.originTimestamp + BigInt(v);
        rows.push({ label: "Producer time", value: `${t} µs · ${timeText(t)}` });
      }
      return rows;
    }
    case "frame.user_headers_length":
    case "frame.payload_length":
      return [{ label: "Value", value: plural(u32(), "byte") }];
    case "frame.payload": {
      const rows: InfoRow[] = [{ label: "Length", value: plural(field.length, "byte") }];
      const text = textPreview(field);
      if (text !== null) rows.push({ label: "Text", value: text });
      rows.push({ label: "Hex", value: hexPreview(field) });
      return rows;
    }
    case "frame.user_headers":
      return userHeaderRows(field);
    case "unattributed":
      return [{ label: "Run", value: plural(field.length, "byte") }, { label: "Hex", value: hexPreview(field) }];
    default:
      // Container fields (src/format/containers): the value their type gives.
      return [{ label: "Value", value: spec && spec.type !== "bytes" ? fieldValueText(spec.type, field) : hexPreview(field) }];
  }
}

function userHeaderRows(block: Uint8Array): InfoRow[] {
  const rows: InfoRow[] = [{ label: "Length", value: plural(block.length, "byte") }];
  if (block.length === 0) return rows;
  const decoded = block.length <= MAX_TLV_DECODE ? decodeUserHeaders(block) : null;
  if (decoded?.ok) {
    rows.push({ label: "TLV", value: plural(decoded.headers.length, "header") });
    decoded.headers.slice(0, MAX_HEADERS_SHOWN).forEach((h, i) => {
      rows.push({ label: `Header ${i + 1}`, value: `${h.key.text} = ${h.value.text} (${h.value.kindName})` });
    });
    if (decoded.headers.length > MAX_HEADERS_SHOWN) rows.push({ label: "…", value: `${decoded.headers.length - MAX_HEADERS_SHOWN} more` });
    return rows;
  }
  rows.push({ label: "TLV", value: decoded ? `not TLV: ${decoded.reason}` : "not decoded (block too large)" });
  const text = textPreview(block);
  if (text !== null) rows.push({ label: "Text", value: text });
  rows.push({ label: "Hex", value: hexPreview(block) });
  return rows;
}

/** Describes byte `offset` of an analysed input for the tooltip. */
export function describeByte(analysis: Analysis, bytes: Uint8Array, offset: number, diagnostics: RangeIndex<Diagnostic>): ByteInfo {
  const hit = fieldAt(analysis, bytes, offset);
  const kind = describeKind(hit.kind);
  const rows: InfoRow[] = [
    { label: "Offset", value: formatOffset(offset) },
    { label: "Byte", value: `0x${(bytes[offset] ?? 0).toString(16).padStart(2, "0")} ${JSON.stringify(asciiOf(bytes[offset] ?? 0))}` },
  ];
  if (hit.batch >= 0) rows.push({ label: "In batch", value: `+${offset - hit.batchStart}` });
  if (hit.frameStart >= 0) rows.push({ label: "In frame", value: `+${offset - hit.frameStart}` });
  const size = hit.end - hit.start;
  rows.push({
    label: "Field",
    value: `${hit.start}..${hit.end} · ${hit.spec ? `${hit.spec.type}, ${plural(hit.spec.size, "byte")}` : `bytes, ${plural(size, "byte")}`}`,
  });
  rows.push(...valueRows(analysis, bytes, hit));
  return { hit, name: kind.name, where: whereText(analysis, hit), description: kind.description, rows, problems: diagnostics.overlapping(offset, offset + 1) };
}
