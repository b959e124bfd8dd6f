/** Locating bytes: frameAt / batchAt against a linear scan, placed fields, and frame detail. */
import { describe, expect, it } from "vitest";
import { batchAt, frameAt, frameDetail, placeBatchFields, placeFrameFields } from "./frame-view.ts";
import { encodeBatch } from "./encode.ts";
import { analyze, concat, producerBatch, stampedBatch, xxh } from "../../test/helpers.ts";
import { frameEnd } from "./frame-columns.ts";

describe("frameAt / batchAt", () => {
  it("agree with a linear scan for every byte of a segment (headers, frames, a truncated tail)", async () => {
    const bytes = concat([
      producerBatch(3),
      stampedBatch(1, { baseOffset: 5n, baseTimestamp: 9n }),
      encodeBatch(xxh, { messages: [] }),
      producerBatch(2).subarray(0, 330),
    ]);
    const a = await analyze(bytes);
    for (let off = -1; off <= bytes.length; off++) {
      let frame = -1;
      for (let i = 0; i < a.frames.count; i++) if ((a.frames.start[i] as number) <= off && off < frameEnd(a.frames, i)) frame = i;
      const batch = a.batches.findIndex((b) => b.start <= off && off < b.end);
      expect(frameAt(a, off), `frame at ${off}`).toBe(frame);
      expect(batchAt(a, off), `batch at ${off}`).toBe(batch);
    }
    expect(frameAt(a, 256)).toBe(0);
    expect(frameAt(a, 255)).toBe(-1);
  });

  it("find nothing in an empty analysis", async () => {
    const a = await analyze(new Uint8Array(0));
    expect(frameAt(a, 0)).toBe(-1);
    expect(batchAt(a, 0)).toBe(-1);
  });
});

describe("placed fields and frame detail", () => {
  it("place header fields at absolute positions", () => {
    expect(placeBatchFields(1000).map((f) => [f.spec.name, f.start, f.end])).toContainEqual(["batch_checksum", 1040, 1048]);
    expect(placeFrameFields(300).map((f) => [f.spec.name, f.start, f.end])).toContainEqual(["payload_length", 336, 340]);
  });

  it("gives a frame's offset, producer time, payload and user headers ranges", async () => {
    const b = stampedBatch(
      2,
      { partitionId: 3n, baseOffset: 1000n, baseTimestamp: 77n },
      {
        originTimestamp: 500n,
        messages: [
          { payload: "ab", timestampDelta: 0 },
          { payload: "xyz", timestampDelta: 25, id: 99n, userHeaders: [{ key: { kind: "string", value: "k" }, value: { kind: "i32", value: -5 } }] },
        ],
      },
    );
    const a = await analyze(b);
    const d = frameDetail(a, b, 1);
    expect(d).toMatchObject({
      frame: 1,
      indexInBatch: 1,
      start: 306,
      end: b.length,
      messageOffset: 1001n,
      producerTime: 525n,
      payload: { start: 354, end: 357 },
    });
    expect(d.id.value).toBe(99n);
    expect(d.userHeaders).toMatchObject({ start: 357, end: b.length });
    expect(d.userHeaders.decoded).toMatchObject({ ok: true, headers: [{ key: { text: "k" }, value: { kindName: "i32", text: "-5" } }] });
    expect(d.batch.index).toBe(0);
    expect(d.fields.map((f) => f.start)).toEqual([306, 314, 330, 334, 338, 342, 346]);
  });
});
