/** The JSON description of batches that `iggy-batch build` and the page's builder turn into bytes. */
import type { Xxh3 } from "../../checksum/xxh3.ts";
import { HEADER_KINDS } from "../../format/user-headers.ts";
import { readUintLE } from "../../format/reader.ts";
import { concat, encodeBatch, type BatchSpec, type HeaderSpec, type MessageSpec, type TlvEntry } from "../walk/encode.ts";

/** A payload: plain text, or {json}, {hex} or {base64}. */
export type PayloadJson = string | { json: unknown } | { hex: string } | { base64: string };

/** One user header: key (a string, or {kind, value}), and the value's kind and value. */
export interface HeaderJson {
  key: string | { kind: string; value: string | number | boolean };
  kind: string;
  value: string | number | boolean;
}

/** One message; id is "auto" (UUIDv7), a UUID string, a 0x-prefixed u128 or a decimal string. */
export interface MessageJson {
  payload: PayloadJson;
  id?: string;
  offsetDelta?: number;
  timestampDelta?: number;
  /** TLV headers, or {hex} for raw bytes. */
  userHeaders?: HeaderJson[] | { hex: string };
}

/** One batch; u64 values as decimal strings or numbers; omit the stamped fields for a producer batch. */
export interface BatchJsonSpec {
  partitionId?: string | number;
  baseOffset?: string | number;
  baseTimestamp?: string | number;
  originTimestamp?: string | number;
  messages: MessageJson[];
}

/** A build description: several batches, or one batch at the top level. */
export type BuildSpecJson = { batches: BatchJsonSpec[] } | BatchJsonSpec;

/** Where randomness and time come from, so tests can fix them. */
export interface BuildEnvironment {
  readonly nowMillis: () => number;
  readonly randomBytes: (n: number) => Uint8Array;
}

/** A problem in a build description, with a path to the offending value. */
export class BuildSpecError extends Error {
  override readonly name = "BuildSpecError";
}

const BATCH_KEYS = ["partitionId", "baseOffset", "baseTimestamp", "originTimestamp", "messages"] as const;
const MESSAGE_KEYS = ["payload", "id", "offsetDelta", "timestampDelta", "userHeaders"] as const;
const PAYLOAD_KEYS = ["json", "hex", "base64"] as const;
const HEADER_KEYS = ["key", "kind", "value"] as const;

/** A misspelled key would otherwise be ignored silently (partitionID makes a producer batch): refuse it by name. */
function onlyKeys(value: unknown, allowed: readonly string[], path: string): void {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new BuildSpecError(`${path}: expected a JSON object`);
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const near = allowed.find((a) => a.toLowerCase() === key.toLowerCase());
    throw new BuildSpecError(`${path}: unknown key ${JSON.stringify(key)}${near ? ` (did you mean "${near}"?)` : `; expected ${allowed.join(", ")}`}`);
  }
}

const hexBytes = (hex: string, path: string): Uint8Array => {
  const digits = hex.replace(/^0x/i, "").replace(/[\s:]/g, "");
  if (digits.length % 2 !== 0 || /[^0-9a-f]/i.test(digits)) throw new BuildSpecError(`${path}: not an even number of hex digits`);
  return Uint8Array.from({ length: digits.length / 2 }, (_, i) => parseInt(digits.slice(2 * i, 2 * i + 2), 16));
};

const u64 = (v: string | number | undefined, path: string): bigint | undefined => {
  if (v === undefined) return undefined;
  try {
    const n = BigInt(v);
    if (n < 0n || n >= 1n << 64n) throw new Error();
    return n;
  } catch {
    throw new BuildSpecError(`${path}: ${JSON.stringify(v)} is not a u64`);
  }
};

/** A new UUIDv7 as its 16 wire bytes (RFC 9562: 48-bit ms time, version 7, variant 10). */
export function newUuidV7Bytes(env: BuildEnvironment): Uint8Array {
  const bytes = env.randomBytes(16).slice(0, 16);
  let ms = env.nowMillis();
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x70 | ((bytes[6] as number) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] as number) & 0x3f);
  return bytes;
}

// The explorer reads an id's wire bytes in order as the UUID, so a UUID's bytes go on the wire as written.
const wireBytesToU128 = (wire: Uint8Array): bigint => readUintLE(wire, 0, 16);

function parseId(id: string | undefined, env: BuildEnvironment, path: string): bigint {
  if (id === undefined || id === "auto") return wireBytesToU128(newUuidV7Bytes(env));
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return wireBytesToU128(hexBytes(id.replace(/-/g, ""), path));
  try {
    const n = BigInt(id);
    if (n < 0n || n >= 1n << 128n) throw new Error();
    return n;
  } catch {
    throw new BuildSpecError(`${path}: id ${JSON.stringify(id)} is not "auto", a UUID, or a u128`);
  }
}

function parsePayload(p: PayloadJson, path: string): Uint8Array | string {
  if (typeof p === "string") return p;
  if (p && typeof p === "object") {
    onlyKeys(p, PAYLOAD_KEYS, path);
    if (Object.keys(p).length !== 1) throw new BuildSpecError(`${path}: a payload object has exactly one of json, hex, base64`);
    if ("json" in p) return JSON.stringify(p.json);
    if ("hex" in p) return hexBytes(p.hex, path + ".hex");
    if ("base64" in p) return Uint8Array.from(atob(p.base64), (c) => c.charCodeAt(0));
  }
  throw new BuildSpecError(`${path}: a payload is a string, {json}, {hex} or {base64}`);
}

function parseEntry(kind: string, value: string | number | boolean, path: string): TlvEntry {
  if (!(HEADER_KINDS as readonly string[]).includes(kind) || kind === "")
    throw new BuildSpecError(`${path}: unknown kind ${JSON.stringify(kind)} (one of ${HEADER_KINDS.slice(1).join(", ")})`);
  if (kind === "raw") return { kind, value: hexBytes(String(value), path) };
  if (kind === "string") return { kind, value: String(value) };
  if (kind === "bool") {
    if (value === true || value === "true" || value === 1) return { kind, value: true };
    if (value === false || value === "false" || value === 0) return { kind, value: false };
    throw new BuildSpecError(`${path}: a bool is true or false, not ${JSON.stringify(value)}`);
  }
  if (kind === "f32" || kind === "f64") {
    const n = Number(value);
    if (typeof value === "boolean" || (typeof value === "string" && value.trim() === "") || (Number.isNaN(n) && String(value) !== "NaN"))
      throw new BuildSpecError(`${path}: ${JSON.stringify(value)} is not a number`);
    return { kind, value: n };
  }
  // Integer kinds: checked against the kind's range so a typo is an error with a path, not a wrapped value.
  const bits = Number(kind.slice(1));
  let n: bigint;
  try {
    if (typeof value === "boolean" || (typeof value === "number" && !Number.isInteger(value))) throw new Error();
    n = BigInt(value);
  } catch {
    throw new BuildSpecError(`${path}: ${JSON.stringify(value)} is not an integer`);
  }
  const min = kind.startsWith("i") ? -(1n << BigInt(bits - 1)) : 0n;
  const max = kind.startsWith("i") ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  if (n < min || n > max) throw new BuildSpecError(`${path}: ${n} does not fit ${kind}`);
  return { kind: kind as TlvEntry["kind"], value: n };
}

function parseHeaders(h: MessageJson["userHeaders"], path: string): MessageSpec["userHeaders"] {
  if (h === undefined) return undefined;
  if (!Array.isArray(h)) {
    onlyKeys(h, ["hex"], path);
    return hexBytes(h.hex, path + ".hex");
  }
  return h.map((entry, i): HeaderSpec => {
    onlyKeys(entry, HEADER_KEYS, `${path}[${i}]`);
    if (typeof entry.key !== "string") onlyKeys(entry.key, ["kind", "value"], `${path}[${i}].key`);
    return {
      key: typeof entry.key === "string" ? { kind: "string", value: entry.key } : parseEntry(entry.key.kind, entry.key.value, `${path}[${i}].key`),
      value: parseEntry(entry.kind, entry.value, `${path}[${i}]`),
    };
  });
}

/** Turns a build description into BatchSpecs; throws BuildSpecError with a path on a bad value. */
export function parseBuildSpec(json: unknown, env: BuildEnvironment): BatchSpec[] {
  if (!json || typeof json !== "object") throw new BuildSpecError("spec: expected a JSON object");
  if ("batches" in json) onlyKeys(json, ["batches"], "spec");
  const batches = "batches" in json ? (json as { batches: BatchJsonSpec[] }).batches : [json as BatchJsonSpec];
  if (!Array.isArray(batches)) throw new BuildSpecError("spec.batches: expected an array");
  return batches.map((b, bi) => {
    const path = `batches[${bi}]`;
    onlyKeys(b, BATCH_KEYS, path);
    if (!Array.isArray(b.messages)) throw new BuildSpecError(`${path}.messages: expected an array`);
    return {
      partitionId: u64(b.partitionId, `${path}.partitionId`),
      baseOffset: u64(b.baseOffset, `${path}.baseOffset`),
      baseTimestamp: u64(b.baseTimestamp, `${path}.baseTimestamp`),
      originTimestamp: u64(b.originTimestamp, `${path}.originTimestamp`) ?? BigInt(env.nowMillis()) * 1000n,
      messages: b.messages.map((m, mi): MessageSpec => {
        const at = `${path}.messages[${mi}]`;
        onlyKeys(m, MESSAGE_KEYS, at);
        return {
          payload: parsePayload(m.payload, `${at}.payload`),
          id: parseId(m.id, env, `${at}.id`),
          offsetDelta: m.offsetDelta,
          timestampDelta: m.timestampDelta,
          userHeaders: parseHeaders(m.userHeaders, `${at}.userHeaders`),
        };
      }),
    };
  });
}

/** Encodes a build description into batches back to back. */
export function buildFromSpec(xxh: Xxh3, json: unknown, env: BuildEnvironment): Uint8Array {
  return concat(parseBuildSpec(json, env).map((spec) => encodeBatch(xxh, spec)));
}
