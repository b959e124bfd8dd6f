/** The capture fuzzer on a few hundred mutated corpus captures: no throw, valid codes and ranges, dense message indexes; and `npm run fuzz` runs it. */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { captureCase, fuzzCaptures, loadCaptures } from "./fuzz-capture.ts";

describe("capture fuzzer", () => {
  it("300 mutated captures open without a throw or a broken invariant", async () => {
    const corpus = loadCaptures();
    expect(corpus.length).toBeGreaterThanOrEqual(10);
    expect(fuzzCaptures(await loadXxh3(), corpus, 300, 7)).toEqual([]);
  });

  it("seed 2, case 6020: a retransmission that differs inside an earlier message is placed in that message, not before the current one", async () => {
    // Found by `npm run fuzz -- --reader capture --seed 2`: tcp-retransmission-differs at -602..-468.
    expect(captureCase(await loadXxh3(), loadCaptures(), 2, 6020).problems).toEqual([]);
  });

  it("is a reader of scripts/fuzz.ts: `--reader capture` runs it and reports its count", () => {
    const r = spawnSync(process.execPath, ["bin/run-ts.mjs", "scripts/fuzz.ts", "--reader", "capture", "--count", "40", "--seed", "3"], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^fuzz capture: 40 inputs \(seed 3, \d+ seed inputs, [\d.]+ MiB\) in [\d.]+ s: [\d,]+ inputs\/s, 0 failures$/m);
  });
});
