/** Locating bytes: frameAt / batchAt against a linear scan, placed fields, and frame detail. */
import { describe, expect, it } from "vitest";
import {
  batchAt,
  frameAt,
  frameDetail,
  messageIdIn,
  placeBatchFields,
  placeFrameFields,
  storedChecksumIn,
  timestampDeltaIn,
  windowCovers,
} from "./frame-view.ts";
import { wholeWindow } from "../../lib/input-bytes.ts";
import { encodeBatch } from "../walk/encode.ts";
import { analyze, concat, producerBatch, stampedBatch, xxh } from "../../../test/helpers.ts";
import { frameEnd } from "../model/frame-columns.ts";

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
    const d = frameDetail(a, wholeWindow(b), 1);
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

describe("frame detail from windows of the input (a file read on demand)", () => {
  const twoFrames = () =>
    stampedBatch(
      2,
      { baseOffset: 40n, baseTimestamp: 7n },
      {
        originTimestamp: 1000n,
        messages: [
          { payload: "first", timestampDelta: 3, id: 5n },
          {
            payload: "x".repeat(300),
            timestampDelta: 9,
            id: 0x0102n,
            userHeaders: [{ key: { kind: "string", value: "k" }, value: { kind: "bool", value: true } }],
          },
        ],
      },
    );

  it("reads the same detail from a window of just the frame as from the whole input", async () => {
    const b = twoFrames();
    const a = await analyze(b);
    const whole = frameDetail(a, wholeWindow(b), 1);
    const start = a.frames.start[1] as number;
    const end = frameEnd(a.frames, 1);
    const part = frameDetail(a, { start, bytes: b.slice(start, end) }, 1);
    expect(part).toEqual(whole);
    expect(part.payload.head.length).toBe(300);
    expect(part.userHeaders.decoded).toMatchObject({ ok: true, headers: [{ key: { text: "k" }, value: { text: "true" } }] });
  });

  it("takes the payload head from the header window and the user headers from a second window", async () => {
    const b = twoFrames();
    const a = await analyze(b);
    const start = a.frames.start[1] as number;
    const end = frameEnd(a.frames, 1);
    const uh = start + 48 + 300;
    const d = frameDetail(a, { start, bytes: b.slice(start, start + 48 + 10) }, 1, { start: uh, bytes: b.slice(uh, end) });
    expect(new TextDecoder().decode(d.payload.head)).toBe("x".repeat(10));
    expect(d.payload).toMatchObject({ start: start + 48, end: uh });
    expect(d.userHeaders.bytes).toEqual(b.subarray(uh, end));
    expect(d.userHeaders.decoded).toEqual(frameDetail(a, wholeWindow(b), 1).userHeaders.decoded);
    // Without the tail the user headers are unread, not empty.
    const headOnly = frameDetail(a, { start, bytes: b.slice(start, start + 48) }, 1);
    expect(headOnly.userHeaders).toMatchObject({ start: uh, end, bytes: null, decoded: null });
    expect(headOnly.payload.head.length).toBe(0);
    expect(headOnly.storedChecksum).toBe(d.storedChecksum);
  });

  it("reads id, checksum and timestamp_delta only from a window holding the whole header", async () => {
    const b = twoFrames();
    const a = await analyze(b);
    const start = a.frames.start[0] as number;
    const w = { start, bytes: b.slice(start, start + 48) };
    expect(messageIdIn(w, start)?.value).toBe(5n);
    expect(timestampDeltaIn(w, start)).toBe(3);
    expect(storedChecksumIn(w, start)).toBe(frameDetail(a, wholeWindow(b), 0).storedChecksum);
    const short = { start, bytes: b.slice(start, start + 47) };
    expect(messageIdIn(short, start)).toBeNull();
    expect(storedChecksumIn({ start: start + 1, bytes: b.slice(start + 1, start + 60) }, start)).toBeNull();
    expect(() => frameDetail(a, short, 0)).toThrow(RangeError);
    expect(windowCovers(w, start + 8, start + 24)).toEqual(b.subarray(start + 8, start + 24));
    expect(windowCovers(w, start + 40, start + 49)).toBeNull();
  });
});
