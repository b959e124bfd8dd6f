/** What a share link carries: scopes of real corpus files, the default on large links, and the cut-out part re-read as the page will. */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeWith } from "../../core/walk/analyze.ts";
import { decodeShareFragment, encodeShareFragment } from "../../lib/share-codec.ts";
import { cutScope, defaultScope, LARGE_LINK_BYTES, shareScopes } from "./share-scope.ts";
import { provenanceNote } from "./provenance.ts";
import { findings, xxh } from "../../../test/helpers.ts";
import { frameEnd } from "../../core/model/frame-columns.ts";
import { encodeBatch } from "../../core/walk/encode.ts";

const bytes = new Uint8Array(readFileSync(new URL("../../../test/fixtures/corpus/19-segment-4-batch2-bad-frame.bin", import.meta.url)));
const analysis = analyzeWith(xxh, bytes);

describe("share scopes", () => {
  it("offers the whole input, the selected frame's batch and the first problem's batch", () => {
    const f = analysis.frames;
    const frame = analysis.batches.firstFrame(1) + 1;
    const sel = { start: f.start[frame] as number, end: frameEnd(f, frame), batch: 1, frame };
    const scopes = shareScopes(analysis, sel);
    expect(scopes.map((s) => s.id).slice(0, 3)).toEqual(["whole", "selection", "first-problem"]);
    // Then only parts smaller than that batch, around the same problem.
    for (const s of scopes.slice(3)) {
      expect(["problem-frame-with-header", "problem-bytes"]).toContain(s.id);
      expect(s.end - s.start).toBeLessThan(scopes[2]!.end - scopes[2]!.start);
      expect(s.select).toEqual(scopes[2]!.select);
    }
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

  it("a batch too large for a tracker still offers a part around its problem whose link fits 64 KiB", () => {
    // 48 messages of 4 KiB of incompressible bytes in one batch (about 197 KiB), one payload byte of message 40 flipped.
    const big = encodeBatch(xxh, { messages: Array.from({ length: 48 }, () => ({ payload: new Uint8Array(randomBytes(4096)) })) });
    const a0 = analyzeWith(xxh, big);
    const target = a0.frames.start[40] as number;
    big[target + 48 + 100]! ^= 0x01;
    const a = analyzeWith(xxh, big);
    expect(findings(a).map((d) => d.code)).toEqual(["frame-checksum-mismatch"]);
    const scopes = shareScopes(a, null);
    const link = (id: string) => {
      const scope = scopes.find((s) => s.id === id)!;
      const cut = cutScope(big, scope);
      return encodeShareFragment({ name: "big.bin (part)", bytes: cut.bytes.slice(), selection: cut.selection });
    };
    expect(link("first-problem").length).toBeGreaterThan(LARGE_LINK_BYTES);
    const smallest = scopes[scopes.length - 1]!;
    expect(smallest.id).toBe("problem-bytes");
    expect(link(smallest.id).length).toBeLessThan(LARGE_LINK_BYTES);
    // It still holds the problem's bytes.
    expect(smallest.start).toBeLessThanOrEqual(a.diagnostics[0]!.start);
    expect(smallest.end).toBeGreaterThanOrEqual(a.diagnostics[0]!.end);
  });
});
