/** The capture fuzzer on a few hundred mutated corpus captures: no throw, valid codes and ranges, dense message indexes. */
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { fuzzCaptures, loadCaptures } from "./fuzz-capture.ts";

describe("capture fuzzer", () => {
  it("300 mutated captures open without a throw or a broken invariant", async () => {
    const corpus = loadCaptures();
    expect(corpus.length).toBeGreaterThanOrEqual(10);
    expect(fuzzCaptures(await loadXxh3(), corpus, 300, 7)).toEqual([]);
  });
});
