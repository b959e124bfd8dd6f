/**
 * The builder form → build spec conversion: validation of every field kind, and specs that
 * buildFromSpec (with a fixed clock and fixed randomness) turns into batches analyze() finds clean.
 */
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyze } from "../../core/walk/analyze.ts";
import { buildFromSpec, parseBuildSpec, type BuildEnvironment } from "../../core/edit/build-spec.ts";
import { decodeUserHeaders } from "../../format/user-headers.ts";
import { decodeMessageId } from "../../format/values.ts";
import { formReducer, initialForm, VALUE_KINDS, type BuilderForm, type FormAction } from "./form-state.ts";
import { fieldKey, formToSpec, parseHeaderValue, parseIdText, parseTimestampDelta, parseU64Text, specText } from "./form-to-spec.ts";
import { frameOffsetDelta, frameTimestampDelta, frameUserHeadersLength } from "../../core/model/frame-columns.ts";

const xxh = await loadXxh3();
const NOW_MS = 1_700_000_000_123;
const env: BuildEnvironment = { nowMillis: () => NOW_MS, randomBytes: (n) => Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff) };

const apply = (form: BuilderForm, ...actions: FormAction[]) => actions.reduce(formReducer, form);
const base = () => initialForm(BigInt(NOW_MS) * 1000n);

/** Builds a form's spec (through its JSON text, as a user copying it would) and analyses the bytes. */
async function buildAndAnalyse(form: BuilderForm) {
  const result = formToSpec(form);
  expect(result.errors).toEqual([]);
  const spec = JSON.parse(specText(result.spec!)) as unknown;
  const bytes = buildFromSpec(xxh, spec, env);
  const analysis = await analyze(bytes, { xxh3: xxh });
  return { result, bytes, analysis };
}

describe("formToSpec: valid forms build into clean batches", () => {
  it("the initial form is a one-message producer batch with an auto UUIDv7 id", async () => {
    const { result, bytes, analysis } = await buildAndAnalyse(base());
    expect(result.spec).toEqual({ originTimestamp: "1700000000123000", messages: [{ id: "auto", payload: "hello, iggy" }] });
    expect(result.warnings).toEqual([]);
    expect(analysis.diagnostics).toEqual([]);
    expect(analysis.summary).toMatchObject({ batches: 1, frames: 1, errors: 0, warnings: 0, infos: 0 });
    expect(analysis.batches.at(0)!.stamped).toBe(false);
    expect(bytes.length).toBe(256 + 48 + "hello, iggy".length);
    const id = decodeMessageId(bytes.subarray(256 + 8, 256 + 24));
    expect(id.version).toBe(7);
    expect(id.unixMillis).toBe(NOW_MS);
  });

  it("a stamped batch of three messages with every payload mode, given ids and TLV headers of every kind", async () => {
    let form = apply(
      base(),
      { type: "setBatchKind", batchKind: "stamped" },
      { type: "setBatchField", field: "partitionId", value: "3" },
      { type: "setBatchField", field: "baseOffset", value: "0x64" },
      { type: "setBatchField", field: "baseTimestamp", value: "5000" },
      { type: "setBatchField", field: "originTimestamp", value: "1000" },
      { type: "addMessage" },
      { type: "addMessage" },
    );
    const [a, b, c] = form.messages.map((m) => m.uid) as [number, number, number];
    form = apply(
      form,
      { type: "setPayloadMode", uid: a, mode: "json" },
      { type: "setMessageField", uid: a, field: "payload", value: '{ "n": 1, "s": "x" }' },
      { type: "setIdMode", uid: a, idMode: "given" },
      { type: "setMessageField", uid: a, field: "id", value: "0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b" },
      { type: "setPayloadMode", uid: b, mode: "hex" },
      { type: "setMessageField", uid: b, field: "payload", value: "0x DE AD:be ef" },
      { type: "setIdMode", uid: b, idMode: "given" },
      { type: "setMessageField", uid: b, field: "id", value: "0x8" },
      { type: "setMessageField", uid: b, field: "timestampDelta", value: "50" },
      { type: "setMessageField", uid: c, field: "payload", value: "third" },
      { type: "setIdMode", uid: c, idMode: "given" },
      { type: "setMessageField", uid: c, field: "id", value: "340282366920938463463374607431768211455" },
    );
    const values: Record<string, string> = {
      raw: "01 02",
      string: "héllo",
      bool: "true",
      i8: "-128",
      i16: "-2",
      i32: "0x7fffffff",
      i64: "-9223372036854775808",
      i128: "-1",
      u8: "255",
      u16: "65535",
      u32: "4294967295",
      u64: "18446744073709551615",
      u128: "0xffffffffffffffffffffffffffffffff",
      f32: "1.5",
      f64: "-Infinity",
    };
    for (const kind of VALUE_KINDS) {
      form = formReducer(form, { type: "addHeader", uid: c });
      const row = form.messages[2]!.headers.at(-1)!;
      form = formReducer(form, { type: "setHeader", uid: c, headerUid: row.uid, patch: { key: `k-${kind}`, kind, value: values[kind]! } });
    }
    const { result, bytes, analysis } = await buildAndAnalyse(form);
    expect(analysis.diagnostics).toEqual([]);
    expect(analysis.batches.at(0)!.stamped).toBe(true);
    expect(analysis.batches.at(0)!.header).toMatchObject({ partitionId: 3n, baseOffset: 100n, baseTimestamp: 5000n, originTimestamp: 1000n, messageCount: 3 });
    expect(result.spec!.messages[0]!.payload).toEqual({ json: { n: 1, s: "x" } });
    expect(result.spec!.messages[1]).toEqual({ id: "0x8", payload: { hex: "deadbeef" }, timestampDelta: 50 });

    const f = analysis.frames;
    expect([0, 1, 2].map((i) => frameTimestampDelta(f, bytes, i))).toEqual([0, 50, 0]);
    expect([0, 1, 2].map((i) => frameOffsetDelta(f, i))).toEqual([0, 1, 2]);
    expect(decodeMessageId(bytes.subarray(f.start[0]! + 8, f.start[0]! + 24)).uuid).toBe("0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b");
    expect(decodeMessageId(bytes.subarray(f.start[1]! + 8, f.start[1]! + 24)).value).toBe(8n);
    expect(decodeMessageId(bytes.subarray(f.start[2]! + 8, f.start[2]! + 24)).value).toBe((1n << 128n) - 1n);
    expect(new TextDecoder().decode(bytes.subarray(f.start[0]! + 48, f.start[0]! + 48 + f.payloadLength[0]!))).toBe('{"n":1,"s":"x"}');
    expect(Array.from(bytes.subarray(f.start[1]! + 48, f.start[1]! + 52))).toEqual([0xde, 0xad, 0xbe, 0xef]);

    const hStart = f.start[2]! + 48 + f.payloadLength[2]!;
    const decoded = decodeUserHeaders(bytes.subarray(hStart, hStart + frameUserHeadersLength(f, 2)));
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.headers.map((h) => [h.key.text, h.value.kindName, h.value.text])).toEqual([
      ["k-raw", "raw", "01 02"],
      ["k-string", "string", "héllo"],
      ["k-bool", "bool", "true"],
      ["k-i8", "i8", "-128"],
      ["k-i16", "i16", "-2"],
      ["k-i32", "i32", "2147483647"],
      ["k-i64", "i64", "-9223372036854775808"],
      ["k-i128", "i128", "-1"],
      ["k-u8", "u8", "255"],
      ["k-u16", "u16", "65535"],
      ["k-u32", "u32", "4294967295"],
      ["k-u64", "u64", "18446744073709551615"],
      ["k-u128", "u128", "340282366920938463463374607431768211455"],
      ["k-f32", "f32", "1.5"],
      ["k-f64", "f64", "-Infinity"],
    ]);
  });

  it("the spec parses with parseBuildSpec into the same fields the form holds", () => {
    const form = apply(base(), { type: "setBatchKind", batchKind: "stamped" }, { type: "setBatchField", field: "baseTimestamp", value: "42" });
    const specs = parseBuildSpec(formToSpec(form).spec, env);
    expect(specs).toHaveLength(1);
    expect(specs[0]).toMatchObject({ partitionId: 1n, baseOffset: 0n, baseTimestamp: 42n, originTimestamp: 1700000000123000n });
  });

  it("a producer batch leaves the stamped fields out of the spec, whatever the hidden inputs hold", () => {
    const form = apply(base(), { type: "setBatchField", field: "partitionId", value: "not a number" });
    const r = formToSpec(form);
    expect(r.errors).toEqual([]);
    expect(Object.keys(r.spec!)).toEqual(["originTimestamp", "messages"]);
  });
});

describe("formToSpec: problems are tied to their fields", () => {
  it("invalid JSON, odd hex, a bad id, a bad delta and bad header values are errors; no spec is made", () => {
    let form = apply(base(), { type: "addMessage" }, { type: "addMessage" });
    const [a, b, c] = form.messages.map((m) => m.uid) as [number, number, number];
    form = apply(
      form,
      { type: "setPayloadMode", uid: a, mode: "json" },
      { type: "setMessageField", uid: a, field: "payload", value: "{nope" },
      { type: "setPayloadMode", uid: b, mode: "hex" },
      { type: "setMessageField", uid: b, field: "payload", value: "abc" },
      { type: "setIdMode", uid: b, idMode: "given" },
      { type: "setMessageField", uid: b, field: "id", value: "deadbeef" },
      { type: "setMessageField", uid: c, field: "timestampDelta", value: "4294967296" },
      { type: "addHeader", uid: c },
    );
    const h = form.messages[2]!.headers[0]!.uid;
    form = apply(form, { type: "setHeader", uid: c, headerUid: h, patch: { key: "", kind: "u8", value: "256" } });
    const r = formToSpec(form);
    expect(r.spec).toBeNull();
    expect(r.errors.map((e) => e.field)).toEqual([
      fieldKey.message(a, "payload"),
      fieldKey.message(b, "id"),
      fieldKey.message(b, "payload"),
      fieldKey.message(c, "timestampDelta"),
      fieldKey.header(c, h, "key"),
      fieldKey.header(c, h, "value"),
    ]);
    expect(r.errors.map((e) => e.where)).toEqual([
      "Message 1 payload",
      "Message 2 id",
      "Message 2 payload",
      "Message 3 timestamp delta",
      "Message 3 header 1 key",
      "Message 3 header 1 value",
    ]);
    expect(r.errors[0]!.message).toMatch(/^not valid JSON/);
    expect(r.errors[1]!.message).toMatch(/0x prefix/);
    expect(r.errors[2]!.message).toMatch(/even number of hex digits/);
  });

  it("a stamped batch needs a nonzero base_timestamp and u64 fields", () => {
    const form = apply(
      base(),
      { type: "setBatchKind", batchKind: "stamped" },
      { type: "setBatchField", field: "baseTimestamp", value: "0" },
      { type: "setBatchField", field: "partitionId", value: "18446744073709551616" },
      { type: "setBatchField", field: "originTimestamp", value: "-1" },
    );
    const r = formToSpec(form);
    expect(r.errors.map((e) => e.field)).toEqual(["batch.partitionId", "batch.baseTimestamp", "batch.originTimestamp"]);
  });

  it("warns, without blocking, about an empty batch and about an origin that is not the earliest", () => {
    const uid = base().messages[0]!.uid;
    const empty = formToSpec(apply(base(), { type: "removeMessage", uid }));
    expect(empty.errors).toEqual([]);
    expect(empty.spec).not.toBeNull();
    expect(empty.warnings.map((w) => w.message)).toEqual([expect.stringContaining("empty-batch")]);
    const late = formToSpec(apply(base(), { type: "setMessageField", uid, field: "timestampDelta", value: "10" }));
    expect(late.spec).not.toBeNull();
    expect(late.warnings.map((w) => w.message)).toEqual([expect.stringContaining("origin-not-earliest")]);
  });
});

describe("field parsers", () => {
  it("u64 and timestamp deltas", () => {
    expect(parseU64Text(" 0x10 ")).toEqual({ ok: true, value: "16" });
    expect(parseU64Text("18446744073709551615")).toEqual({ ok: true, value: "18446744073709551615" });
    expect(parseU64Text("").ok).toBe(false);
    expect(parseU64Text("1.5").ok).toBe(false);
    expect(parseTimestampDelta("")).toEqual({ ok: true, value: 0 });
    expect(parseTimestampDelta("4294967295")).toEqual({ ok: true, value: 4294967295 });
    expect(parseTimestampDelta("-1").ok).toBe(false);
  });

  it("ids: UUID, 0x hex, decimal; nothing else", () => {
    expect(parseIdText("0190A5B2-7C3D-7E4F-8A1B-2C3D4E5F6A7B")).toEqual({ ok: true, value: "0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b" });
    expect(parseIdText("0x00FF")).toEqual({ ok: true, value: "0xff" });
    expect(parseIdText("7")).toEqual({ ok: true, value: "7" });
    expect(parseIdText("340282366920938463463374607431768211456").ok).toBe(false);
    expect(parseIdText("0x1" + "0".repeat(32)).ok).toBe(false);
    expect(parseIdText("").ok).toBe(false);
    expect(parseIdText("not-an-id").ok).toBe(false);
  });

  it("header values: ranges, bools, floats, lengths", () => {
    expect(parseHeaderValue("i8", "-129").ok).toBe(false);
    expect(parseHeaderValue("i8", "-0x80")).toEqual({ ok: true, value: -128 });
    expect(parseHeaderValue("u64", "1")).toEqual({ ok: true, value: "1" });
    expect(parseHeaderValue("u32", "-1").ok).toBe(false);
    expect(parseHeaderValue("bool", "FALSE")).toEqual({ ok: true, value: false });
    expect(parseHeaderValue("bool", "yes").ok).toBe(false);
    expect(parseHeaderValue("f64", "NaN")).toEqual({ ok: true, value: "NaN" });
    expect(parseHeaderValue("f32", "abc").ok).toBe(false);
    expect(parseHeaderValue("string", "").ok).toBe(false);
    expect(parseHeaderValue("string", "x".repeat(256)).ok).toBe(false);
    expect(parseHeaderValue("raw", "00".repeat(255)).ok).toBe(true);
    expect(parseHeaderValue("raw", "").ok).toBe(false);
    expect(parseHeaderValue("raw", "0g").ok).toBe(false);
  });
});
