/**
 * The kernel walk's path for a frame check the kernel does not flag (walk-checks.ts, kernelFlag null):
 * the user-headers check is made JavaScript-only here and widened to also fire on every 7-byte payload,
 * which the kernel knows nothing of, so the kernel walk must run it on every frame itself (the fast path
 * too), set those frames' flags, and still give exactly the reference walk's Analysis.
 */
import { describe, expect, it, vi } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { prng } from "../../../test/helpers.ts";
import { FRAME_CHECKS, JS_ONLY_FRAME_CHECKS, type FrameCheck } from "./walk-checks.ts";
import { CORPUS, expectSameEverywhere, randomSegment, reference, SAMPLE_BYTES } from "./walk-compare.test-util.ts";
import { BatchTableBuilder } from "../model/batch-table-build.ts";
import { encodeBatch, stampBatch } from "./encode.ts";
import { concat } from "../../../test/helpers.ts";

vi.mock("./walk-checks.ts", async (importOriginal) => {
  const PAYLOAD_AT = (await import("../../format/fields.ts")).FRAME_FIELD.payload_length.offset;
  const real = await importOriginal<{ FRAME_CHECKS: readonly FrameCheck[] }>();
  const widened = (c: FrameCheck): FrameCheck => ({
    ...c,
    kernelFlag: null,
    check: (f) =>
      c.check(f) ??
      (f.r.u32(f.at + PAYLOAD_AT) === 7 ? { start: f.base + f.at + PAYLOAD_AT, end: f.base + f.at + PAYLOAD_AT + 4, message: "a 7-byte payload" } : null),
  });
  const checks = real.FRAME_CHECKS.map((c) => (c.code === "user-headers-malformed" ? widened(c) : c));
  return { ...real, FRAME_CHECKS: checks, JS_ONLY_FRAME_CHECKS: checks.filter((c) => c.kernelFlag === null) };
});

describe("a frame check only JavaScript knows", () => {
  it("is the one the mock made so", () => {
    expect(JS_ONLY_FRAME_CHECKS.map((c) => c.code)).toContain("user-headers-malformed");
    expect(FRAME_CHECKS.find((c) => c.code === "user-headers-malformed")?.kernelFlag).toBeNull();
  });

  it("keeps the fast path for batches it finds nothing in, and leaves a batch it finds something in to the full path", () => {
    const push = vi.spyOn(BatchTableBuilder.prototype, "pushClean");
    try {
      const batch = (b: number, payload: string): Uint8Array =>
        stampBatch(reference, encodeBatch(reference, { originTimestamp: 1n, messages: [{ payload }] }), {
          partitionId: 1n,
          baseOffset: BigInt(b),
          baseTimestamp: 10n + BigInt(b),
        });
      const bytes = concat(Array.from({ length: 50 }, (_, b) => batch(b, b === 30 ? "seven!!" : "six!!!")));
      const want = expectSameEverywhere(bytes, "50 clean batches, one with a 7-byte payload");
      expect(want.diagnostics.map((d) => `${d.batch} ${d.message}`)).toEqual(["30 a 7-byte payload"]);
      // Nine routes (expectSameEverywhere); per route, the first batch of each range and batch 30 take the full path.
      expect(push.mock.calls.length).toBeGreaterThan(9 * 40);
    } finally {
      push.mockRestore();
    }
  });

  it("gives the reference's findings and flags on the corpus, every sample and seeded random segments", () => {
    for (const file of readdirSync(CORPUS).filter((f) => f.endsWith(".bin"))) expectSameEverywhere(new Uint8Array(readFileSync(new URL(file, CORPUS))), file);
    SAMPLE_BYTES.forEach((bytes, i) => expectSameEverywhere(bytes, `sample ${i}`));
    const rand = prng(0x5eed);
    const int = (n: number): number => Math.floor(rand() * n);
    let malformed = 0;
    let sevens = 0;
    for (let round = 0; round < 150; round++) {
      const want = expectSameEverywhere(randomSegment(int), `round ${round}`, 0, int(5) === 0 ? 1 + int(4) : undefined);
      malformed += want.diagnostics.filter((d) => d.code === "user-headers-malformed" && d.message !== "a 7-byte payload").length;
      sevens += want.diagnostics.filter((d) => d.message === "a 7-byte payload").length;
    }
    // The rounds reach both halves of the check, so the path above was walked with findings, not only without.
    expect(malformed).toBeGreaterThan(5);
    expect(sevens).toBeGreaterThan(5);
  });
});
