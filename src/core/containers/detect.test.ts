/**
 * Auto-detect never hides a batch's errors (containers.md "Formats and their names"): batches whose
 * batch_length steps exactly to the end stay batches whatever else is in their bytes, and the one
 * detection answers the same over bytes in memory and over a source read in pieces.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BATCH_FIELD, BATCH_HEADER_SIZE } from "../../format/fields.ts";
import { SAMPLES } from "../samples/samples.ts";
import { memorySource } from "../walk/stream-analyze.ts";
import { concat, encodeBatch, stampBatch } from "../walk/encode.ts";
import { xxh } from "../../../test/helpers.ts";
import { CONTAINER_SAMPLES } from "../samples/container-samples.ts";
import { detectFormat, openInputWith, sourceInput } from "./index.ts";

const LENGTH = BATCH_FIELD.batch_length;

/** An empty 256-byte batch (batch_length 256), as issue 22 writes it, with `poke` applied. */
function emptyBatch(poke: (h: Uint8Array) => void): Uint8Array {
  const h = new Uint8Array(BATCH_HEADER_SIZE);
  new DataView(h.buffer).setBigUint64(LENGTH.offset, BigInt(BATCH_HEADER_SIZE), true);
  poke(h);
  return h;
}

/** The positions of each batch's batch_length field in a file of batches back to back. */
function lengthFieldBytes(bytes: Uint8Array): Set<number> {
  const out = new Set<number>();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let pos = 0; pos < bytes.length; pos += Number(view.getBigUint64(pos + LENGTH.offset, true))) {
    for (let i = 0; i < LENGTH.size; i++) out.add(pos + LENGTH.offset + i);
  }
  return out;
}

describe("auto-detect keeps batches that tile", () => {
  it("a batch that fills the file with one nonzero reserved byte is batches with its errors, not legacy messages", () => {
    const bytes = emptyBatch((h) => (h[100] = 7));
    const opened = openInputWith(xxh, bytes, { name: "reserved.bin" });
    expect(opened.format).toBe("batches");
    expect(opened.detectedBy).toMatch(/1 batch header ends exactly at the end/);
    expect(opened.analysis.summary.errors).toBe(2);
    const codes = opened.analysis.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
    expect(codes.sort()).toEqual(["batch-checksum-mismatch", "batch-reserved-nonzero"]);
    expect(opened.analysis.diagnostics.find((d) => d.code === "batch-reserved-nonzero")).toMatchObject({ start: 100, end: 101 });
  });

  it("a batch with every reserved byte set is batch-reserved-nonzero, not format-unrecognized", () => {
    const bytes = emptyBatch((h) => h.fill(0xff, BATCH_FIELD.reserved.offset));
    const opened = openInputWith(xxh, bytes, {});
    expect(opened.format).toBe("batches");
    const codes = opened.analysis.diagnostics.map((d) => d.code);
    expect(codes).toContain("batch-reserved-nonzero");
    expect(codes).not.toContain("format-unrecognized");
  });

  it("a first header that cannot be a batch's and steps nowhere stays unrecognized", () => {
    const bytes = emptyBatch((h) => h.fill(0xff, BATCH_FIELD.reserved.offset));
    new DataView(bytes.buffer).setBigUint64(LENGTH.offset, 999n, true);
    expect(detectFormat(bytes)).toMatchObject({ format: "batches", recognized: false });
  });

  it("legacy messages still win where no batch reading tiles and their reserved bytes are zero", () => {
    // Four 64-byte legacy headers with empty bodies; read as a batch, batch_length (bytes 32..40) is 0.
    expect(detectFormat(new Uint8Array(256)).format).toBe("legacy-messages");
  });

  const chain = fc.array(fc.array(fc.uint8Array({ maxLength: 24 }), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }).map((batches) => {
    let offset = 0n;
    return concat(
      batches.map((payloads, k) => {
        const b = stampBatch(xxh, encodeBatch(xxh, { messages: payloads.map((payload) => ({ payload })) }), {
          partitionId: 1n,
          baseOffset: offset,
          baseTimestamp: 1000n + BigInt(k),
        });
        offset += BigInt(payloads.length);
        return b;
      }),
    );
  });

  it("any batch file, mutated anywhere but the length fields, auto-detects as batches", () => {
    fc.assert(
      fc.property(chain, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 12 }), (clean, edits) => {
        const bytes = clean.slice();
        const fixed = lengthFieldBytes(clean);
        for (const [at, xor] of edits) {
          const pos = at % bytes.length;
          if (!fixed.has(pos)) bytes[pos] = (bytes[pos] as number) ^ xor;
        }
        const d = detectFormat(bytes);
        expect(d).toMatchObject({ format: "batches", recognized: true });
        expect(d.detectedBy).toMatch(/^auto: \d+ batch headers? /);
      }),
      { numRuns: 300, seed: 0x2203 },
    );
  });
});

describe("one detection over memory and over a source read in pieces", () => {
  const inputs = [
    ...SAMPLES.map((s) => ({ name: `${s.id}.bin`, bytes: s.build(xxh) })),
    ...CONTAINER_SAMPLES.flatMap((s) => s.build(xxh)),
    { name: "reserved.bin", bytes: emptyBatch((h) => (h[100] = 7)) },
  ];
  it.each(inputs.map((f) => [f.name, f] as const))("%s", (_, f) => {
    // Blocks of 300 bytes: most headers and reads straddle a block boundary, as in a large file.
    expect(detectFormat(sourceInput(memorySource(f.bytes), 300), f.name)).toEqual(detectFormat(f.bytes, f.name));
  });
});
