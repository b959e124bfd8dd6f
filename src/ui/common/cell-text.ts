/** Text of table cells: verdicts, offsets, times, ids and payload previews (pure, no DOM). */
import { visibleText } from "../../lib/text-escape.ts";
import type { BatchTable } from "../../core/model/batch-table.ts";
import type { BatchModel } from "../../core/model/model.ts";
import { FRAME_FLAGS_OF_SEVERITY, frameFlagSeverity } from "../../format/diagnostics.ts";
import {
  decodeMessageId,
  formatCount,
  hex128,
  hex64,
  hexOffset,
  microsToIso,
  plural as pluralOf,
  timeText as timeOf,
  type MessageId,
} from "../../format/values.ts";

export { formatCount, hexOffset };

/** How a verdict reads at a glance; the CSS colours rows and badges by it. */
export type Tone = "ok" | "error" | "warning" | "info";

/** "1 error", "2,345 errors": digits grouped, as everywhere in the tables. */
export function plural(n: number, word: string): string {
  return pluralOf(n, word, undefined, (k) => formatCount(Number(k)));
}

/** A batch's verdict: "ok", or its error/warning/info counts; a batch without a whole header reads "incomplete header". */
export function batchVerdict(batch: Pick<BatchModel, "header" | "errors" | "warnings" | "infos">): { text: string; tone: Tone } {
  if (!batch.header) return { text: "incomplete header", tone: "error" };
  const parts: string[] = [];
  if (batch.errors > 0) parts.push(plural(batch.errors, "error"));
  if (batch.warnings > 0) parts.push(plural(batch.warnings, "warning"));
  if (batch.infos > 0) parts.push(plural(batch.infos, "info"));
  if (parts.length === 0) return { text: "ok", tone: "ok" };
  const tone: Tone = batch.errors > 0 ? "error" : batch.warnings > 0 ? "warning" : "info";
  return { text: parts.join(", "), tone };
}

/** A batch with an error or a warning (info alone is context, not a problem). */
export function isProblemBatch(batch: { readonly header: unknown } & Pick<BatchModel, "errors" | "warnings">): boolean {
  return !batch.header || batch.errors > 0 || batch.warnings > 0;
}

/** isProblemBatch of batch i, read from the table's columns (a filter reads every batch). */
export function isProblemBatchAt(batches: BatchTable, i: number): boolean {
  return isProblemBatch({ header: batches.hasHeader(i) || null, errors: batches.errors(i), warnings: batches.warnings(i) });
}

/** Frame flags of errors and warnings (info, e.g. user-headers-malformed, is context, not a problem). */
export const PROBLEM_FRAME_FLAGS = FRAME_FLAGS_OF_SEVERITY.error | FRAME_FLAGS_OF_SEVERITY.warning;

/** The tone of a frame row from its FrameFlag bits: the worst severity among its findings. */
export function frameTone(flags: number): Tone {
  return frameFlagSeverity(flags) ?? "ok";
}

/** The frame checksum verdict: "✓", or "✗ stored≠computed", with both values for a tooltip. */
export function checksumVerdict(stored: bigint, computed: bigint | null): { ok: boolean | null; text: string; title: string } {
  if (computed === null) return { ok: null, text: "—", title: `stored ${hex64(stored)}, not computed` };
  const title = `stored ${hex64(stored)} / computed ${hex64(computed)}`;
  return stored === computed ? { ok: true, text: "✓", title } : { ok: false, text: "✗ stored≠computed", title };
}

/** A microsecond timestamp as ISO 8601 with µs, or the raw number when no date can hold it. */
export function timeText(micros: bigint): string {
  return timeOf(micros, { outOfRange: (m) => `${m} µs` });
}

/** A microsecond timestamp as "ISO (raw)", e.g. "2025-11-29T12:40:00.000000Z (1764420000000000)". */
export function timeWithRaw(micros: bigint): string {
  const iso = microsToIso(micros);
  return iso ? `${iso} (${micros})` : `${micros} µs (out of the date range)`;
}

/** The same 16 id bytes read the other way round: the u128 value's big-endian bytes, as the Node SDK writes a UUID. */
export function valueOrderId(id: MessageId): MessageId {
  const hex = hex128(id.value);
  const be = new Uint8Array(16);
  for (let i = 0; i < 16; i++) be[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return decodeMessageId(be);
}

/** An RFC 9562 UUID version in use today (1..8). */
function isUuid(id: MessageId): boolean {
  return id.rfcVariant && id.version >= 1 && id.version <= 8;
}

/** The id cell: the UUID in wire order, a version tag, and the u128 for a tooltip. */
export function idCell(id: MessageId): { uuid: string; tag: string; title: string } {
  const u128 = `u128 ${hex128(id.value)}`;
  if (isUuid(id)) return { uuid: id.uuid, tag: `v${id.version}`, title: `${u128}\nUUID v${id.version} in wire order` };
  const reversed = valueOrderId(id);
  if (isUuid(reversed)) {
    return {
      uuid: id.uuid,
      tag: `LE v${reversed.version}`,
      title: `${u128}\nthe u128 value read as a UUID is v${reversed.version}: ${reversed.uuid} (Node SDK byte order)`,
    };
  }
  return { uuid: id.uuid, tag: "—", title: `${u128}\nnot an RFC 9562 UUID in either byte order` };
}

const previewDecoder = new TextDecoder("utf-8", { fatal: false });

/**
 * The first `maxChars` characters of a payload as one line of text: UTF-8 decoded, undecodable bytes shown as
 * "·", controls, line breaks and bidi characters as their visible escapes (lib/text-escape.ts), and "…" when cut.
 */
export function previewText(payload: Uint8Array, maxChars = 40): string {
  // Four bytes per character at most, plus one for a character cut at the edge.
  const head = payload.subarray(0, maxChars * 4 + 4);
  const chars = Array.from(previewDecoder.decode(head));
  let out = "";
  const n = Math.min(maxChars, chars.length);
  for (let i = 0; i < n; i++) {
    const ch = chars[i] as string;
    out += ch === "\ufffd" ? "·" : ch;
  }
  out = visibleText(out);
  const cut = chars.length > maxChars || head.length < payload.length;
  return cut ? `${out}…` : out;
}
