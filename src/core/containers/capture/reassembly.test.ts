/**
 * Reassembly as properties: any segmentation, order, duplication and overlap of a stream gives the
 * stream back; a dropped segment gives exactly one gap of its size; sequence numbers wrap at 2^32;
 * a retransmission that differs is reported and the first copy kept.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_PENDING, StreamReassembler, type StreamSink } from "./reassembly.ts";

interface Seg {
  offset: number;
  length: number;
}

/** A recording sink; delivered bytes are checked to come in order. */
function recorder() {
  const out: number[] = [];
  const gaps: { offset: number; length: number }[] = [];
  const differs: { offset: number; length: number; packet: number }[] = [];
  let next = 0;
  const sink: StreamSink = {
    data(offset, bytes) {
      expect(offset).toBe(next);
      for (const b of bytes) out.push(b);
      next += bytes.length;
    },
    gap(offset, length) {
      expect(offset).toBe(next);
      gaps.push({ offset, length });
      next += length;
    },
    differs(offset, length, packet) {
      differs.push({ offset, length, packet });
    },
  };
  return { sink, out, gaps, differs };
}

/** Segments covering [0, n): cut points, then extra overlapping copies. */
const stream = fc.uint8Array({ minLength: 1, maxLength: 400 });
const cutsOf = (n: number) =>
  fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, n - 1) }), { maxLength: 30 }).map((c) => [0, ...c.filter((x) => x < n).sort((a, b) => a - b), n]);

function segmentsOf(cuts: number[]): Seg[] {
  const segs: Seg[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) segs.push({ offset: cuts[i]!, length: cuts[i + 1]! - cuts[i]! });
  return segs;
}

describe("reassembly", () => {
  it("any segmentation, order, duplication and overlap gives the stream back", () => {
    fc.assert(
      fc.property(
        stream,
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 60 }),
        (data, isn, cutSeed, overlaps, order) => {
          const cuts = fc.sample(cutsOf(data.length), { seed: cutSeed, numRuns: 1 })[0]!;
          const segs = segmentsOf(cuts);
          // Overlapping copies of random stretches, same bytes.
          for (const [a, b] of overlaps) {
            const start = a % data.length;
            segs.push({ offset: start, length: 1 + (b % (data.length - start)) });
          }
          // A permutation, with duplicates where `order` repeats.
          const sent = segs.map((s, i) => ({ s, key: order[i % Math.max(1, order.length)] ?? i, i }));
          sent.sort((x, y) => x.key - y.key || x.i - y.i);
          for (const k of order.slice(0, 5)) sent.push(sent[k % sent.length]!);
          const r = recorder();
          const re = new StreamReassembler(r.sink);
          re.syn(isn);
          sent.forEach(({ s }, p) => re.segment((isn + 1 + s.offset) >>> 0, data.subarray(s.offset, s.offset + s.length), 0, p + 1, 0n, 0));
          re.finish();
          expect(r.gaps).toEqual([]);
          expect(r.differs).toEqual([]);
          expect(Uint8Array.from(r.out)).toEqual(data);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a dropped segment gives one gap of its size, at its place, and everything else", () => {
    fc.assert(
      fc.property(
        stream.filter((d) => d.length >= 3),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (data, cutSeed, pick, reverse) => {
          const cuts = fc.sample(cutsOf(data.length), { seed: cutSeed, numRuns: 1 })[0]!;
          const segs = segmentsOf(cuts);
          fc.pre(segs.length >= 2);
          const drop = segs[pick % segs.length]!;
          const kept = segs.filter((s) => s !== drop);
          if (reverse) kept.reverse();
          const r = recorder();
          const re = new StreamReassembler(r.sink);
          re.syn(4_000_000_000);
          kept.forEach((s, p) => re.segment((4_000_000_001 + s.offset) >>> 0, data.subarray(s.offset, s.offset + s.length), 0, p + 1, 0n, 0));
          re.finish();
          const last = drop.offset + drop.length === data.length;
          // A dropped tail is not seen at all without an acknowledgement: nothing follows it.
          expect(r.gaps).toEqual(last ? [] : [{ offset: drop.offset, length: drop.length }]);
          const expected = [...data.subarray(0, drop.offset), ...(last ? [] : data.subarray(drop.offset + drop.length))];
          expect(r.out).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a dropped tail that the receiver acknowledged is a gap of its size", () => {
    const r = recorder();
    const re = new StreamReassembler(r.sink);
    re.syn(10);
    re.segment(11, new Uint8Array(100), 0, 1, 0n, 0);
    re.ack(11 + 250);
    re.finish();
    expect(r.gaps).toEqual([{ offset: 100, length: 150 }]);
  });

  it("an acknowledged hole becomes a gap as soon as bytes after it arrive, not at the end", () => {
    const r = recorder();
    const re = new StreamReassembler(r.sink);
    re.syn(0);
    re.segment(1, Uint8Array.of(1, 2), 0, 1, 0n, 0);
    re.ack(1 + 10);
    re.segment(1 + 5, Uint8Array.of(6, 7, 8, 9, 10), 0, 2, 0n, 0);
    expect(r.gaps).toEqual([{ offset: 2, length: 3 }]);
    expect(r.out).toEqual([1, 2, 6, 7, 8, 9, 10]);
  });

  it("wraps at 2^32", () => {
    const r = recorder();
    const re = new StreamReassembler(r.sink);
    re.syn(2 ** 32 - 3);
    re.segment(2 ** 32 - 2, Uint8Array.of(1, 2), 0, 1, 0n, 0);
    re.segment(4, Uint8Array.of(7), 0, 3, 0n, 0); // after the wrap, out of order
    re.segment(0, Uint8Array.of(3, 4, 5, 6), 0, 2, 0n, 0);
    re.finish();
    expect(r.out).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(r.gaps).toEqual([]);
  });

  it("a later copy that differs is reported on its packet; the first copy wins (waiting and delivered)", () => {
    const r = recorder();
    const re = new StreamReassembler(r.sink, (offset, length) => Uint8Array.of(1, 2, 3, 4).subarray(offset, offset + length));
    re.syn(0);
    re.segment(1, Uint8Array.of(1, 2, 3, 4), 0, 1, 0n, 0);
    re.segment(3, Uint8Array.of(9, 9), 0, 2, 0n, 0); // delivered already
    re.segment(1 + 8, Uint8Array.of(5, 5), 0, 3, 0n, 0); // waits behind a hole
    re.segment(1 + 8, Uint8Array.of(6, 5), 0, 4, 0n, 0);
    re.segment(1 + 4, Uint8Array.of(0, 0, 0, 0), 0, 5, 0n, 0);
    re.finish();
    expect(r.differs).toEqual([
      { offset: 2, length: 2, packet: 2 },
      { offset: 8, length: 2, packet: 4 },
    ]);
    expect(r.out).toEqual([1, 2, 3, 4, 0, 0, 0, 0, 5, 5]);
  });

  it("bytes waiting behind a hole that is never filled stay bounded: the hole becomes a gap", () => {
    const r = recorder();
    const re = new StreamReassembler(r.sink);
    re.syn(0);
    const chunk = new Uint8Array(1 << 20);
    for (let i = 0; i < 24; i++) re.segment(1 + 1000 + i * chunk.length, chunk, 0, i + 1, 0n, 0);
    expect(re.waiting).toBeLessThanOrEqual(MAX_PENDING);
    expect(r.gaps[0]).toEqual({ offset: 0, length: 1000 });
  });

  it("bytes a snap length cut are a gap right after the captured ones", () => {
    const r = recorder();
    const re = new StreamReassembler(r.sink);
    re.syn(0);
    re.segment(1, Uint8Array.of(1, 2), 3, 1, 0n, 0);
    re.segment(6, Uint8Array.of(6), 0, 2, 0n, 0);
    expect(r.out).toEqual([1, 2, 6]);
    expect(r.gaps).toEqual([{ offset: 2, length: 3 }]);
  });
});
