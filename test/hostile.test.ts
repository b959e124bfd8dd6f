/**
 * Hostile inputs: absurd length and count fields, nothing at all, and megabytes of noise.
 * Each must finish without throwing and report exactly the findings the spec implies.
 * (No timings are asserted.)
 */
import { describe, expect, it } from "vitest";
import { toContractJson } from "../src/core/model/contract-json.ts";
import {
  B,
  F,
  analyze,
  batchChecksum,
  codes,
  findings,
  getU32,
  getU64,
  producerBatch,
  randomBytes,
  refreshBatchChecksum,
  setU32,
  setU64,
  type Finding,
} from "./helpers.ts";

const U64_MAX = (1n << 64n) - 1n;
const MB10 = 10 * 1024 * 1024;

describe("absurd fields", () => {
  it("batch_length 2^64−1: batch-truncated, the frames present are decoded, the value survives to JSON", async () => {
    const b = producerBatch(2);
    setU64(b, B.batchLength, U64_MAX);
    expect(new Set(codes(await analyze(b)))).toEqual(new Set(["batch-truncated", "batch-checksum-mismatch"]));
    refreshBatchChecksum(b); // batch_length is in the checksum
    const r = await analyze(b);
    expect(findings(r)).toEqual([{ code: "batch-truncated", severity: "error", start: 32, end: 40, batch: 0, frame: null }]);
    expect(r.summary).toMatchObject({ batches: 1, frames: 2 });
    expect(r.batches.at(0)).toMatchObject({ start: 0, end: b.length });
    expect(r.batches.at(0)?.header?.batchLength).toBe(U64_MAX);
    expect(toContractJson(r, b, "x").batches.at(0)?.header?.batchLength).toBe("18446744073709551615");
  });

  it("batch_length 2^53+1 (not a safe integer) in a second batch is still past the end", async () => {
    const a = producerBatch(1);
    const b = producerBatch(1);
    setU64(b, B.batchLength, (1n << 53n) + 1n);
    refreshBatchChecksum(b);
    const input = new Uint8Array([...a, ...b]);
    expect(findings(await analyze(input))).toEqual([
      { code: "batch-truncated", severity: "error", start: a.length + 32, end: a.length + 40, batch: 1, frame: null },
    ]);
  });

  it("payload_length 0xFFFFFFFF (and user_headers_length too): the frame is truncated, not read", async () => {
    for (const both of [false, true]) {
      const b = producerBatch(1);
      setU32(b, 256 + F.payloadLength, 0xffffffff);
      if (both) setU32(b, 256 + F.userHeadersLength, 0xffffffff);
      const r = await analyze(b);
      expect(findings(r)).toEqual([
        { code: "batch-checksum-mismatch", severity: "error", start: 40, end: 48, batch: 0, frame: null }, // over 0 walked frames
        { code: "message-count-mismatch", severity: "error", start: 48, end: 52, batch: 0, frame: null },
        { code: "frame-truncated", severity: "error", start: 256, end: b.length, batch: 0, frame: 0 },
      ]);
      expect(r.batches.at(0)?.computedChecksum).toBe(batchChecksum(b, 0, []));
      expect(r.frames.count).toBe(0);
      const json = toContractJson(r, b, "x");
      expect(json.batches.at(0)?.frames).toEqual([expect.objectContaining({ start: 256, end: b.length, payloadLength: 0xffffffff, computedChecksum: null })]);
    }
  });

  it("message_count 0xFFFFFFFF: a count mismatch; the frames follow the bytes, not the count", async () => {
    const b = producerBatch(3);
    setU32(b, B.messageCount, 0xffffffff);
    refreshBatchChecksum(b);
    const r = await analyze(b);
    expect(findings(r)).toEqual([{ code: "message-count-mismatch", severity: "error", start: 48, end: 52, batch: 0, frame: null }]);
    expect(r.batches.at(0)?.header?.messageCount).toBe(0xffffffff);
    expect(r.frames.start.length).toBe(3);
  });
});

describe("nothing and noise", () => {
  it("a 0-byte input: no batches, no diagnostics", async () => {
    const r = await analyze(new Uint8Array(0));
    expect(r.batches.toArray()).toEqual([]);
    expect(r.diagnostics).toEqual([]);
    expect(r.summary).toEqual({ batches: 0, frames: 0, errors: 0, warnings: 0, infos: 0 });
  });

  it("10 MB of zeros: batch_length 0 is too small and the walk stops", async () => {
    const r = await analyze(new Uint8Array(MB10));
    expect(findings(r)).toEqual([{ code: "batch-length-too-small", severity: "error", start: 32, end: 40, batch: 0, frame: null }]);
    expect(r.summary).toMatchObject({ batches: 1, frames: 0 });
  });

  it("10 MB of seeded random bytes: exactly the findings its first header and frame imply", async () => {
    const bytes = randomBytes(MB10, 0x1993);
    // What this seed produced (checked, so a different PRNG fails loudly here instead of testing something else):
    const batchLength = getU64(bytes, B.batchLength);
    const frameNeeds = 48 + getU32(bytes, 256 + F.payloadLength) + getU32(bytes, 256 + F.userHeadersLength);
    expect(batchLength > BigInt(MB10), "batch_length runs past the input").toBe(true);
    expect(256 + frameNeeds > MB10, "frame 0 does not fit").toBe(true);

    const want: Finding[] = [
      { code: "batch-truncated", severity: "error", start: 32, end: 40, batch: 0, frame: null },
      { code: "frame-truncated", severity: "error", start: 256, end: MB10, batch: 0, frame: 0 },
    ];
    for (let i = 52; i < 256;) {
      // each run of nonzero reserved bytes
      if (bytes[i] === 0) {
        i++;
        continue;
      }
      const s = i;
      while (i < 256 && bytes[i] !== 0) i++;
      want.push({ code: "batch-reserved-nonzero", severity: "error", start: s, end: i, batch: 0, frame: null });
    }
    if (bytes.subarray(256 + 40, 256 + 48).some((x) => x !== 0))
      want.push({ code: "frame-reserved-nonzero", severity: "error", start: 296, end: 304, batch: 0, frame: 0 });
    if (getU32(bytes, B.messageCount) !== 0) want.push({ code: "message-count-mismatch", severity: "error", start: 48, end: 52, batch: 0, frame: null });
    if (batchChecksum(bytes, 0, []) !== getU64(bytes, B.batchChecksum))
      want.push({ code: "batch-checksum-mismatch", severity: "error", start: 40, end: 48, batch: 0, frame: null });
    want.sort((x, y) => x.start - y.start || x.end - y.end);

    const r = await analyze(bytes);
    expect(findings(r)).toEqual(want);
    expect(r.summary).toMatchObject({ batches: 1, frames: 0, errors: want.length, warnings: 0, infos: 0 });
  });

  it("10 MB of frames that are all wrong: every finding is counted, the list is capped", async () => {
    const n = Math.floor((MB10 - 256) / 48);
    const bytes = new Uint8Array(256 + 48 * n); // every frame: empty, stored checksum 0 (wrong), offset_delta = its index
    setU64(bytes, B.batchLength, BigInt(bytes.length));
    setU32(bytes, B.messageCount, n);
    for (let i = 0; i < n; i++) setU32(bytes, 256 + 48 * i + F.offsetDelta, i);
    refreshBatchChecksum(
      bytes,
      0,
      Array.from({ length: n }, (_, i) => 256 + 48 * i),
    );
    const r = await analyze(bytes);
    expect(r.summary).toEqual({ batches: 1, frames: n, errors: n, warnings: 0, infos: 0 });
    expect(r.diagnostics).toHaveLength(200_000);
    expect(r.diagnosticsOmitted).toBe(n - 200_000);
    expect(r.diagnostics.every((d) => d.code === "frame-checksum-mismatch")).toBe(true);
    expect(toContractJson(r, bytes, "x", false).diagnosticsOmitted).toBe(n - 200_000);

    const small = await analyze(bytes.subarray(0, 256 + 48 * 100), { maxDiagnostics: 10 });
    expect(small.diagnostics).toHaveLength(10);
    expect(small.summary.errors).toBe(100 + 3); // 100 frames, and the cut batch: batch-truncated, its count and its checksum
    expect(small.diagnosticsOmitted).toBe(small.summary.errors - 10);
  });
});
