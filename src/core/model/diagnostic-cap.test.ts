import { describe, expect, it } from "vitest";
import { diagnostic } from "../../format/diagnostics.ts";
import { DiagnosticKeeper } from "./diagnostic-cap.ts";

const frameFinding = (start: number, batch = 0) => diagnostic("frame-checksum-mismatch", start, start + 8, batch, 0, "x");

describe("DiagnosticKeeper", () => {
  it("keeps the first by position across compactions of one batch's out-of-order findings", () => {
    const keeper = new DiagnosticKeeper(5);
    // 3000 findings in one batch, emitted back to front: compaction runs several times.
    for (let i = 3000; i > 0; i--) keeper.add(frameFinding(i * 10));
    keeper.endBatch();
    keeper.add(frameFinding(5, 1)); // a later batch cannot hold earlier bytes, so this is past the kept ones in practice
    keeper.add(diagnostic("batch-truncated", 99_999, 100_007, 1, null, "y"));
    const { diagnostics, omitted } = keeper.finish();
    expect(diagnostics.map((d) => d.start)).toEqual([10, 20, 30, 40, 99_999]);
    expect(omitted).toBe(3000 + 1 - 4);
  });

  it("keeps every batch-level finding even past the cap", () => {
    const keeper = new DiagnosticKeeper(1);
    keeper.add(frameFinding(300));
    keeper.add(diagnostic("header-truncated", 0, 100, 0, null, "a"));
    keeper.add(diagnostic("batch-checksum-mismatch", 40, 48, 0, null, "b"));
    keeper.endBatch();
    const { diagnostics, omitted } = keeper.finish();
    expect(diagnostics.map((d) => d.code)).toEqual(["header-truncated", "batch-checksum-mismatch"]);
    expect(omitted).toBe(1);
  });
});
