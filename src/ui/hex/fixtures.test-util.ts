/** Inputs for the hex map's unit tests: the spec's golden batch and corpus files, analysed. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../../core/walk/analyze.ts";
import { encodeBatch } from "../../core/walk/encode.ts";
import type { Analysis } from "../../core/model/model.ts";

/** An analysed input. */
export interface TestInput {
  readonly bytes: Uint8Array;
  readonly analysis: Analysis;
}

const xxh = await loadXxh3();

/** Analyses bytes. */
export function analysed(bytes: Uint8Array): TestInput {
  return { bytes, analysis: analyzeWith(xxh, bytes) };
}

/**
 * The golden batch of batch-format.md (396 bytes): frame 0 at 256..317 (payload 304..317),
 * frame 1 at 317..396 (payload 365..379, user headers 379..396).
 */
export function goldenBatch(): Uint8Array {
  return encodeBatch(xxh, {
    originTimestamp: 1000n,
    messages: [
      { id: 7n, payload: "first-payload" },
      { id: 8n, timestampDelta: 50, payload: "second-payload", userHeaders: new TextEncoder().encode("user-header-bytes") },
    ],
  });
}

/** A corpus vector from test/fixtures/corpus. */
export function corpus(name: string): TestInput {
  const path = fileURLToPath(new URL(`../../../test/fixtures/corpus/${name}`, import.meta.url));
  return analysed(new Uint8Array(readFileSync(path)));
}
