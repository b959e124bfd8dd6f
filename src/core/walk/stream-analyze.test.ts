/**
 * The kernel's batched walk (analyze() with our wasm XXH3, analyzeSource over small windows, and
 * ranges merged as a worker pool would) gives exactly the Analysis of the frame-by-frame reference
 * walk (test/reference-walk.ts, hash-wasm): on the whole public corpus, every sample, and seeded random, mutated and cut segments.
 */
import { referenceAnalyze } from "../../../test/reference-walk.ts";
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { analyzeSource, memorySource } from "./stream-analyze.ts";
import { analyzeWith } from "./analyze.ts";
import { compileKernel, createWasmKernel } from "../../checksum/kernel/wasm-kernel.ts";
import { encodeBatch } from "./encode.ts";
import { concat, prng } from "../../../test/helpers.ts";
import { BATCH_CODES, CORPUS, DROP_RULES, expectSameEverywhere, kernel, randomSegment, reference, SAMPLE_BYTES } from "./walk-compare.test-util.ts";

describe("the kernel walk equals the frame-by-frame reference", () => {
  it("on every file of the public corpus (also behind an envelope, and with 1 or 2 diagnostics kept)", () => {
    const files = readdirSync(CORPUS).filter((f) => f.endsWith(".bin"));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const bytes = new Uint8Array(readFileSync(new URL(file, CORPUS)));
      expectSameEverywhere(bytes, file);
      expectSameEverywhere(concat([new Uint8Array(16).fill(7), bytes]), `${file} after 16 bytes`, 16);
      expectSameEverywhere(bytes, `${file} keeping 1`, 0, 1);
      expectSameEverywhere(bytes, `${file} keeping 2`, 0, 2);
    }
  });

  it("on seeded random segments: mutated bytes, cut ends, bad lengths, user headers, several partitions", () => {
    const rand = prng(20251201);
    const int = (n: number): number => Math.floor(rand() * n);
    const seen = new Set<string>();
    for (let round = 0; round < 400; round++) {
      const bytes = randomSegment(int);
      const want = expectSameEverywhere(bytes, `round ${round}`, int(5) === 0 ? int(40) : 0, int(5) === 0 ? 1 + int(4) : undefined);
      // The containers' rules (segment, poll reply, SendMessages) drop the same findings on every route.
      const rule = DROP_RULES[round % DROP_RULES.length];
      const dropped = expectSameEverywhere(bytes, `round ${round} with a container's rule`, 0, undefined, rule);
      expect(dropped.summary.errors + dropped.summary.warnings + dropped.summary.infos).toBeLessThanOrEqual(referenceAnalyze(bytes).diagnostics.length);
      for (const d of want.diagnostics)
        seen.add(d.code === "frame-truncated" ? `${d.code} (header ${d.message.includes("header needs") ? "cut" : "whole"})` : d.code);
    }
    // The rounds reach every code (and both kinds of cut frame), so no branch of the walk goes untested.
    expect([...seen].sort()).toEqual(
      [...BATCH_CODES.filter((c) => c !== "frame-truncated"), "frame-truncated (header cut)", "frame-truncated (header whole)"].sort(),
    );
  });

  it("on every sample of the menu, alone and between valid batches", () => {
    const valid = encodeBatch(reference, { originTimestamp: 1_700_000_000_000_000n, messages: [{ payload: "a" }, { payload: "b" }] });
    SAMPLE_BYTES.forEach((bytes, i) => {
      expectSameEverywhere(bytes, `sample ${i}`);
      expectSameEverywhere(concat([valid, bytes, valid]), `sample ${i} between valid batches`, 0, 1);
    });
  });

  it("is the same walk in the kernel built without SIMD (what engines without wasm SIMD run)", async () => {
    const plain = await createWasmKernel(await compileKernel(false));
    const rand = prng(7);
    const int = (n: number): number => Math.floor(rand() * n);
    const inputs = [
      ...readdirSync(CORPUS)
        .filter((f) => f.endsWith(".bin"))
        .map((f) => new Uint8Array(readFileSync(new URL(f, CORPUS)))),
      ...SAMPLE_BYTES,
    ];
    for (let round = 0; round < 40; round++) inputs.push(randomSegment(int));
    inputs.forEach((bytes, i) => expect(analyzeWith(plain, bytes), `input ${i}`).toEqual(referenceAnalyze(bytes)));
  });

  it("walks a batch larger than the window by growing it, and an input with no batch at all", () => {
    const big = encodeBatch(reference, { messages: [{ payload: new Uint8Array(70_000).fill(3) }, { payload: "x" }] });
    expect(analyzeSource(kernel, memorySource(big), { windowBytes: 4096 })).toEqual(referenceAnalyze(big));
    for (const n of [0, 1, 255]) expectSameEverywhere(new Uint8Array(n), `${n} zero bytes`);
  });
});
