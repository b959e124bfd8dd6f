/**
 * Properties of analyze() over generated inputs (fast-check):
 *   (a) valid batches and segments encode → analyze with no diagnostics and the same values;
 *   (b) one flipped bit in a frame's covered bytes is always an error;
 *   (c) mutated batches and garbage never throw and keep every range and count consistent.
 */
import fc from "fast-check";
import { shortestFloat32 } from "../../format/user-headers.ts";
import { describe, expect, it } from "vitest";
import { analyzeWith } from "./analyze.ts";
import { toContractJson } from "../model/contract-json.ts";
import { encodeBatch, stampBatch, type HeaderKind, type HeaderSpec, type MessageSpec, type TlvEntry } from "./encode.ts";
import { frameDetail } from "../view/frame-view.ts";
import { wholeWindow } from "../../lib/input-bytes.ts";
import type { Analysis } from "../model/model.ts";
import { SEVERITY_OF } from "../../format/diagnostics.ts";
import { concat, F, getU32, getU64, setU32, setU64, xxh } from "../../../test/helpers.ts";
import { frameBatch, frameEnd, frameIndexInBatch, frameOffsetDelta, frameTimestampDelta, frameUserHeadersLength } from "../model/frame-columns.ts";

// IGGY_PROP_SCALE=20 runs twenty times as many cases (a longer bug hunt); the default keeps the file at a few seconds.
const SCALE = Number(process.env.IGGY_PROP_SCALE ?? 1) || 1;
const RUNS = { valid: 300 * SCALE, flip: 500 * SCALE, mutate: 1000 * SCALE, garbage: 1000 * SCALE };

// ---------------------------------------------------------------------------
// generators of valid input, each with the text the decoder must show for it

const utf8 = new TextEncoder();
const hexSpaced = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(" ");

interface Tlv {
  spec: HeaderSpec["key"];
  kind: number;
  text: string;
}
const mk = (name: HeaderKind, kind: number, value: TlvEntry["value"], text: string): Tlv => ({ spec: { kind: name, value }, kind, text });

const tlv: fc.Arbitrary<Tlv> = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 24 }).map((v) => mk("raw", 1, v, hexSpaced(v))),
  fc
    .string({ unit: "grapheme", minLength: 1, maxLength: 12 })
    .filter((s) => utf8.encode(s).length <= 255)
    .map((v) => mk("string", 2, v, v)),
  fc.boolean().map((v) => mk("bool", 3, v, String(v))),
  fc.integer({ min: -128, max: 127 }).map((v) => mk("i8", 4, v, String(v))),
  fc.integer({ min: -32768, max: 32767 }).map((v) => mk("i16", 5, v, String(v))),
  fc.integer().map((v) => mk("i32", 6, v, String(v))),
  fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }).map((v) => mk("i64", 7, v, String(v))),
  fc.bigInt({ min: -(1n << 127n), max: (1n << 127n) - 1n }).map((v) => mk("i128", 8, v, String(v))),
  fc.integer({ min: 0, max: 255 }).map((v) => mk("u8", 9, v, String(v))),
  fc.integer({ min: 0, max: 65535 }).map((v) => mk("u16", 10, v, String(v))),
  fc.integer({ min: 0, max: 0xffffffff }).map((v) => mk("u32", 11, v, String(v))),
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map((v) => mk("u64", 12, v, String(v))),
  fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }).map((v) => mk("u128", 13, v, String(v))),
  // f32 text is the shortest decimal that reads back (its own unit test checks the round trip).
  fc.float().map((v) => mk("f32", 14, v, shortestFloat32(v))),
  fc.double().map((v) => mk("f64", 15, v, String(v))),
);

const header = fc.record({ key: tlv, value: tlv });

interface Msg {
  spec: MessageSpec;
  headers: Array<{ key: Tlv; value: Tlv }>;
}

const message: fc.Arbitrary<Msg> = fc
  .record({
    payload: fc.uint8Array({ maxLength: 48 }),
    id: fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
    timestampDelta: fc.nat({ max: 0xffffffff }),
    headers: fc.array(header, { maxLength: 3 }),
  })
  .map(({ payload, id, timestampDelta, headers }) => ({
    spec: { payload, id, timestampDelta, userHeaders: headers.length ? headers.map((h) => ({ key: h.key.spec, value: h.value.spec })) : undefined },
    headers,
  }));

interface BatchPlan {
  stamped: boolean;
  partition: bigint;
  firstDelta: number;
  messages: Msg[];
  earliest: number;
  origin: bigint;
  gap: bigint;
  start: bigint;
}

const batchPlan: fc.Arbitrary<BatchPlan> = fc.record({
  stamped: fc.boolean(),
  partition: fc.constantFrom(1n, 2n, 3n),
  firstDelta: fc.nat({ max: 20 }),
  messages: fc.array(message, { minLength: 1, maxLength: 5 }),
  earliest: fc.nat(),
  origin: fc.bigInt({ min: 0n, max: 1n << 62n }),
  gap: fc.bigInt({ min: 0n, max: 10_000_000n }),
  start: fc.bigInt({ min: 0n, max: 1n << 60n }),
});

interface Built {
  bytes: Uint8Array;
  batches: Array<{ plan: BatchPlan; baseOffset: bigint; baseTimestamp: bigint; deltas: number[]; tsDeltas: number[] }>;
}

/** Builds a segment: stamped batches continue their partition's offsets and never go back in time. */
function build(plans: BatchPlan[]): Built {
  const tails = new Map<bigint, { nextOffset: bigint; baseTimestamp: bigint }>();
  const parts: Uint8Array[] = [];
  const batches: Built["batches"] = [];
  for (const plan of plans) {
    const tsDeltas = plan.messages.map((m, i) => (i === plan.earliest % plan.messages.length ? 0 : (m.spec.timestampDelta as number)));
    let deltas = plan.messages.map((_, i) => i);
    let baseOffset = 0n;
    let baseTimestamp = 0n;
    if (plan.stamped) {
      const tail = tails.get(plan.partition);
      const next = tail ? tail.nextOffset : plan.start;
      const first = BigInt(Math.min(plan.firstDelta, Number(next < 1000n ? next : 1000n))); // base_offset stays ≥ 0
      deltas = deltas.map((i) => Number(first) + i);
      baseOffset = next - first;
      baseTimestamp = (tail ? tail.baseTimestamp : 1n) + plan.gap;
      tails.set(plan.partition, { nextOffset: baseOffset + BigInt(deltas.at(-1) as number) + 1n, baseTimestamp });
    }
    const producer = encodeBatch(xxh, {
      originTimestamp: plan.origin,
      messages: plan.messages.map((m, i) => ({ ...m.spec, offsetDelta: deltas[i], timestampDelta: tsDeltas[i] })),
    });
    parts.push(plan.stamped ? stampBatch(xxh, producer, { partitionId: plan.partition, baseOffset, baseTimestamp }) : producer);
    batches.push({ plan, baseOffset, baseTimestamp, deltas, tsDeltas });
  }
  return { bytes: concat(parts), batches };
}

const segment = fc.array(batchPlan, { minLength: 1, maxLength: 4 }).map(build);

// ---------------------------------------------------------------------------
// invariants that hold for ANY input

function checkInvariants(bytes: Uint8Array, a: Analysis): void {
  const size = bytes.length;
  expect(a.size).toBe(size);
  let prevStart = -1;
  for (const d of a.diagnostics) {
    expect(d.severity).toBe(SEVERITY_OF[d.code]);
    expect(Number.isInteger(d.start) && Number.isInteger(d.end)).toBe(true);
    expect(0 <= d.start && d.start <= d.end && d.end <= size, `${d.code} [${d.start},${d.end}) in ${size}`).toBe(true);
    expect(d.start).toBeGreaterThanOrEqual(prevStart);
    prevStart = d.start;
    if (d.batch !== null) expect(d.batch).toBeLessThan(a.batches.length);
  }
  const count = (s: string) => a.diagnostics.filter((d) => d.severity === s).length;
  expect(a.diagnosticsOmitted).toBe(0);
  expect(a.summary).toEqual({ batches: a.batches.length, frames: a.frames.count, errors: count("error"), warnings: count("warning"), infos: count("info") });

  // batches tile the input from 0, each stepping by its batch_length
  let pos = 0;
  a.batches.forEach((b, i) => {
    expect(b.index).toBe(i);
    expect(b.start).toBe(pos);
    expect(b.start <= b.end && b.end <= size).toBe(true);
    if (b.header && b.header.batchLength >= 256n) expect(b.end).toBe(Math.min(size, b.start + Number(b.header.batchLength)));
    pos = b.end;
    // its complete frames tile the blob from its start
    let f = b.start + 256;
    for (let k = b.firstFrame; k < b.firstFrame + b.frameCount; k++) {
      expect(frameBatch(a.batches, k)).toBe(i);
      expect(a.frames.start[k]).toBe(f);
      // user_headers_length is no column: it is read from the frame here, against the end the columns derive.
      expect(frameEnd(a.frames, k)).toBe(f + 48 + (a.frames.payloadLength[k] as number) + getU32(bytes, f + F.userHeadersLength));
      expect(frameUserHeadersLength(a.frames, k)).toBe(getU32(bytes, f + F.userHeadersLength));
      f = frameEnd(a.frames, k);
    }
    if (b.header) expect(f).toBeLessThanOrEqual(Math.max(b.end, b.start + 256));
    else expect(b.frameCount).toBe(0);
    if (b.truncatedFrame) expect(b.truncatedFrame).toMatchObject({ start: f, end: b.end });
  });
  if (a.batches.length === 0) expect(size).toBe(0);
  else expect(pos === size || a.diagnostics.some((d) => d.code === "batch-length-too-small")).toBe(true);

  // the JSON contract renders whatever was found
  const json = JSON.parse(JSON.stringify(toContractJson(a, bytes, "x")));
  expect(json.summary).toEqual(a.summary);
}

const analyzeAny = (bytes: Uint8Array): Analysis => analyzeWith(xxh, bytes);

// ---------------------------------------------------------------------------

describe("(a) valid batches round-trip", () => {
  it("encode → analyze: no diagnostics, the same header and frame values, user headers decoded", () => {
    fc.assert(
      fc.property(segment, ({ bytes, batches }) => {
        const a = analyzeAny(bytes);
        expect(a.diagnostics).toEqual([]);
        checkInvariants(bytes, a);
        expect(a.batches).toHaveLength(batches.length);
        let k = 0;
        batches.forEach((want, i) => {
          const b = a.batches.at(i)!;
          expect(b.stamped).toBe(want.plan.stamped);
          expect(b.header).toMatchObject({
            partitionId: want.plan.stamped ? want.plan.partition : 0n,
            baseOffset: want.baseOffset,
            baseTimestamp: want.baseTimestamp,
            originTimestamp: want.plan.origin,
            messageCount: want.plan.messages.length,
          });
          expect(b.computedChecksum).toBe(b.header?.batchChecksum);
          expect(b.frameCount).toBe(want.plan.messages.length);
          want.plan.messages.forEach((m, j) => {
            const d = frameDetail(a, wholeWindow(bytes), k);
            expect(d.batch.index).toBe(i);
            expect(d.indexInBatch).toBe(j);
            expect(d.id.value).toBe(m.spec.id);
            expect(frameOffsetDelta(a.frames, k)).toBe(want.deltas[j]);
            expect(frameTimestampDelta(a.frames, bytes, k)).toBe(want.tsDeltas[j]);
            expect(d.messageOffset).toBe(want.baseOffset + BigInt(want.deltas[j] as number));
            expect(d.producerTime).toBe(want.plan.origin + BigInt(want.tsDeltas[j] as number));
            expect(bytes.subarray(d.payload.start, d.payload.end)).toEqual(m.spec.payload);
            expect(a.frames.payloadLength[k]).toBe((m.spec.payload as Uint8Array).length);
            expect(d.storedChecksum).toBe(d.computedChecksum);
            if (m.headers.length === 0) {
              expect(frameUserHeadersLength(a.frames, k)).toBe(0);
              expect(d.userHeaders.decoded).toBeNull();
            } else {
              const decoded = d.userHeaders.decoded;
              expect(decoded?.ok).toBe(true);
              const got = decoded?.ok ? decoded.headers.map((h) => [h.key.kind, h.key.text, h.value.kind, h.value.text]) : null;
              expect(got).toEqual(m.headers.map((h) => [h.key.kind, h.key.text, h.value.kind, h.value.text]));
            }
            k++;
          });
        });
        expect(a.frames.count).toBe(k);
      }),
      { numRuns: RUNS.valid },
    );
  });
});

describe("(b) a flipped bit in a frame's covered bytes is an error", () => {
  it("any bit of frame bytes 8..end: frame-checksum-mismatch on that frame, or (length fields) a structural error", () => {
    const arb = segment.chain((built) => {
      const a = analyzeAny(built.bytes);
      return fc
        .record({
          built: fc.constant(built),
          frame: fc.nat({ max: a.frames.count - 1 }),
          at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
          bit: fc.nat({ max: 7 }),
        })
        .map((r) => ({
          ...r,
          start: a.frames.start[r.frame] as number,
          end: frameEnd(a.frames, r.frame),
          batch: frameBatch(a.batches, r.frame),
          indexInBatch: frameIndexInBatch(a.batches, r.frame),
        }));
    });
    fc.assert(
      fc.property(arb, ({ built, start, end, at, bit, batch, indexInBatch }) => {
        const bytes = built.bytes.slice();
        const pos = start + 8 + Math.floor(at * (end - start - 8));
        bytes[pos]! ^= 1 << bit;
        const a = analyzeAny(bytes);
        checkInvariants(bytes, a);
        expect(a.summary.errors).toBeGreaterThan(0);
        const rel = pos - start;
        if (rel < 32 || rel >= 40) {
          expect(a.diagnostics).toContainEqual(expect.objectContaining({ code: "frame-checksum-mismatch", start, end: start + 8, batch, frame: indexInBatch }));
        }
      }),
      { numRuns: RUNS.flip },
    );
  });
});

describe("(c) hostile bytes never throw and stay consistent", () => {
  type Mutation = (b: Uint8Array) => Uint8Array;
  const pick = (b: Uint8Array, r: number): number => Math.floor(r * b.length);
  const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.tuple(unit, fc.nat({ max: 255 })).map(([r, v]) => (b: Uint8Array) => {
      const c = b.slice();
      if (c.length) c[pick(c, r)] = v;
      return c;
    }),
    unit.map((r) => (b: Uint8Array) => b.slice(0, pick(b, r))),
    fc.tuple(unit, fc.uint8Array({ maxLength: 64 })).map(
      ([r, ins]) =>
        (b: Uint8Array) =>
          concat([b.subarray(0, pick(b, r)), ins, b.subarray(pick(b, r))]),
    ),
    fc.tuple(unit, fc.nat({ max: 80 })).map(
      ([r, n]) =>
        (b: Uint8Array) =>
          concat([b.subarray(0, pick(b, r)), b.subarray(pick(b, r) + n)]),
    ),
    // a hostile u32 or u64 anywhere, including over length and count fields
    fc.tuple(unit, fc.constantFrom(0, 1, 47, 48, 255, 256, 257, 0x7fffffff, 0xffffffff), fc.boolean()).map(([r, v, wide]) => (b: Uint8Array) => {
      const c = b.slice();
      const at = Math.min(pick(c, r), c.length - (wide ? 8 : 4));
      if (at >= 0) {
        if (wide) setU64(c, at, v === 0xffffffff ? (1n << 64n) - 1n : BigInt(v));
        else setU32(c, at, v);
      }
      return c;
    }),
  );

  it("mutated valid segments", () => {
    fc.assert(
      fc.property(segment, fc.array(mutation, { minLength: 1, maxLength: 4 }), ({ bytes }, ms) => {
        const mutated = ms.reduce((b, m) => m(b), bytes);
        checkInvariants(mutated, analyzeAny(mutated));
      }),
      { numRuns: RUNS.mutate },
    );
  });

  it("random garbage, and garbage behind a plausible header", () => {
    const plausible = fc
      .record({
        rest: fc.uint8Array({ maxLength: 600 }),
        batchLength: fc.oneof(fc.nat({ max: 1200 }).map(BigInt), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n })),
        count: fc.nat({ max: 6 }),
        base: fc.bigInt({ min: 0n, max: 3n }),
      })
      .map(({ rest, batchLength, count, base }) => {
        const b = concat([new Uint8Array(256), rest]);
        setU64(b, 16, base);
        setU64(b, 32, batchLength);
        setU32(b, 48, count);
        return b;
      });
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 2000 }), plausible), (bytes) => {
        const a = analyzeAny(bytes);
        checkInvariants(bytes, a);
        // every batch with a whole header reads its fields from the bytes
        for (const b of a.batches) if (b.header) expect(b.header.batchLength).toBe(getU64(bytes, b.start + 32));
        for (const b of a.batches) if (b.header) expect(b.header.messageCount).toBe(getU32(bytes, b.start + 48));
      }),
      { numRuns: RUNS.garbage },
    );
  });
});
