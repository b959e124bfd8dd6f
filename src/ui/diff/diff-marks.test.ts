/** The hex panes' marks on real batch diffs: exactly the bytes that differ, in each side's own offsets. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../../core/walk/analyze.ts";
import { diffBatches } from "../../core/view/diff.ts";
import { encodeBatch } from "../../core/walk/encode.ts";
import { FRAME_HEADER_SIZE } from "../../format/fields.ts";
import { diffMarks, markedBytes } from "./diff-marks.ts";

const xxh = await loadXxh3();
const text = (s: string) => new TextEncoder().encode(s);
// The golden batch of batch-format.md: frame 0 at 256..317 (payload 304..317), frame 1 at 317..396 (payload 365..379, user headers 379..396).
const golden = () =>
  encodeBatch(xxh, {
    originTimestamp: 1000n,
    messages: [
      { id: 7n, payload: "first-payload" },
      { id: 8n, timestampDelta: 50, payload: "second-payload", userHeaders: text("user-header-bytes") },
    ],
  });
const diffOf = (a: Uint8Array, b: Uint8Array) =>
  diffBatches({ bytes: a, analysis: analyzeWith(xxh, a), batch: 0 }, { bytes: b, analysis: analyzeWith(xxh, b), batch: 0 });
const offsets = (runs: readonly { start: number; end: number }[]) => runs.flatMap((r) => Array.from({ length: r.end - r.start }, (_, k) => r.start + k));

describe("diffMarks", () => {
  it("marks exactly the flipped payload and user-header bytes on both sides", () => {
    const a = golden();
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.integer({ min: 304, max: 395 }).filter((i) => i < 317 || i >= 365),
          { maxLength: 12 },
        ),
        (at) => {
          const b = a.slice();
          for (const i of at) b[i]! ^= 0x5a;
          const rows = diffOf(a, b);
          const expected = [...at].sort((x, y) => x - y);
          expect(offsets(diffMarks(rows, "left", 0, a.length))).toEqual(expected);
          expect(offsets(diffMarks(rows, "right", 0, b.length))).toEqual(expected);
        },
      ),
    );
  });

  it("marks a differing header field whole, and clips to the pane's window", () => {
    const a = golden();
    const b = a.slice();
    b[317 + 8]! ^= 1; // frame 1 id (frame bytes 8..24), its byte 0 (the frame checksum is left stale: only the id differs)
    const rows = diffOf(a, b);
    expect(diffMarks(rows, "left", 0, a.length)).toEqual([{ start: 325, end: 341 }]);
    expect(diffMarks(rows, "right", 330, 345)).toEqual([{ start: 330, end: 341 }]);
    expect(markedBytes(diffMarks(rows, "right", 0, 330))).toBe(5);
  });

  it("marks a longer payload's extra bytes on the longer side only, in that side's offsets", () => {
    const a = golden();
    const b = encodeBatch(xxh, {
      originTimestamp: 1000n,
      messages: [
        { id: 7n, payload: "first-payload!!" },
        { id: 8n, timestampDelta: 50, payload: "second-payload", userHeaders: text("user-header-bytes") },
      ],
    });
    const rows = diffOf(a, b);
    const left = diffMarks(rows, "left", 0, a.length);
    const right = diffMarks(rows, "right", 0, b.length);
    // Frame 0's payload tail, "!!", is marked at 317..319 on the right; the left has no such bytes.
    expect(offsets(right)).toContain(304 + 13);
    expect(offsets(right)).toContain(304 + 14);
    expect(offsets(left).every((i) => i < a.length)).toBe(true);
    expect(offsets(left)).not.toContain(317 + FRAME_HEADER_SIZE); // frame 1's payload start differs in position, not in bytes
  });
});
