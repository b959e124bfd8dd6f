/**
 * Properties over generated inputs (fast-check): random containers around random valid batches are
 * detected as what they are and open with no diagnostics; a legacy dump of whole batches converts
 * back to the very same segment bytes; garbage and cut containers never throw and keep ranges inside the input.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { concat, encodeBatch, stampBatch, type MessageSpec } from "../walk/encode.ts";
import { ByteReader } from "../../format/reader.ts";
import { detectFormat, legacyToSegment, openInputWith, type FormatName } from "./index.ts";
import { xxh } from "../../../test/helpers.ts";
import { consensus } from "../samples/container-samples.ts";
import { legacyDumpOf } from "./legacy-dump.test-util.ts";

const SCALE = Number(process.env.IGGY_PROP_SCALE ?? 1) || 1;
const RUNS = 120 * SCALE;
// Seeded so a CI run is reproducible; IGGY_PROP_SEED (with IGGY_PROP_SCALE for more runs) searches elsewhere.
const SEED = Number(process.env.IGGY_PROP_SEED ?? 0x1991);

const message: fc.Arbitrary<MessageSpec> = fc.record({
  payload: fc.uint8Array({ maxLength: 40 }),
  id: fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
  timestampDelta: fc.nat({ max: 1_000_000 }),
  userHeaders: fc.option(fc.constant([{ key: { kind: "string" as const, value: "k" }, value: { kind: "u32" as const, value: 7 } }]), { nil: undefined }),
});
// The first message carries timestamp_delta 0, as a producer's earliest message does.
const batchMessages = fc.array(message, { minLength: 1, maxLength: 5 }).map((ms) => ms.map((m, i) => (i === 0 ? { ...m, timestampDelta: 0 } : m)));

const chain = fc
  .record({
    partition: fc.integer({ min: 1, max: 0xfffffffe }),
    start: fc.bigInt({ min: 0n, max: 1n << 40n }),
    t0: fc.bigInt({ min: 1n, max: 1n << 52n }),
    batches: fc.array(batchMessages, { minLength: 1, maxLength: 4 }),
    // Batches stamped in the same microsecond happen under load; legacy runs must still split right.
    sameTime: fc.boolean(),
  })
  .map(({ partition, start, t0, batches, sameTime }) => {
    let offset = start;
    const out = batches.map((ms, k) => {
      const b = stampBatch(xxh, encodeBatch(xxh, { originTimestamp: t0, messages: ms }), {
        partitionId: BigInt(partition),
        baseOffset: offset,
        baseTimestamp: t0 + (sameTime ? 0n : BigInt(k)),
      });
      offset += BigInt(ms.length);
      return b;
    });
    return { partition, start, batches: out, count: batches.reduce((n, ms) => n + ms.length, 0) };
  });

const u32 = (v: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v, true);
  return b;
};
const u64 = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return b;
};
const te = new TextEncoder();
const identifier = fc.oneof(
  fc.integer({ min: 0, max: 0xffffffff }).map((n) => concat([Uint8Array.of(1, 4), u32(n)])),
  fc
    .string({ minLength: 1, maxLength: 20 })
    .map((s) => te.encode(s))
    .filter((b) => b.length >= 1 && b.length <= 255)
    .map((b) => concat([Uint8Array.of(2, b.length), b])),
);
const partitioning = fc.oneof(
  fc.constant(Uint8Array.of(1, 0)),
  fc.integer({ min: 0, max: 0xffffffff }).map((n) => concat([Uint8Array.of(2, 4), u32(n)])),
  fc.uint8Array({ minLength: 1, maxLength: 255 }).map((k) => concat([Uint8Array.of(3, k.length), k])),
);

function sendBody(stream: Uint8Array, topic: Uint8Array, part: Uint8Array, ms: readonly MessageSpec[]): Uint8Array {
  const batch = encodeBatch(xxh, { originTimestamp: 1000n, messages: ms });
  const meta = concat([stream, topic, part, u32(ms.length)]);
  return concat([u32(meta.length), meta, batch]);
}
const container: fc.Arbitrary<{ format: FormatName; name: string; bytes: Uint8Array }> = fc.oneof(
  chain.map((c) => ({ format: "segment" as const, name: `${c.start.toString().padStart(20, "0")}.log`, bytes: concat(c.batches) })),
  chain.map((c) => ({
    format: "poll-reply" as const,
    name: "body.bin",
    bytes: concat([u32(c.partition), u64(c.start + BigInt(c.count)), u32(c.count), ...c.batches]),
  })),
  fc
    .tuple(identifier, identifier, partitioning, batchMessages)
    .map(([s, t, p, ms]) => ({ format: "send-messages" as const, name: "send.bin", bytes: sendBody(s, t, p, ms) })),
  fc
    .tuple(identifier, identifier, partitioning, batchMessages)
    .map(([s, t, p, ms]) => ({ format: "request" as const, name: "frame.bin", bytes: consensus(5, sendBody(s, t, p, ms), (w) => w.u8(176, 160)) })),
  chain.map((c) => ({ format: "reply" as const, name: "frame.bin", bytes: consensus(8, concat([u32(c.partition), u64(0n), u32(c.count), ...c.batches])) })),
  chain.map((c) => {
    const b = c.batches[0]!;
    return {
      format: "prepare" as const,
      name: "record.bin",
      bytes: consensus(6, b, (w) => w.u64(192, new ByteReader(b).u64(16))),
    };
  }),
  chain.map((c) => ({ format: "legacy-messages" as const, name: "dump.bin", bytes: legacyDumpOf(c.batches) })),
);

describe("containers around valid batches", () => {
  it("are detected as what they are and open with no diagnostics", () => {
    fc.assert(
      fc.property(container, ({ format, name, bytes }) => {
        expect(detectFormat(bytes, name).format).toBe(format);
        const opened = openInputWith(xxh, bytes, { name });
        expect(opened.format).toBe(format);
        expect(opened.analysis.diagnostics).toEqual([]);
        if (opened.recovery) expect(opened.recovery).toMatchObject({ keptBytes: bytes.length, stopsAt: null });
        for (const f of opened.container?.fields ?? []) expect(f.end).toBeLessThanOrEqual(bytes.length);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it("a legacy dump of whole batches converts back to the same segment, byte for byte", () => {
    fc.assert(
      fc.property(chain, (c) => {
        const dump = legacyDumpOf(c.batches);
        const opened = openInputWith(xxh, dump, { name: "dump.bin" });
        expect(opened.legacy!.runs.every((r) => r.checkable)).toBe(true);
        expect(legacyToSegment(xxh, dump, opened.legacy!, BigInt(c.partition))).toEqual(concat(c.batches));
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it("random bytes under every format never throw; auto-detect never makes a container of them", () => {
    const formats: (FormatName | "auto")[] = [
      "auto",
      "segment",
      "index",
      "poll-reply",
      "send-messages",
      "request",
      "reply",
      "prepare",
      "legacy-messages",
      "batches",
    ];
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 2048 }), fc.constantFrom(...formats), (bytes, format) => {
        const opened = openInputWith(xxh, bytes, { name: "x.bin", format });
        for (const d of opened.analysis.diagnostics) expect(d.end).toBeLessThanOrEqual(bytes.length);
        if (format === "auto" && bytes.length >= 256) expect(opened.format).toBe("batches");
      }),
      { numRuns: RUNS * 4, seed: SEED },
    );
  });

  it("a cut or mutated container, forced or detected, never throws and keeps every range inside the input", () => {
    const formats: (FormatName | "auto")[] = [
      "auto",
      "segment",
      "index",
      "poll-reply",
      "send-messages",
      "request",
      "reply",
      "prepare",
      "legacy-messages",
      "batches",
    ];
    fc.assert(
      fc.property(container, fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom(...formats), ({ name, bytes }, cut, at, value, format) => {
        const mutated = bytes.slice(0, bytes.length - (cut % (bytes.length + 1)));
        if (mutated.length > 0) mutated[at % mutated.length] = value;
        const opened = openInputWith(xxh, mutated, { name, format });
        for (const d of opened.analysis.diagnostics) {
          expect(d.start).toBeGreaterThanOrEqual(0);
          expect(d.end).toBeLessThanOrEqual(mutated.length);
          expect(d.end).toBeGreaterThanOrEqual(d.start);
        }
        for (const f of opened.container?.fields ?? []) expect(f.end).toBeLessThanOrEqual(mutated.length);
      }),
      { numRuns: RUNS * 4, seed: SEED },
    );
  });
});
