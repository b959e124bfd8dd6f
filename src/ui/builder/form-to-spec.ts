/**
 * The builder form → the JSON build spec that build-spec.ts (and `iggy-batch build SPEC.json`)
 * accepts, with every problem found on the way tied to the field it is about.
 * Pure: no DOM, no time, no randomness (auto ids stay "auto" in the spec).
 */
import type { BatchJsonSpec, HeaderJson, MessageJson, PayloadJson } from "../../core/edit/build-spec.ts";
import { parseHexText, type BuilderForm, type HeaderKindName, type HeaderRow, type MessageForm } from "./form-state.ts";

/** One problem in the form: the field it is about (see fieldKey), where a person finds it, and what is wrong. */
export interface FormIssue {
  /** Stable key of the field (batch.*, m<uid>.*, m<uid>.h<uid>.*); see fieldKey. */
  readonly field: string;
  /** Where it is, for a summary list: "Message 2 payload". */
  readonly where: string;
  readonly message: string;
}

/** What the form makes: the spec when it has no errors, else null; errors block building, warnings do not. */
export interface FormResult {
  readonly spec: BatchJsonSpec | null;
  readonly errors: readonly FormIssue[];
  readonly warnings: readonly FormIssue[];
}

/** Field keys shared by the converter and the dialog (which looks its inline errors up by them). */
export const fieldKey = {
  batch: (name: "partitionId" | "baseOffset" | "baseTimestamp" | "originTimestamp" | "messages") => `batch.${name}`,
  message: (uid: number, name: "payload" | "id" | "timestampDelta") => `m${uid}.${name}`,
  header: (uid: number, headerUid: number, name: "key" | "value") => `m${uid}.h${headerUid}.${name}`,
} as const;

/** A parse result: a value, or what is wrong with the text. */
export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(message: string): Parsed<T> => ({ ok: false, message });

const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;
const utf8 = new TextEncoder();

/** An unsigned integer written in decimal or 0x hex, or null. */
function unsignedText(text: string): bigint | null {
  const t = text.trim();
  return /^\d+$/.test(t) || /^0x[0-9a-f]+$/i.test(t) ? BigInt(t) : null;
}

/** A u64 as decimal or 0x hex text; the spec gets it as a decimal string. */
export function parseU64Text(text: string): Parsed<string> {
  if (text.trim() === "") return fail("enter a number");
  const n = unsignedText(text);
  if (n === null) return fail("not an unsigned integer (decimal, or hex with 0x)");
  if (n > U64_MAX) return fail("larger than a u64 (max 18446744073709551615)");
  return ok(n.toString());
}

/** A timestamp delta in µs: a u32; empty means 0. */
export function parseTimestampDelta(text: string): Parsed<number> {
  if (text.trim() === "") return ok(0);
  const n = unsignedText(text);
  if (n === null) return fail("not an unsigned integer of microseconds");
  if (n > 0xffff_ffffn) return fail("larger than a u32 (max 4294967295 µs, about 71.6 minutes)");
  return ok(Number(n));
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A given message id: a UUID (wire bytes as written), a 0x-prefixed u128 or a decimal u128. */
export function parseIdText(text: string): Parsed<string> {
  const t = text.trim();
  if (t === "") return fail("enter a UUID or a u128, or choose auto UUIDv7");
  if (UUID_RE.test(t)) return ok(t.toLowerCase());
  const n = unsignedText(t);
  if (n === null) {
    if (/^[0-9a-f]+$/i.test(t)) return fail("hex digits need a 0x prefix (a u128 without one is read as decimal)");
    return fail("not a UUID (8-4-4-4-12 hex digits) or a u128 (decimal, or hex with 0x)");
  }
  if (n > U128_MAX) return fail("larger than a u128");
  return ok(t.toLowerCase().startsWith("0x") ? `0x${n.toString(16)}` : n.toString());
}

/** A payload as typed in its mode; the spec gets text, {json} or {hex}. */
export function parsePayload(m: Pick<MessageForm, "payloadMode" | "payload">): Parsed<PayloadJson> {
  switch (m.payloadMode) {
    case "text":
      return ok(m.payload);
    case "json":
      try {
        return ok({ json: JSON.parse(m.payload) as unknown });
      } catch (err) {
        return fail(`not valid JSON: ${(err as Error).message}`);
      }
    case "hex": {
      const bytes = parseHexText(m.payload);
      if (!bytes) return fail("hex must be an even number of hex digits (spaces, colons and a 0x prefix are ignored)");
      return ok({ hex: m.payload.trim().replace(/^0x/i, "").replace(/[\s:]/g, "").toLowerCase() });
    }
  }
}

const INT_RANGE: Partial<Record<HeaderKindName, readonly [bigint, bigint]>> = {
  i8: [-(1n << 7n), (1n << 7n) - 1n],
  i16: [-(1n << 15n), (1n << 15n) - 1n],
  i32: [-(1n << 31n), (1n << 31n) - 1n],
  i64: [-(1n << 63n), (1n << 63n) - 1n],
  i128: [-(1n << 127n), (1n << 127n) - 1n],
  u8: [0n, (1n << 8n) - 1n],
  u16: [0n, (1n << 16n) - 1n],
  u32: [0n, (1n << 32n) - 1n],
  u64: [0n, U64_MAX],
  u128: [0n, U128_MAX],
};

/** Kinds whose values build-spec.ts reads with BigInt (so the spec carries them as strings). */
const BIG_KINDS: readonly HeaderKindName[] = ["i64", "u64", "i128", "u128"];

/** A TLV value of a kind, as the spec's HeaderJson.value: checks the range and the 1..255 byte length. */
export function parseHeaderValue(kind: HeaderKindName, text: string): Parsed<string | number | boolean> {
  const t = text.trim();
  switch (kind) {
    case "raw": {
      const bytes = parseHexText(t);
      if (!bytes) return fail("raw values are hex: an even number of hex digits");
      if (bytes.length < 1 || bytes.length > 255) return fail(`raw values are 1..255 bytes, this is ${bytes.length}`);
      return ok(t.replace(/^0x/i, "").replace(/[\s:]/g, "").toLowerCase());
    }
    case "string": {
      const n = utf8.encode(text).length;
      if (n < 1 || n > 255) return fail(`string values are 1..255 UTF-8 bytes, this is ${n}`);
      return ok(text);
    }
    case "bool":
      if (/^(true|1)$/i.test(t)) return ok(true);
      if (/^(false|0)$/i.test(t)) return ok(false);
      return fail("a bool is true or false");
    case "f32":
    case "f64": {
      if (t === "") return fail("enter a number");
      const v = Number(t);
      if (Number.isNaN(v) && t !== "NaN") return fail("not a number (Infinity, -Infinity and NaN are allowed)");
      return ok(Number.isFinite(v) ? v : t);
    }
    default: {
      const range = INT_RANGE[kind] as readonly [bigint, bigint];
      if (t === "") return fail("enter an integer");
      const neg = t.startsWith("-");
      const magnitude = unsignedText(neg ? t.slice(1) : t);
      if (magnitude === null) return fail("not an integer (decimal, or hex with 0x)");
      const v = neg ? -magnitude : magnitude;
      if (v < range[0] || v > range[1]) return fail(`out of range for ${kind} (${range[0]}..${range[1]})`);
      return ok(BIG_KINDS.includes(kind) ? v.toString() : Number(v));
    }
  }
}

/** A user header key (a string TLV entry): 1..255 UTF-8 bytes. */
export function parseHeaderKey(text: string): Parsed<string> {
  const n = utf8.encode(text).length;
  if (n < 1) return fail("a key cannot be empty");
  if (n > 255) return fail(`a key is at most 255 UTF-8 bytes, this is ${n}`);
  return ok(text);
}

/** Turns the builder form into a build spec (one batch at the top level), collecting every problem. */
export function formToSpec(form: BuilderForm): FormResult {
  const errors: FormIssue[] = [];
  const warnings: FormIssue[] = [];
  const take = <T>(p: Parsed<T>, field: string, where: string): T | undefined => {
    if (p.ok) return p.value;
    errors.push({ field, where, message: p.message });
    return undefined;
  };

  // Built field by field in the order the spec text should read: batch fields, then messages.
  const spec: { -readonly [K in keyof BatchJsonSpec]: BatchJsonSpec[K] } = {} as BatchJsonSpec;
  if (form.batchKind === "stamped") {
    spec.partitionId = take(parseU64Text(form.partitionId), fieldKey.batch("partitionId"), "partition_id");
    spec.baseOffset = take(parseU64Text(form.baseOffset), fieldKey.batch("baseOffset"), "base_offset");
    const baseTimestamp = take(parseU64Text(form.baseTimestamp), fieldKey.batch("baseTimestamp"), "base_timestamp");
    if (baseTimestamp === "0") {
      errors.push({
        field: fieldKey.batch("baseTimestamp"),
        where: "base_timestamp",
        message: "a stamped batch has a nonzero base_timestamp (0 means a producer batch)",
      });
    }
    spec.baseTimestamp = baseTimestamp;
  }
  spec.originTimestamp = take(parseU64Text(form.originTimestamp), fieldKey.batch("originTimestamp"), "origin_timestamp");

  const messages: MessageJson[] = form.messages.map((m, i) => {
    const where = `Message ${i + 1}`;
    const out: { -readonly [K in keyof MessageJson]: MessageJson[K] } = {
      id: m.idMode === "auto" ? "auto" : take(parseIdText(m.id), fieldKey.message(m.uid, "id"), `${where} id`),
      payload: take(parsePayload(m), fieldKey.message(m.uid, "payload"), `${where} payload`) ?? "",
    };
    const delta = take(parseTimestampDelta(m.timestampDelta), fieldKey.message(m.uid, "timestampDelta"), `${where} timestamp delta`);
    if (delta !== undefined && delta !== 0) out.timestampDelta = delta;
    if (m.headers.length > 0) out.userHeaders = m.headers.map((h, j) => headerJson(m, h, `${where} header ${j + 1}`, take));
    return out;
  });
  spec.messages = messages;

  if (form.messages.length === 0) {
    warnings.push({
      field: fieldKey.batch("messages"),
      where: "Messages",
      message: "an empty batch: a valid layout, but the server refuses to admit a batch with no messages (empty-batch)",
    });
  } else if (
    !form.messages.some((m) => {
      const d = parseTimestampDelta(m.timestampDelta);
      return !d.ok || d.value === 0;
    })
  ) {
    warnings.push({
      field: fieldKey.batch("originTimestamp"),
      where: "origin_timestamp",
      message: "no message has timestamp delta 0, so origin_timestamp is not the earliest message time (origin-not-earliest)",
    });
  }

  return { spec: errors.length === 0 ? spec : null, errors, warnings };
}

type Take = <T>(p: Parsed<T>, field: string, where: string) => T | undefined;

function headerJson(m: MessageForm, h: HeaderRow, where: string, take: Take): HeaderJson {
  const key = take(parseHeaderKey(h.key), fieldKey.header(m.uid, h.uid, "key"), `${where} key`) ?? "";
  const value = take(parseHeaderValue(h.kind, h.value), fieldKey.header(m.uid, h.uid, "value"), `${where} value`) ?? "";
  return { key, kind: h.kind, value };
}

/** The byte length a payload will have once built, or null while it does not parse. */
export function payloadByteLength(m: Pick<MessageForm, "payloadMode" | "payload">): number | null {
  const p = parsePayload(m);
  if (!p.ok) return null;
  if (typeof p.value === "string") return utf8.encode(p.value).length;
  if ("json" in p.value) return utf8.encode(JSON.stringify(p.value.json)).length;
  if ("hex" in p.value) return p.value.hex.length / 2;
  return null;
}

/** The spec as the text shown in the dialog and saved for `iggy-batch build`. */
export function specText(spec: BatchJsonSpec): string {
  return JSON.stringify(spec, null, 2);
}
