/** The SVG layout diagram of a header: well-formed, one box per field of the table with its name and value, captioned, marks on the fields a finding touches. */
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { analyzeWith } from "../walk/analyze.ts";
import { renderLayoutSvg, type DiagramTarget } from "./render-diagram.ts";
import { LIGHT_PALETTE } from "../view/palette.ts";
import { BATCH_HEADER_FIELDS, FRAME_HEADER_FIELDS } from "../../format/fields.ts";
import { allElements, parseXml, type XmlElement } from "../../../test/xml-wellformed.ts";
import { xxh } from "../../../test/helpers.ts";

const corpus = (f: string) => new Uint8Array(readFileSync(new URL(`../../../test/fixtures/corpus/${f}`, import.meta.url)));
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const textOf = (e: XmlElement): string => [e.text, ...e.children.map(textOf)].join("");

function diagram(file: string, target: DiagramTarget, name = file) {
  const bytes = corpus(file);
  const analysis = analyzeWith(xxh, bytes);
  const svg = renderLayoutSvg(analysis, bytes, { name, sha256: sha(bytes), target, palette: LIGHT_PALETTE });
  const root = parseXml(svg);
  const all = allElements(root);
  return {
    bytes,
    analysis,
    root,
    title: all.find((e) => e.name === "title")!.text,
    fields: all.filter((e) => e.name === "g" && e.attrs.class === "field"),
    marks: all.filter((e) => e.attrs.class?.split(" ").includes("mark")),
  };
}

describe("renderLayoutSvg", () => {
  it("draws the frame header of 11-frame-checksum-mismatch.bin with one box per field and a mark on its checksum", () => {
    const FILE = "11-frame-checksum-mismatch.bin";
    const { bytes, analysis, root, title, fields, marks } = diagram(FILE, { kind: "frame", frame: 0 });
    expect(root.name).toBe("svg");
    expect(root.attrs.xmlns).toBe("http://www.w3.org/2000/svg");
    expect(fields.map((g) => g.attrs["data-field"])).toEqual(FRAME_HEADER_FIELDS.map((f) => f.name));
    const start = analysis.frames.start[0] as number;
    for (const [i, f] of FRAME_HEADER_FIELDS.entries()) {
      const g = fields[i]!;
      expect(Number(g.attrs["data-offset"])).toBe(start + f.offset);
      expect(Number(g.attrs["data-size"])).toBe(f.size);
      expect(textOf(g)).toContain(f.name);
      // Each piece is a rect whose width is to scale: 46 px a byte, less the 2 px gap.
      const widths = g.children.filter((c) => c.name === "rect").map((r) => Number(r.attrs.width) + 2);
      expect(widths.reduce((a, b) => a + b, 0)).toBe(46 * f.size);
      expect(g.children.find((c) => c.name === "rect")!.attrs.fill).toBe(LIGHT_PALETTE.bg[f.kind]);
    }
    // The stored checksum is shown as the bytes hold it.
    const stored = [...bytes.subarray(start, start + 8)]
      .reverse()
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    expect(textOf(fields[0]!)).toContain(stored);
    expect(title).toContain(FILE);
    expect(title).toContain(`Frame 0 of batch 0 header (frame 0 of the input): bytes 0x${start.toString(16)}..0x${(start + 48).toString(16)}`);
    expect(title).toContain(`SHA-256 ${sha(bytes)}`);
    expect(title).toContain("verdict FAIL");
    // The one finding (frame-checksum-mismatch over the checksum field) marks that field only, hatched and outlined.
    expect(analysis.diagnostics.map((d) => d.code)).toEqual(["frame-checksum-mismatch"]);
    expect(new Set(marks.map((m) => m.attrs["data-field"]))).toEqual(new Set(["checksum"]));
    for (const m of marks) {
      expect(m.attrs.fill).toBe("url(#hatch-error)");
      expect(Number(m.attrs["stroke-width"])).toBeGreaterThan(0);
    }
    expect(fields[0]!.attrs["data-severity"]).toBe("error");
    expect(textOf(root)).toContain("frame-checksum-mismatch");
  });

  it("the next frame of the same file, whose checksum matches, has no mark", () => {
    const { fields, marks, root } = diagram("11-frame-checksum-mismatch.bin", { kind: "frame", frame: 1 });
    expect(fields).toHaveLength(FRAME_HEADER_FIELDS.length);
    expect(marks).toHaveLength(0);
    expect(textOf(root)).toContain("No finding on this frame.");
  });

  it.each([
    ["08-batch-reserved-nonzero.bin", "reserved"],
    ["12-message-count-mismatch.bin", null],
    ["13-batch-checksum-mismatch.bin", "batch_checksum"],
    ["04-segment-5-stamped.bin", undefined],
  ])("%s batch 0: one box per batch header field, marks exactly on the fields its findings touch", (file, mustMark) => {
    const { analysis, fields, marks, title } = diagram(file, { kind: "batch", batch: 0 });
    expect(fields.map((g) => g.attrs["data-field"])).toEqual(BATCH_HEADER_FIELDS.map((f) => f.name));
    for (const [i, f] of BATCH_HEADER_FIELDS.entries()) expect(textOf(fields[i]!)).toContain(f.name);
    expect(title).toContain("Batch 0 header: bytes 0x0..0x100");
    // Written from the diagnostics as a reader counts them: a field is marked when a finding covers one of its bytes.
    const touched = BATCH_HEADER_FIELDS.filter((f) =>
      analysis.diagnostics.some((d) => d.start < f.offset + f.size && Math.max(d.end, d.start + 1) > f.offset),
    ).map((f) => f.name);
    expect([...new Set(marks.map((m) => m.attrs["data-field"]))].sort()).toEqual([...touched].sort());
    if (mustMark) expect(touched).toContain(mustMark);
    if (mustMark === undefined) expect(marks).toHaveLength(0);
  });

  it("escapes the name and says plainly when there is nothing to draw", () => {
    const name = `<script>x</script> & \u0001\u202e\r`;
    const { root, fields } = diagram("05-header-truncated.bin", { kind: "batch", batch: 1 }, name);
    expect(root.name).toBe("svg");
    expect(fields).toHaveLength(0);
    expect(textOf(root)).toContain("<script>x</script> & \\x01\\u202e\\x0d");
    expect(textOf(root)).toContain("Batch 1 has no whole header to draw");
    expect(allElements(root).some((e) => e.name === "script")).toBe(false);
    const missing = diagram("01-valid-producer-1frame.bin", { kind: "frame", frame: 7 });
    expect(missing.title).toContain("There is no frame 7 (the input has 1)");
  });
});
