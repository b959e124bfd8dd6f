/**
 * XXH3-64 and the two checksums against Iggy's cross-SDK golden batch, built from the hex
 * printed in shared/spec/batch-format.md (not from this project's encoder), then the
 * encoder checked to reproduce that hex byte for byte.
 */
import { describe, expect, it } from "vitest";
import { checksumBytesLE, loadXxh3 } from "./xxh3.ts";
import { computeBatchChecksum, computeFrameChecksums } from "./verify.ts";
import { analyze } from "../core/walk/analyze.ts";
import { encodeBatch, stampBatch } from "../core/walk/encode.ts";
import { frameDetail } from "../core/view/frame-view.ts";
import { wholeWindow } from "../lib/input-bytes.ts";
import { hexToBytes, findings, setU64 } from "../../test/helpers.ts";
import { frameComputedChecksum, frameStoredChecksum } from "../core/model/frame-columns.ts";

// The golden batch exactly as batch-format.md prints it; "00*204" stands for the reserved bytes.
const GOLDEN_HEX = `
header  0000000000000000 0000000000000000 0000000000000000 e803000000000000
        8c01000000000000 a91f38c86307267c 02000000 00*204
frame1  bfd2b9205a759675 07000000000000000000000000000000 00000000 00000000
        00000000 0d000000 0000000000000000 66697273742d7061796c6f6164
frame2  d66b7e1c758eb7c0 08000000000000000000000000000000 01000000 32000000
        11000000 0e000000 0000000000000000 7365636f6e642d7061796c6f6164
        757365722d6865616465722d6279746573
`;

function goldenBytes(): Uint8Array {
  const hex = GOLDEN_HEX.replace(/header|frame1|frame2/g, "").replace(/00\*204/, "00".repeat(204));
  return hexToBytes(hex);
}

const FRAME1 = 256;
const FRAME2 = 256 + 48 + 13; // 317
const UH = FRAME2 + 48 + 14; // 379: the raw user headers of frame 2

describe("XXH3-64 (seed 0)", () => {
  it("hashes the empty input to 0x2d06800538d394c2", async () => {
    const xxh = await loadXxh3();
    expect(xxh.hash(new Uint8Array(0))).toBe(0x2d06800538d394c2n);
  });

  it("is one shared kernel that gives the same value however the bytes are windowed", async () => {
    const xxh = await loadXxh3();
    expect(await loadXxh3()).toBe(xxh);
    const g = goldenBytes();
    const starts = new Float64Array([FRAME1 + 8, FRAME2 + 8, 0, 5]);
    const ends = new Float64Array([FRAME2, g.length, 0, 5]);
    const out = new BigUint64Array(4);
    xxh.hashWindows(g, starts, ends, 0, 4, out);
    expect([...out]).toEqual([0x7596755a20b9d2bfn, 0xc0b78e751c7e6bd6n, 0x2d06800538d394c2n, 0x2d06800538d394c2n]);
  });

  it("stores checksums little-endian, as the wire does", () => {
    expect([...checksumBytesLE(0x7596755a20b9d2bfn)]).toEqual([0xbf, 0xd2, 0xb9, 0x20, 0x5a, 0x75, 0x96, 0x75]);
  });
});

describe("Iggy's golden batch (from the spec's hex)", () => {
  it("is 396 bytes with the fields the spec describes", () => {
    const g = goldenBytes();
    expect(g.length).toBe(396);
    const v = new DataView(g.buffer);
    expect(v.getBigUint64(24, true)).toBe(1000n); // origin
    expect(v.getBigUint64(32, true)).toBe(396n); // batch_length
    expect(v.getUint32(48, true)).toBe(2);
    expect(new TextDecoder().decode(g.subarray(FRAME1 + 48, FRAME2))).toBe("first-payload");
    expect(new TextDecoder().decode(g.subarray(FRAME2 + 48, UH))).toBe("second-payload");
    expect(new TextDecoder().decode(g.subarray(UH))).toBe("user-header-bytes");
  });

  it("analyze() computes the spec's frame and batch checksums and reports only the raw user headers (info)", async () => {
    const g = goldenBytes();
    const r = await analyze(g);
    expect(r.frames.count).toBe(2);
    expect([0, 1].map((i) => frameComputedChecksum(r.frames, g, i))).toEqual([0x7596755a20b9d2bfn, 0xc0b78e751c7e6bd6n]);
    expect([0, 1].map((i) => frameStoredChecksum(r.frames, g, i))).toEqual([0x7596755a20b9d2bfn, 0xc0b78e751c7e6bd6n]);
    expect(r.batches.at(0)?.computedChecksum).toBe(0x7c260763c8381fa9n);
    expect(r.batches.at(0)?.header?.batchChecksum).toBe(0x7c260763c8381fa9n);
    expect(r.batches.at(0)?.stamped).toBe(false);
    expect(findings(r)).toEqual([{ code: "user-headers-malformed", severity: "info", start: UH, end: 396, batch: 0, frame: 1 }]);
    expect(r.summary).toEqual({ batches: 1, frames: 2, errors: 0, warnings: 0, infos: 1 });

    const d0 = frameDetail(r, wholeWindow(g), 0);
    const d1 = frameDetail(r, wholeWindow(g), 1);
    expect([d0.id.value, d1.id.value]).toEqual([7n, 8n]);
    expect([d0.producerTime, d1.producerTime]).toEqual([1000n, 1050n]);
    expect([d0.messageOffset, d1.messageOffset]).toEqual([0n, 1n]);
    expect(d0.userHeaders.decoded).toBeNull();
    expect(d1.userHeaders.decoded?.ok).toBe(false);
  });

  it("the checksum helpers agree with the spec on their own", async () => {
    const xxh = await loadXxh3();
    const g = goldenBytes();
    const out = new BigUint64Array(2);
    computeFrameChecksums(xxh, g, new Float64Array([FRAME1, FRAME2]), new Float64Array([FRAME2, 396]), 0, 2, out);
    expect([...out]).toEqual([0x7596755a20b9d2bfn, 0xc0b78e751c7e6bd6n]);
    // from > 0 fills the slots of those frames only
    const tail = new BigUint64Array(2);
    computeFrameChecksums(xxh, g, new Float64Array([FRAME1, FRAME2]), new Float64Array([FRAME2, 396]), 1, 2, tail);
    expect([...tail]).toEqual([0n, 0xc0b78e751c7e6bd6n]);
    expect(computeBatchChecksum(xxh, g, 0, [FRAME1, FRAME2], 0, 2)).toBe(0x7c260763c8381fa9n);
    // a batch at a nonzero position of a larger input
    const shifted = new Uint8Array(100 + 396);
    shifted.set(g, 100);
    expect(computeBatchChecksum(xxh, shifted, 100, [0, 100 + FRAME1, 100 + FRAME2], 1, 3)).toBe(0x7c260763c8381fa9n);
  });

  it("stamped with partition 3, base_offset 100, base_timestamp 5000, has batch checksum 0xd2ee8f8ab32668c9", async () => {
    const g = goldenBytes();
    setU64(g, 0, 3n);
    setU64(g, 8, 100n);
    setU64(g, 16, 5000n);
    const stale = await analyze(g);
    expect(stale.batches.at(0)?.computedChecksum).toBe(0xd2ee8f8ab32668c9n);
    expect(findings(stale).map((d) => d.code)).toEqual(["batch-checksum-mismatch", "user-headers-malformed"]);

    setU64(g, 40, 0xd2ee8f8ab32668c9n);
    const r = await analyze(g);
    expect(r.batches.at(0)?.stamped).toBe(true);
    expect(r.summary).toMatchObject({ errors: 0, warnings: 0 });
    expect(frameDetail(r, wholeWindow(g), 1).messageOffset).toBe(101n);
  });
});

describe("the encoder reproduces the golden batch", () => {
  const spec = {
    originTimestamp: 1000n,
    messages: [
      { id: 7n, payload: "first-payload" },
      { id: 8n, payload: "second-payload", timestampDelta: 50, userHeaders: new TextEncoder().encode("user-header-bytes") },
    ],
  };

  it("byte for byte", async () => {
    const xxh = await loadXxh3();
    expect(encodeBatch(xxh, spec)).toEqual(goldenBytes());
  });

  it("and stampBatch() its stamped variant", async () => {
    const xxh = await loadXxh3();
    const stamped = stampBatch(xxh, encodeBatch(xxh, spec), { partitionId: 3n, baseOffset: 100n, baseTimestamp: 5000n });
    const want = goldenBytes();
    setU64(want, 0, 3n);
    setU64(want, 8, 100n);
    setU64(want, 16, 5000n);
    setU64(want, 40, 0xd2ee8f8ab32668c9n);
    expect(stamped).toEqual(want);
  });
});
