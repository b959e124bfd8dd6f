/** What a share link carries: scopes of real corpus files, the default on large links, and the cut-out part re-read as the page will. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeWith } from "../../core/analyze.ts";
import { decodeShareFragment, encodeShareFragment } from "../../lib/share-codec.ts";
import { cutScope, defaultScope, LARGE_LINK_BYTES, shareScopes } from "./share-scope.ts";
import { provenanceNote } from "./provenance.ts";
import { findings, xxh } from "../../../test/helpers.ts";
import { frameEnd } from "../../core/frame-columns.ts";

const bytes = new Uint8Array(readFileSync(new URL("../../../test/fixtures/corpus/19-segment-4-batch2-bad-frame.bin", import.meta.url)));
const analysis = analyzeWith(xxh, bytes);

describe("share scopes", () => {
  it("offers the whole input, the selected frame's batch and the first problem's batch", () => {
    const f = analysis.frames;
    const frame = analysis.batches.firstFrame(1) + 1;
    const sel = { start: f.start[frame] as number, end: frameEnd(f, frame), batch: 1, frame };
    const scopes = shareScopes(analysis, sel);
    expect(scopes.map((s) => s.id)).toEqual(["whole", "selection", "first-problem"]);
    expect(scopes[1]!.label).toBe("Selected frame 1 (in batch 1)");
    expect([scopes[1]!.start, scopes[1]!.end]).toEqual([analysis.batches.start(1), analysis.batches.end(1)]);
    expect(scopes[2]!.label).toBe("Batch 1, around the first problem (frame-checksum-mismatch at 0x3b5)");
  });

  it("a byte range over two batches takes both, and names itself by its bytes", () => {
    const b = analysis.batches.toArray();
    const s = shareScopes(analysis, { start: b[1]!.end - 4, end: b[2]!.start + 4, batch: 1, frame: -1 }).find((x) => x.id === "selection")!;
    expect(s.label).toBe(`Selected bytes 0x${(b[1]!.end - 4).toString(16)}..0x${(b[2]!.start + 4).toString(16)} (in batches 1–2)`);
    expect([s.start, s.end, s.partName]).toEqual([b[1]!.start, b[2]!.end, "batches 1–2"]);
  });

  it("defaults to the whole input while its link is short, else to the selection, else to the first problem", () => {
    const withSel = shareScopes(analysis, { start: analysis.batches.start(3), end: analysis.batches.end(3), batch: 3, frame: -1 });
    const noSel = shareScopes(analysis, null);
    expect(defaultScope(withSel, 5000)!.id).toBe("whole");
    expect(defaultScope(withSel, LARGE_LINK_BYTES + 1)!.id).toBe("selection");
    expect(defaultScope(noSel, LARGE_LINK_BYTES + 1)!.id).toBe("first-problem");
  });

  it("the first problem's batch, cut out and carried by a link, opens with the problem selected and the same finding", () => {
    const scope = shareScopes(analysis, null).find((s) => s.id === "first-problem")!;
    const cut = cutScope(bytes, scope);
    const link = encodeShareFragment({
      name: "19.bin (batch 1)",
      bytes: cut.bytes.slice(),
      selection: cut.selection,
      part: { start: scope.start, end: scope.end, size: bytes.length, sha256: "ab".repeat(32) },
    });
    const opened = decodeShareFragment(link)!;
    expect(opened.selection).toEqual({ start: 0x3b5 - scope.start, end: 0x3bd - scope.start });
    expect(opened.part).toEqual({ start: scope.start, end: scope.end, size: bytes.length, sha256: "ab".repeat(32) });
    const again = analyzeWith(xxh, opened.bytes);
    expect(findings(again).map((d) => [d.code, d.start + scope.start, d.end + scope.start])).toEqual([["frame-checksum-mismatch", 0x3b5, 0x3bd]]);
    expect(provenanceNote(opened)).toBe(
      `Part of SHA-256 ${"ab".repeat(32)}: bytes 0x${scope.start.toString(16)}..0x${scope.end.toString(16)} of a 2,493-byte input.`,
    );
  });

  it("a link carries the original's SHA-256 when redacted, and drops a malformed one", () => {
    const sha = "cd".repeat(32);
    const opened = decodeShareFragment(encodeShareFragment({ name: "x", bytes, selection: null, redacted: { originalSha256: sha, what: "payloads" } }))!;
    expect(opened.redacted).toEqual({ originalSha256: sha, what: "payloads" });
    expect(provenanceNote(opened)).toBe(
      `Redacted copy of SHA-256 ${sha}: payloads were replaced and the checksums re-made, so the findings are the original's.`,
    );
    const bad = decodeShareFragment(encodeShareFragment({ name: "x", bytes, selection: null, redacted: { originalSha256: "<script>", what: "payloads" } }))!;
    expect(bad.redacted).toBeUndefined();
    expect(provenanceNote(bad)).toBeNull();
  });
});
