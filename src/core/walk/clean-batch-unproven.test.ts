/**
 * The fast path with a batch check that has no proof (walk-checks.ts, proof null): the batch checksum row
 * loses its proof here, so the fast path must build the batch's context and run that row itself, keep
 * clearing clean batches, and still leave every batch the row finds something in to the full path.
 */
import { describe, expect, it, vi } from "vitest";
import { prng } from "../../../test/helpers.ts";
import { BatchTableBuilder } from "../model/batch-table-build.ts";
import { encodeBatch, stampBatch } from "./encode.ts";
import { UNPROVEN_BATCH_CHECKS, type BatchCheck } from "./walk-checks.ts";
import { concat } from "../../../test/helpers.ts";
import { expectSameEverywhere, randomSegment, reference, SAMPLE_BYTES } from "./walk-compare.test-util.ts";

vi.mock("./walk-checks.ts", async (importOriginal) => {
  const real = await importOriginal<{ BATCH_CHECKS: readonly BatchCheck[] }>();
  const checks = real.BATCH_CHECKS.map((c) => (c.code === "batch-checksum-mismatch" ? { ...c, proof: null } : c));
  return { ...real, BATCH_CHECKS: checks, UNPROVEN_BATCH_CHECKS: checks.filter((c) => c.proof === null) };
});

const batch = (b: number): Uint8Array =>
  stampBatch(reference, encodeBatch(reference, { originTimestamp: 1n, messages: [{ payload: `m${b}` }] }), {
    partitionId: 1n,
    baseOffset: BigInt(b),
    baseTimestamp: 10n + BigInt(b),
  });

describe("a batch check without a fast-path proof", () => {
  it("is the one the mock made so", () => {
    expect(UNPROVEN_BATCH_CHECKS.map((c) => c.code)).toEqual(["batch-checksum-mismatch"]);
  });

  it("runs on the fast path, which still clears clean batches and leaves a broken one to the full path", () => {
    const push = vi.spyOn(BatchTableBuilder.prototype, "pushClean");
    try {
      const batches = Array.from({ length: 50 }, (_, b) => batch(b));
      batches[30]![40]! ^= 1; // batch 30's stored batch_checksum
      const want = expectSameEverywhere(concat(batches), "50 batches, one with a wrong batch checksum");
      expect(want.diagnostics.map((d) => `${d.code} ${d.batch}`)).toEqual(["batch-checksum-mismatch 30"]);
      expect(push.mock.calls.length).toBeGreaterThan(9 * 40);
    } finally {
      push.mockRestore();
    }
  });

  it("gives the reference's analysis on every sample and seeded random segments", () => {
    SAMPLE_BYTES.forEach((bytes, i) => expectSameEverywhere(bytes, `sample ${i}`));
    const rand = prng(0xba7c4);
    const int = (n: number): number => Math.floor(rand() * n);
    for (let round = 0; round < 60; round++) expectSameEverywhere(randomSegment(int), `round ${round}`);
  });
});
