import { describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { encodeBatch, stampBatch } from "./encode.ts";
import { BatchTableBuilder } from "../model/batch-table-build.ts";
import { expectSameEverywhere, reference } from "./walk-compare.test-util.ts";
import { concat } from "../../../test/helpers.ts";

const T0 = 1_800_000_000_000_000n;

/** One batch as a step of a generated segment: which partition, and what breaks (if anything). */
interface Step {
  readonly partition: bigint;
  readonly messages: number;
  /** Added to the base_offset the chain expects. */
  readonly offsetSkew: bigint;
  /** Added to a base_timestamp that otherwise moves forward. */
  readonly timestampSkew: bigint;
  readonly stamped: boolean;
  /** No frame with timestamp_delta 0 (origin-not-earliest). */
  readonly noZeroDelta: boolean;
  /** The base_timestamp itself, in place of the one that moves forward. */
  readonly timestamp?: bigint;
}

/** Stamped batches with valid checksums, chained per partition from `firstOffset`, as the steps say. */
function segmentOf(steps: readonly Step[], firstOffset = 0n, firstTimestamp = T0): Uint8Array {
  const next = new Map<bigint, bigint>();
  return concat(
    steps.map((s, b) => {
      const messages = Array.from({ length: s.messages }, (_, k) => ({ payload: `m${b}.${k}`, timestampDelta: s.noZeroDelta ? k + 1 : k }));
      const producer = encodeBatch(reference, { originTimestamp: 1_700_000_000_000_000n, messages });
      const offset = next.get(s.partition) ?? firstOffset;
      next.set(s.partition, offset + BigInt(s.messages));
      if (!s.stamped) return producer;
      return stampBatch(reference, producer, {
        partitionId: s.partition,
        baseOffset: offset + s.offsetSkew,
        baseTimestamp: s.timestamp ?? firstTimestamp + BigInt(b) * 1000n + s.timestampSkew,
      });
    }),
  );
}

const clean = (partition: bigint, messages = 1): Step => ({ partition, messages, offsetSkew: 0n, timestampSkew: 0n, stamped: true, noZeroDelta: false });
const many = (n: number, step: (i: number) => Step): Step[] => Array.from({ length: n }, (_, i) => step(i));

describe("the kernel walk's clean-batch path", () => {
  it("takes every clean single-message batch but a partition's first without a header object", () => {
    const push = vi.spyOn(BatchTableBuilder.prototype, "pushClean");
    try {
      const a = expectSameEverywhere(segmentOf(many(300, () => clean(7n))), "300 clean batches");
      expect(a.summary).toMatchObject({ batches: 300, errors: 0, warnings: 0, infos: 0 });
      // expectSameEverywhere walks the bytes in nine kernel routes; each range's first batch of a partition takes the full path.
      expect(push.mock.calls.length).toBeGreaterThan(9 * 290);
    } finally {
      push.mockRestore();
    }
  });

  it("leaves every finding among clean batches to the full path", () => {
    const broken: Array<[string, (i: number) => Step]> = [
      ["an offset gap", (i) => ({ ...clean(1n, 2), offsetSkew: i >= 40 ? 3n : 0n })],
      ["a timestamp going back", (i) => ({ ...clean(1n), timestampSkew: i === 40 ? -5000n : 0n })],
      ["no timestamp_delta 0", (i) => ({ ...clean(1n, 2), noZeroDelta: i === 40 })],
      ["two partitions in turn, one with a gap", (i) => ({ ...clean(BigInt(i % 2), 1), offsetSkew: i % 2 === 1 && i > 30 ? 1n : 0n })],
      ["producer batches between stamped ones", (i) => ({ ...clean(2n), stamped: i % 5 !== 0 })],
      ["a partition id past 2^32", () => clean(0x1_0000_0003n)],
    ];
    for (const [label, step] of broken) {
      const a = expectSameEverywhere(segmentOf(many(80, step)), label);
      if (label !== "a partition id past 2^32" && label !== "producer batches between stamped ones")
        expect(a.summary.errors + a.summary.warnings + a.summary.infos, label).toBeGreaterThan(0);
    }
  });

  it("agrees with the reference where offsets and timestamps pass 2^52", () => {
    for (const [firstOffset, firstTimestamp] of [
      [2n ** 52n - 40n, T0],
      [2n ** 53n + 7n, T0],
      [0n, 2n ** 52n - 20_000n],
      [2n ** 64n - 100n, 2n ** 63n],
    ] as const) {
      const label = `offsets from ${firstOffset}, timestamps from ${firstTimestamp}`;
      const a = expectSameEverywhere(
        segmentOf(
          many(60, () => clean(5n)),
          firstOffset,
          firstTimestamp,
        ),
        label,
      );
      expect(a.summary.errors, label).toBe(0);
    }
    // 2^53 + 1 and 2^53 are one float: a regression of 1 there is seen only with exact values.
    const steps = many(40, (i) => ({ ...clean(5n), timestamp: i < 20 ? T0 + BigInt(i) : i === 20 ? 2n ** 53n + 1n : 2n ** 53n + BigInt(i - 21) }));
    const a = expectSameEverywhere(segmentOf(steps), "a timestamp regression of 1 past 2^53");
    expect(a.diagnostics.map((d) => `${d.code} ${d.batch}`)).toEqual(["timestamp-regression 21"]);
  });

  it("gives the reference's analysis for random runs of clean and broken batches", () => {
    const step = fc.record({
      partition: fc.bigInt({ min: 0n, max: 2n }),
      messages: fc.integer({ min: 0, max: 3 }),
      offsetSkew: fc.oneof({ weight: 6, arbitrary: fc.constant(0n) }, { weight: 1, arbitrary: fc.bigInt({ min: -2n, max: 2n }) }),
      timestampSkew: fc.oneof({ weight: 6, arbitrary: fc.constant(0n) }, { weight: 1, arbitrary: fc.bigInt({ min: -3000n, max: 0n }) }),
      stamped: fc.boolean().map((b) => b || Math.random() < 0.7),
      noZeroDelta: fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        expectSameEverywhere(segmentOf(steps), "random steps");
      }),
      { numRuns: 60, seed: 20261201 },
    );
  });
});
