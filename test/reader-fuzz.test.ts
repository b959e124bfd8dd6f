/**
 * The container readers' fuzzer in the unit suite (test/reader-fuzz.ts): a fixed seed, a short run of
 * mutated inputs per reader, each decoded and checked against the invariants; `npm run fuzz -- --reader NAME`
 * runs the same loop for longer.
 */
import { describe, expect, it } from "vitest";
import { xxh } from "./helpers.ts";
import { openInputWith } from "../src/core/containers/index.ts";
import { READERS, openedViolations, readerFuzzer } from "./reader-fuzz.ts";

const RUNS: Record<(typeof READERS)[number], number> = { index: 1500, poll: 1500, send: 1500, consensus: 1500, legacy: 1500, partition: 300 };

describe("fuzz: mutated inputs through every container reader", () => {
  for (const reader of READERS) {
    it(`${reader}: ${RUNS[reader]} inputs (seed 22), no throw, no broken invariant`, async () => {
      const fuzzer = readerFuzzer(reader, xxh, 22);
      expect(fuzzer.seeds).toBeGreaterThan(2);
      const failures: string[] = [];
      for (let i = 0; i < RUNS[reader]; i++) {
        const c = await fuzzer.next(i);
        if (c.problems.length) failures.push(`${c.what}: ${c.problems.join("; ")}`);
      }
      expect(failures.slice(0, 5)).toEqual([]);
    });
  }

  it("the container invariants catch a reader that breaks them (the checker is not vacuous)", () => {
    const bytes = new Uint8Array(100);
    const o = openInputWith(xxh, bytes, { format: "legacy-messages" });
    const broken = { ...o, container: { format: "legacy-messages" as const, start: 0, end: 101, fields: [] } };
    expect(openedViolations(broken, 100, "legacy-messages").join()).toMatch(/container 0\.\.101 outside/);
    expect(openedViolations(o, 100, "poll-reply").join()).toMatch(/asked for poll-reply/);
  });
});

describe("inputs the reader fuzzer found", () => {
  it("send: metadata_length that ends where messages_count should start marks metadata_length, a range that runs forward (case 975595, seed 1)", () => {
    const b = new Uint8Array(
      Buffer.from(
        "FAAAAAIGb3JkZXJzAQQCAAAAAgQDAAAAAwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADItKvNRAYAegEAAAAAAAD7pCJfB3/FTwIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "base64",
      ),
    );
    const o = openInputWith(xxh, b, { format: "send-messages" });
    expect(openedViolations(o, b.length, "send-messages")).toEqual([]);
    expect(o.analysis.diagnostics.find((d) => d.code === "send-metadata-invalid")).toMatchObject({ start: 0, end: 4 });
  });
});
