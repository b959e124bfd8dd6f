import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../../core/walk/analyze.ts";
import { concat, encodeBatch, stampBatch } from "../../core/walk/encode.ts";
import { batchSortKey, severityScore } from "./batch-rows.ts";
import { frameSortKey, isProblemFrame, messageIdOf, messageOffsetOf, payloadOf, producerTimeOf, type FrameColumnId } from "./frame-rows.ts";
import { wholeWindow, type ByteWindow } from "../../lib/input-bytes.ts";
import { frameEnd } from "../../core/model/frame-columns.ts";
import { buildOrder } from "./row-order.ts";

const xxh = await loadXxh3();
const enc = new TextEncoder();

const b0 = stampBatch(
  xxh,
  encodeBatch(xxh, {
    originTimestamp: 1_000_000n,
    messages: [
      { id: 3n, payload: "bravo", timestampDelta: 20 },
      { id: 1n, payload: "alpha-long", timestampDelta: 0, userHeaders: enc.encode("xyz") },
      { id: 2n ** 127n, payload: "", timestampDelta: 10 },
    ],
  }),
  { partitionId: 1n, baseOffset: 10n, baseTimestamp: 5_000_000n },
);
const b1 = stampBatch(
  xxh,
  encodeBatch(xxh, {
    originTimestamp: 900_000n,
    messages: [{ id: 2n, payload: "charlie", timestampDelta: 0 }],
  }),
  { partitionId: 1n, baseOffset: 13n, baseTimestamp: 6_000_000n },
);
const input = concat([b0, b1]);
// Corrupt frame 0's checksum in batch 0.
input[256]! ^= 1;
const a = analyzeWith(xxh, input);

const sorted = (column: FrameColumnId, desc = false): number[] => {
  const o = buildOrder(0, a.frames.count, null, { key: frameSortKey(column, a, wholeWindow(input)), desc });
  return Array.from({ length: o.length }, (_, k) => o.at(k));
};

describe("frame cells from the columns", () => {
  it("derives message offsets and producer times", () => {
    expect(a.frames.count).toBe(4);
    expect([0, 1, 2, 3].map((i) => messageOffsetOf(a, i))).toEqual([10n, 11n, 12n, 13n]);
    expect([0, 1, 2, 3].map((i) => producerTimeOf(a, wholeWindow(input), i))).toEqual([1_000_020n, 1_000_000n, 1_000_010n, 900_000n]);
  });

  it("reads a row's id, time and payload from a window of that frame alone, and nothing from a window elsewhere", () => {
    const whole = wholeWindow(input);
    for (let i = 0; i < a.frames.count; i++) {
      const start = a.frames.start[i] as number;
      const own = { start, bytes: input.slice(start, frameEnd(a.frames, i)) };
      expect(messageIdOf(a, own, i)).toEqual(messageIdOf(a, whole, i));
      expect(producerTimeOf(a, own, i)).toBe(producerTimeOf(a, whole, i));
      expect(payloadOf(a, own, i)).toEqual(payloadOf(a, whole, i));
      const before = { start: 0, bytes: input.slice(0, start) };
      expect(messageIdOf(a, before, i)).toBeNull();
      expect(producerTimeOf(a, before, i)).toBeNull();
      expect(payloadOf(a, { start: start + 49, bytes: input.slice(start + 49, start + 60) }, i).length).toBe(0);
    }
    expect(new TextDecoder().decode(payloadOf(a, { start: 0, bytes: input.slice(0, 256 + 48 + 3) }, 0))).toBe("bra");
  });

  it("filters frames with errors or warnings", () => {
    expect([0, 1, 2, 3].filter((i) => isProblemFrame(a, i))).toEqual([0]);
  });
});

describe("frame sort keys", () => {
  it("sort one batch by its bytes alone as by the whole input (a file read on demand reads that batch's frames)", () => {
    const b = a.batches.at(0)!;
    const from = a.frames.start[b.firstFrame] as number;
    const span = { start: from, bytes: input.slice(from, frameEnd(a.frames, b.firstFrame + b.frameCount - 1)) };
    for (const column of ["id", "time", "preview"] as const)
      for (const desc of [false, true]) {
        const order = (w: ByteWindow) => {
          const o = buildOrder(b.firstFrame, b.frameCount, null, { key: frameSortKey(column, a, w), desc });
          return Array.from({ length: o.length }, (_, k) => o.at(k));
        };
        expect(order(span), `${column} ${desc ? "desc" : "asc"}`).toEqual(order(wholeWindow(input)));
        // The keys themselves, not only the order their tie-breaks could rescue.
        for (let i = b.firstFrame; i < b.firstFrame + b.frameCount; i++)
          expect(frameSortKey(column, a, span).primary(i), `${column} key of frame ${i}`).toBe(frameSortKey(column, a, wholeWindow(input)).primary(i));
      }
    expect(buildOrder(0, 3, null, { key: frameSortKey("id", a, span), desc: false }).at(0)).toBe(1);
  });

  it("sorts by offset, time, sizes and checksum", () => {
    expect(sorted("offset", true)).toEqual([3, 2, 1, 0]);
    expect(sorted("time")).toEqual([3, 1, 2, 0]);
    expect(sorted("payload")).toEqual([2, 0, 3, 1]);
    expect(sorted("userHeaders", true)).toEqual([1, 0, 2, 3]);
    expect(sorted("checksum", true)).toEqual([0, 1, 2, 3]);
    expect(sorted("batch", true)).toEqual([3, 0, 1, 2]);
  });

  it("sorts ids as u128 values", () => {
    expect(sorted("id")).toEqual([1, 3, 0, 2]);
  });

  it("sorts previews by payload bytes, empty first", () => {
    expect(sorted("preview")).toEqual([2, 1, 0, 3]);
  });
});

describe("batch sort keys", () => {
  it("sorts by base offset and by severity", () => {
    const bad = concat([b1, b0]);
    const an = analyzeWith(xxh, bad);
    const order = buildOrder(0, 2, null, { key: batchSortKey("baseOffset", an), desc: false });
    expect([order.at(0), order.at(1)]).toEqual([1, 0]);
    expect(severityScore({ header: null, errors: 0, warnings: 0, infos: 0 })).toBeGreaterThan(
      severityScore({ header: an.batches.at(0)!.header, errors: 5, warnings: 0, infos: 0 }),
    );
    expect(severityScore({ header: an.batches.at(0)!.header, errors: 1, warnings: 0, infos: 0 })).toBeGreaterThan(
      severityScore({ header: an.batches.at(0)!.header, errors: 0, warnings: 999, infos: 999 }),
    );
  });
});
