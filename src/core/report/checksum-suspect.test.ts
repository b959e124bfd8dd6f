/** Which side of a checksum mismatch is suspect, on batches broken in each way by byte surgery. */
import { describe, expect, it } from "vitest";
import { B, F, producerBatch, refreshBatchChecksum, setU64, stampedBatch, xxh } from "../../../test/helpers.ts";
import type { DiagnosticCode } from "../../format/diagnostics.ts";
import { checksumSuspect } from "./checksum-suspect.ts";
import { analyzeWith } from "../walk/analyze.ts";

const F0 = 256;
const suspectOf = (bytes: Uint8Array, code: DiagnosticCode) => {
  const a = analyzeWith(xxh, bytes);
  const d = a.diagnostics.find((x) => x.code === code);
  expect(d, code).toBeDefined();
  return checksumSuspect(a, d!, { xxh3: xxh, bytes });
};

describe("checksumSuspect", () => {
  it("a payload byte changed after hashing: the batch checksum still matches, so the frame's bytes are suspect", () => {
    const b = producerBatch(2);
    b[F0 + 48 + 2]! ^= 0x01;
    expect(suspectOf(b, "frame-checksum-mismatch")).toMatch(/batch checksum still matches.*frame's bytes .*changed after the producer hashed them/);
  });

  it("the stored frame checksum changed: both fail, and the stored checksum is suspect", () => {
    const b = producerBatch(2);
    b[F0 + F.checksum]! ^= 0x01;
    const a = analyzeWith(xxh, b);
    expect(a.diagnostics.map((d) => d.code).sort()).toEqual(["batch-checksum-mismatch", "frame-checksum-mismatch"]);
    expect(suspectOf(b, "frame-checksum-mismatch")).toMatch(/batch checksum fails too.*stored checksum/);
    expect(suspectOf(b, "batch-checksum-mismatch")).toMatch(/1 frame checksum of this batch also fails/);
  });

  it("a header field changed, every frame verifies: the header is suspect", () => {
    const b = producerBatch(2);
    b[B.originTimestamp]! ^= 0x01;
    expect(suspectOf(b, "batch-checksum-mismatch")).toMatch(/Every frame verifies, so the payloads are intact/);
  });

  it("stamped without re-hashing: the stored batch_checksum is the producer's", () => {
    const producer = producerBatch(2);
    const b = producer.slice();
    setU64(b, B.partitionId, 3n);
    setU64(b, B.baseOffset, 100n);
    setU64(b, B.baseTimestamp, 1_764_420_000_000_000n);
    expect(suspectOf(b, "batch-checksum-mismatch")).toMatch(/stamped without re-computing batch_checksum/);
    // The near miss: a stamped batch whose header changed after a proper stamp is not called unstamped.
    const stamped = stampedBatch(2, { baseOffset: 100n, baseTimestamp: 1_764_420_000_000_000n });
    stamped[B.originTimestamp]! ^= 1;
    expect(suspectOf(stamped, "batch-checksum-mismatch")).not.toMatch(/stamped without/);
    refreshBatchChecksum(stamped);
    expect(analyzeWith(xxh, stamped).diagnostics).toEqual([]);
  });

  it("says nothing for other codes", () => {
    const b = producerBatch(2);
    b[B.reserved + 3] = 1;
    const a = analyzeWith(xxh, b);
    expect(a.diagnostics.length).toBeGreaterThan(0);
    for (const d of a.diagnostics) expect(checksumSuspect(a, d)).toBeNull();
  });
});
