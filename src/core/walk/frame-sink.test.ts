/** The streams' shares of one set of frame columns: what they hold at the end is the parts joined in input order. */
import { describe, expect, it } from "vitest";
import { concatFrameColumns, KeptColumnsBuilder } from "../model/frame-columns-build.ts";
import type { FrameColumns } from "../model/model.ts";
import { FileFrames } from "./frame-sink.ts";

// A part of `n` frames whose values say where they came from, with a few of each sparse list.
function part(n: number, tag: number): FrameColumns {
  const b = new KeptColumnsBuilder(n);
  for (let i = 0; i < n; i++) {
    b.start[i] = tag * 100_000 + i * 48;
    b.payloadLength[i] = tag + i;
    b.flags[i] = (tag + i) & 0xff;
  }
  for (let i = 0; i < n; i += 7) b.addMismatch(i, BigInt(tag * 1000 + i));
  for (let i = 4; i < n; i += 5) b.addLast(i, tag);
  for (let i = 0; i < n; i += 9) b.noteOffsetDelta(i, tag + i * 2);
  b.count = n;
  return b.finish();
}

describe("FileFrames", () => {
  const starts = [0, 10_000, 20_000];
  const size = 30_000;
  // Each stream's parts and their bytes: about 1 frame per 200 bytes, the last stream denser than its share.
  const streams: [FrameColumns, number][][] = [
    [
      [part(20, 1), 4000],
      [part(30, 2), 6000],
    ],
    [[part(50, 3), 10_000]],
    [
      [part(20, 4), 4000],
      [part(120, 5), 6000],
    ],
  ];

  // The same with the first stream outgrowing its share, so the next one's frames cannot move down in place.
  const firstDense: [FrameColumns, number][][] = [
    [
      [part(20, 6), 4000],
      [part(60, 7), 6000],
    ],
    streams[1]!,
    [[part(40, 8), 10_000]],
  ];

  it("holds the parts of every kept stream in input order, moved in place or copied", () => {
    for (const layout of [streams, firstDense])
      for (const kept of [3, 2, 1]) {
        const file = new FileFrames(starts, size, false);
        // Parts arrive stream by stream in any order across streams; a stream's frames may outgrow its share.
        for (const [k, parts] of [...layout.entries()].reverse()) for (const [p, bytes] of parts) file.sinks[k]!.place(p, bytes);
        const want = concatFrameColumns(layout.slice(0, kept).flatMap((parts) => parts.map(([p]) => p)));
        expect(
          file.finish(kept, () => undefined),
          `${kept} streams kept`,
        ).toEqual(want);
      }
  });

  it("walks a range straight into a stream's share once it is laid out", () => {
    const file = new FileFrames(starts, size, false);
    const sink = file.sinks[1]!;
    expect(sink.columns).toBeNull();
    file.sinks[0]!.place(part(40, 1), 10_000);
    const into = sink.columns!;
    into.append(part(50, 3));
    sink.walked(10_000);
    file.sinks[2]!.place(part(45, 4), 10_000);
    expect(file.finish(3, () => undefined)).toEqual(concatFrameColumns([part(40, 1), part(50, 3), part(45, 4)]));
  });
});
