/**
 * Go to and search, without a DOM: what a query typed in the page means (an offset, a batch, a
 * message offset, an id, hex bytes or text), and the searches themselves over the bytes and the
 * model. The byte search runs in chunks and yields between them, so a worker can take a cancel
 * message while it runs and a page can keep painting.
 */
import { FRAME_HEADER_FIELDS, fieldByName } from "../../format/fields.ts";
import type { Analysis } from "../model/model.ts";
import { frameOffsetDelta } from "../model/frame-columns.ts";
import { bytesToHex, hexOffset } from "../../format/values.ts";

/** What a query asks for. */
export type SearchQuery =
  | { readonly kind: "empty" }
  | { readonly kind: "offset"; readonly offset: number }
  | { readonly kind: "batch"; readonly index: number }
  | { readonly kind: "message-offset"; readonly value: bigint }
  /** A message id: its 16 bytes in each order the query can mean (wire order first). */
  | { readonly kind: "id"; readonly orders: readonly Uint8Array[] }
  | { readonly kind: "bytes"; readonly pattern: Uint8Array; readonly as: "hex" | "text" };

/** One hit: a half-open byte range of the input. */
export interface SearchHit {
  readonly start: number;
  readonly end: number;
}

const ID_FIELD = fieldByName(FRAME_HEADER_FIELDS, "id");
const OFFSET_DELTA_MAX = 0xffff_ffffn;
const encoder = new TextEncoder();

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * Reads a query. `0x3b5` and `949` are byte offsets, `batch 3` a batch, `@1234` a message offset,
 * a UUID or `id:` and 32 hex digits an id, spaced hex pairs (`de ad be ef`), `hex:deadbeef` or
 * 8+ hex digits with a digit among them hex bytes; anything else (or text in quotes) is text.
 */
export function parseQuery(raw: string): SearchQuery {
  const text = raw.trim();
  if (text === "") return { kind: "empty" };
  const quoted = /^"(.+)"$/s.exec(text);
  if (quoted) return { kind: "bytes", pattern: encoder.encode(quoted[1]), as: "text" };
  if (/^\d+$/.test(text)) return { kind: "offset", offset: Number(text) };
  if (/^0x[0-9a-f]{1,13}$/i.test(text)) return { kind: "offset", offset: parseInt(text.slice(2), 16) };
  const batch = /^batch\s*#?\s*(\d+)$/i.exec(text);
  if (batch) return { kind: "batch", index: Number(batch[1]) };
  const message = /^@\s*(\d+)$/.exec(text);
  if (message) return { kind: "message-offset", value: BigInt(message[1] as string) };
  const uuid = /^(?:id:?\s*)?([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i.exec(text);
  const u128 = /^(?:id:?\s*)?(?:0x)?([0-9a-f]{32})$/i.exec(text) ?? /^id:?\s*(?:0x)?([0-9a-f]{1,32})$/i.exec(text);
  if (uuid || u128) {
    const digits = uuid ? uuid.slice(1).join("") : (u128![1] as string).padStart(32, "0");
    const wire = hexToBytes(digits.toLowerCase());
    // A UUID is written in wire order; a u128 in value order, which is stored little-endian.
    const reversed = wire.slice().reverse();
    return { kind: "id", orders: uuid ? [wire, reversed] : [reversed, wire] };
  }
  const hexBody = /^hex:\s*(.+)$/i.exec(text)?.[1] ?? text;
  const compact = hexBody.replace(/^0x/i, "").replace(/[\s,:]|0x/gi, "");
  const spacedPairs = /^[0-9a-f]{2}(?:[\s,:]+(?:0x)?[0-9a-f]{2})+$/i.test(hexBody.replace(/^0x/i, ""));
  const longHex = /^(?:0x)?[0-9a-f]+$/i.test(hexBody) && compact.length >= 8 && /\d/.test(compact);
  if ((hexBody !== text || spacedPairs || longHex) && compact.length % 2 === 0 && /^[0-9a-f]+$/i.test(compact) && compact.length > 0) {
    return { kind: "bytes", pattern: hexToBytes(compact), as: "hex" };
  }
  return { kind: "bytes", pattern: encoder.encode(text), as: "text" };
}

/** One sentence saying how a query was read, for the page to show beside the box. */
export function describeQuery(q: SearchQuery): string {
  switch (q.kind) {
    case "empty":
      return "Type an offset, batch N, @message-offset, an id, hex bytes or text.";
    case "offset":
      return `byte offset ${q.offset} (${hexOffset(q.offset, 0)})`;
    case "batch":
      return `batch ${q.index}`;
    case "message-offset":
      return `message offset ${q.value}`;
    case "id":
      return `message id ${bytesToHex(q.orders[0] as Uint8Array)} (either byte order)`;
    case "bytes":
      return q.as === "hex" ? `hex bytes (${q.pattern.length} B)` : `text "${new TextDecoder().decode(q.pattern)}" (${q.pattern.length} B as UTF-8)`;
  }
}

/**
 * Appends to `out` the start of every match of `pattern` that starts in [from, to) (a match may run
 * past `to`), stopping once `out` holds `limit` starts. The first byte is found with the native
 * indexOf, the rest compared by hand.
 */
export function findPattern(bytes: Uint8Array, pattern: Uint8Array, from: number, to: number, out: number[], limit: number): void {
  const n = pattern.length;
  if (n === 0) return;
  const first = pattern[0] as number;
  const lastStart = Math.min(to, bytes.length - n + 1);
  let at = from;
  while (at < lastStart && out.length < limit) {
    const i = bytes.indexOf(first, at);
    if (i < 0 || i >= lastStart) return;
    let k = 1;
    while (k < n && bytes[i + k] === pattern[k]) k++;
    if (k === n) out.push(i);
    at = i + 1;
  }
}

/** How a long search reports, yields and learns it was cancelled. */
export interface ChunkedSearchOptions {
  /** Most hits kept; the search stops there. */
  readonly limit: number;
  /** Bytes searched between two yields. */
  readonly chunk?: number;
  readonly onProgress?: (done: number, total: number, hits: number) => void;
  /** Lets other work run (e.g. a cancel message); resolves when the search may go on. */
  readonly pause?: () => Promise<void>;
  /** Checked after each pause; true stops the search with what it has. */
  readonly cancelled?: () => boolean;
}

/** Every match of pattern in bytes, in chunks; `capped` is true when the limit stopped it. Null when cancelled. */
export async function searchBytes(
  bytes: Uint8Array,
  pattern: Uint8Array,
  options: ChunkedSearchOptions,
): Promise<{ starts: number[]; capped: boolean } | null> {
  const chunk = options.chunk ?? 8 << 20;
  const starts: number[] = [];
  for (let from = 0; from < bytes.length; from += chunk) {
    findPattern(bytes, pattern, from, Math.min(bytes.length, from + chunk), starts, options.limit);
    options.onProgress?.(Math.min(bytes.length, from + chunk), bytes.length, starts.length);
    if (starts.length >= options.limit) return { starts, capped: true };
    if (options.pause && from + chunk < bytes.length) {
      await options.pause();
      if (options.cancelled?.()) return null;
    }
  }
  return { starts, capped: false };
}

/** Reads bytes [start, end) of the input being searched, clamped to the input: one window of it. */
export type WindowReader = (start: number, end: number) => Promise<Uint8Array>;

/**
 * Every match of pattern in an input of `size` bytes that is read window by window, never whole:
 * each window reads pattern.length − 1 bytes past its end, so a match across two windows is found
 * once (in the first), and the next `ahead` windows are read while this one is searched. `chunk`
 * is the window. Null when cancelled (checked after each window arrives).
 */
export async function searchWindows(
  size: number,
  read: WindowReader,
  pattern: Uint8Array,
  options: ChunkedSearchOptions,
  ahead = 1,
): Promise<{ starts: number[]; capped: boolean } | null> {
  const window = options.chunk ?? 8 << 20;
  const overlap = Math.max(0, pattern.length - 1);
  const starts: number[] = [];
  const local: number[] = [];
  const readAt = (from: number) => read(from, Math.min(size, from + window + overlap));
  // Windows being read while one is searched: reading is the slow part, and reads overlap well.
  const pending: Promise<Uint8Array>[] = [];
  let nextRead = 0;
  const fill = () => {
    for (; pending.length < Math.max(1, ahead) && nextRead < size; nextRead += window) pending.push(readAt(nextRead));
  };
  // A read still in flight when the search stops must not surface as an unhandled rejection.
  const drop = () => pending.forEach((p) => void p.catch(() => undefined));
  fill();
  for (let from = 0; from < size; from += window) {
    let bytes: Uint8Array;
    try {
      bytes = await (pending.shift() as Promise<Uint8Array>);
    } catch (err) {
      drop();
      throw err;
    }
    fill();
    if (options.cancelled?.()) return (drop(), null);
    local.length = 0;
    findPattern(bytes, pattern, 0, Math.min(window, bytes.length), local, options.limit - starts.length);
    for (const at of local) starts.push(from + at);
    options.onProgress?.(Math.min(size, from + window), size, starts.length);
    if (starts.length >= options.limit) return (drop(), { starts, capped: true });
  }
  return { starts, capped: false };
}

/** The id fields (16 bytes each) of every complete frame whose id reads as any of `orders`. */
export function findIds(analysis: Analysis, bytes: Uint8Array, orders: readonly Uint8Array[], limit: number): SearchHit[] {
  const hits: SearchHit[] = [];
  const f = analysis.frames;
  for (let i = 0; i < f.count && hits.length < limit; i++) {
    const at = (f.start[i] as number) + ID_FIELD.offset;
    if (orders.some((id) => matchesAt(bytes, at, id))) hits.push({ start: at, end: at + ID_FIELD.size });
  }
  return hits;
}

function matchesAt(bytes: Uint8Array, at: number, pattern: Uint8Array): boolean {
  for (let k = 0; k < pattern.length; k++) if (bytes[at + k] !== pattern[k]) return false;
  return true;
}

/** Frame indexes (in the frame columns) whose message offset, base_offset + offset_delta, is `value`. */
export function findMessageOffset(analysis: Analysis, value: bigint, limit: number): number[] {
  const found: number[] = [];
  const f = analysis.frames;
  for (const b of analysis.batches) {
    if (!b.header || value < b.header.baseOffset || value - b.header.baseOffset > OFFSET_DELTA_MAX) continue;
    const delta = Number(value - b.header.baseOffset);
    // Producers write the frame's index as its delta, so look there first; any frame may still carry it.
    const guess = b.firstFrame + delta;
    if (delta < b.frameCount && frameOffsetDelta(f, guess) === delta) {
      found.push(guess);
    } else {
      for (let i = b.firstFrame; i < b.firstFrame + b.frameCount; i++) if (frameOffsetDelta(f, i) === delta) found.push(i);
    }
    if (found.length >= limit) break;
  }
  return found.slice(0, limit);
}
