/** "Stamp as server" proposes a partition and offset from the batches around, not a fixed 1 / 0. */
import { describe, expect, it } from "vitest";
import { concat, producerBatch, stampedBatch, xxh } from "../../../test/helpers.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { stampDefaults } from "./stamp-defaults.ts";

describe("stampDefaults", () => {
  const stamped = stampedBatch(3, { partitionId: 7n, baseOffset: 100n, baseTimestamp: 1_764_420_000_000_000n });
  it("a stamped batch keeps its own stamp", () => {
    expect(stampDefaults(analyzeWith(xxh, stamped), 0)).toMatchObject({ partitionId: 7n, baseOffset: 100n });
  });
  it("a producer batch after a stamped one continues it", () => {
    expect(stampDefaults(analyzeWith(xxh, concat([stamped, producerBatch(2)])), 1)).toMatchObject({ partitionId: 7n, baseOffset: 103n });
  });
  it("a producer batch before a stamped one precedes it", () => {
    expect(stampDefaults(analyzeWith(xxh, concat([producerBatch(2), stamped])), 0)).toMatchObject({ partitionId: 7n, baseOffset: 98n });
  });
  it("alone, it says it guessed", () => {
    expect(stampDefaults(analyzeWith(xxh, producerBatch(2)), 0).why).toMatch(/no stamped batch/);
  });
});
