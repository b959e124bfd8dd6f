/** A batch of a file read on demand, read alone for Compare: its diff rows are the ones the whole input in memory gives. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeWith } from "../../core/walk/analyze.ts";
import { diffBatches } from "../../core/view/diff.ts";
import { fileBytes } from "../../lib/input-bytes.ts";
import { readBatch } from "./on-demand-batch.ts";
import { xxh } from "../../../test/helpers.ts";

const bytes = new Uint8Array(readFileSync(new URL("../../../test/fixtures/corpus/19-segment-4-batch2-bad-frame.bin", import.meta.url)));
const analysis = analyzeWith(xxh, bytes);

describe("readBatch", () => {
  it("compares batches read alone as the whole input compares them (values, and spans once moved by where each batch starts)", async () => {
    const source = fileBytes(new Blob([bytes]), { pageBytes: 128, maxPages: 4 });
    for (const [l, r] of [
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 3],
    ] as const) {
      const whole = diffBatches({ bytes, analysis, batch: l }, { bytes, analysis, batch: r });
      const left = await readBatch(xxh, source, analysis, l);
      const right = await readBatch(xxh, source, analysis, r);
      expect(left.base).toBe(analysis.batches.start(l));
      expect(left.ref.bytes).toEqual(bytes.slice(analysis.batches.start(l), analysis.batches.end(l)));
      const alone = diffBatches(left.ref, right.ref);
      expect(alone.map((row) => [row.scope, row.field, row.left, row.right, row.same])).toEqual(
        whole.map((row) => [row.scope, row.field, row.left, row.right, row.same]),
      );
    }
  });

  it("says when there is no such batch", async () => {
    await expect(readBatch(xxh, fileBytes(new Blob([bytes])), analysis, 9)).rejects.toThrow("there is no batch 9");
  });
});
