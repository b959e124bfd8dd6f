/**
 * The stream index of a capture (issue #24): every entry pushed reads back as pushed, through
 * packetAt and read, whatever its gaps, lengths, file steps and packet steps, across anchors; and a
 * run of equal segments costs about a byte each.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Pieces } from "./pieces.ts";
import { memorySource } from "./source.ts";

interface Push {
  offset: number;
  file: number;
  length: number;
  packet: number;
}

/** Pushes in stream order: each a gap (often none), a length, and file and packet steps that repeat or jump (also backwards, or past 2^32). */
const pushes = fc
  .array(
    fc.record({
      gap: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 5000 })),
      length: fc.oneof(fc.constant(1448), fc.integer({ min: 1, max: 70_000 })),
      fileStep: fc.oneof(fc.constant(82), fc.constant(0), fc.integer({ min: -1e6, max: 1e6 }), fc.constant(2 ** 33)),
      packetStep: fc.oneof(fc.constant(1), fc.constant(0), fc.integer({ min: -50, max: 50 })),
    }),
    { minLength: 0, maxLength: 300 },
  )
  .map((steps) => {
    const out: Push[] = [];
    let offset = 3 * 2 ** 32; // stream offsets past 2^32
    let file = 2 ** 20;
    let packet = 1000;
    for (const s of steps) {
      offset += s.gap;
      file = Math.max(0, file + s.fileStep);
      packet = Math.max(1, packet + s.packetStep);
      out.push({ offset, file, length: s.length, packet });
      offset += s.length;
      file += s.length;
    }
    return out;
  });

/** The packet of stream byte `at` as the pushes say, the same-packet continuations joined or not. */
function packetOf(list: readonly Push[], at: number): number | null {
  const p = list.find((e) => at >= e.offset && at < e.offset + e.length);
  return p ? p.packet : null;
}

describe("Pieces", () => {
  it("reads back every entry's packet and place, gaps included", () => {
    fc.assert(
      fc.property(pushes, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 20, maxLength: 20 }), (list, picks) => {
        const pieces = new Pieces();
        for (const p of list) pieces.push(p.offset, p.file, p.length, p.packet);
        const first = list[0]?.offset ?? 0;
        const last = list.length ? list[list.length - 1]!.offset + list[list.length - 1]!.length : 10;
        const points = [first - 1, last, ...list.flatMap((e) => [e.offset, e.offset + e.length - 1, e.offset + e.length])];
        for (const u of picks) points.push(first + Math.floor(u * (last - first + 2)) - 1);
        for (const at of points) expect(pieces.packetAt(at)).toBe(packetOf(list, at));
      }),
    );
  });

  it("reads a stretch's bytes from the file places and lists what was never delivered", () => {
    fc.assert(
      fc.property(pushes, fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 30_000 }), (list, from, length) => {
        // A source whose byte at file offset f is f mod 251: where a byte was read from shows in its value.
        const source = {
          size: 2 ** 40,
          read: (start: number, end: number) => {
            const out = new Uint8Array(end - start);
            for (let i = 0; i < out.length; i++) out[i] = (start + i) % 251;
            return out;
          },
        };
        const pieces = new Pieces();
        for (const p of list) pieces.push(p.offset, p.file, p.length, p.packet);
        const offset = (list[0]?.offset ?? 0) + from;
        const got = pieces.read(source, offset, length);
        const want = new Uint8Array(length);
        const covered = new Uint8Array(length);
        for (const e of list)
          for (let at = Math.max(e.offset, offset); at < Math.min(e.offset + e.length, offset + length); at++) {
            want[at - offset] = (e.file + (at - e.offset)) % 251;
            covered[at - offset] = 1;
          }
        expect(got.bytes).toEqual(want);
        const missing: { start: number; end: number }[] = [];
        for (let i = 0; i < length; i++)
          if (!covered[i]) {
            const m = missing[missing.length - 1];
            if (m && m.end === i) m.end++;
            else missing.push({ start: i, end: i + 1 });
          }
        expect(got.missing).toEqual(missing);
      }),
      { numRuns: 60 },
    );
  });

  it("joins a continuation of the same packet into one entry", () => {
    const pieces = new Pieces();
    pieces.push(0, 100, 10, 1);
    pieces.push(10, 110, 5, 1);
    pieces.push(15, 200, 5, 2);
    expect(pieces.count).toBe(2);
    expect(pieces.read(memorySource(Uint8Array.from({ length: 256 }, (_, i) => i)), 8, 10).bytes).toEqual(
      Uint8Array.from([108, 109, 110, 111, 112, 113, 114, 200, 201, 202]),
    );
  });

  it("keeps a run of equal segments in about a byte each", () => {
    const pieces = new Pieces();
    const n = 100_000;
    for (let i = 0; i < n; i++) pieces.push(i * 1448, 24 + i * (1448 + 82), 1448, i + 1);
    // 24 bytes a segment before (four columns); now one flag byte, the anchors and the doubling slack.
    expect(pieces.heldBytes).toBeLessThan(3 * n);
    expect(pieces.packetAt(n * 1448 - 1)).toBe(n);
  });
});
