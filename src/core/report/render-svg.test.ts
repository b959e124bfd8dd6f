/** The SVG picture of a range: well-formed, captioned, one hatched and outlined mark per problem byte, colours from the theme. */
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { analyzeWith } from "../walk/analyze.ts";
import { MAX_SVG_BYTES, renderHexSvg } from "./render-svg.ts";
import { LIGHT_PALETTE } from "../view/palette.ts";
import { allElements, parseXml, type XmlElement } from "../../../test/xml-wellformed.ts";
import { xxh } from "../../../test/helpers.ts";

const corpus = (f: string) => new Uint8Array(readFileSync(new URL(`../../../test/fixtures/corpus/${f}`, import.meta.url)));
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const texts = (root: XmlElement) =>
  allElements(root)
    .map((e) => e.text)
    .join("\n");

function picture(file: string, start: number, end: number, name = file) {
  const bytes = corpus(file);
  const analysis = analyzeWith(xxh, bytes);
  const svg = renderHexSvg(analysis, bytes, { name, sha256: sha(bytes), start, end, palette: LIGHT_PALETTE });
  return { bytes, analysis, svg, root: parseXml(svg) };
}

// Problem bytes written from the diagnostics as a reader counts them: every byte some finding covers.
function expectedMarks(analysis: ReturnType<typeof analyzeWith>, start: number, end: number): number[] {
  const set = new Set<number>();
  for (const d of analysis.diagnostics) for (let o = d.start; o < Math.max(d.end, d.start + 1); o++) if (o >= start && o < end) set.add(o);
  return [...set].sort((a, b) => a - b);
}

const marks = (root: XmlElement) => allElements(root).filter((e) => e.attrs.class?.split(" ").includes("mark"));

describe("renderHexSvg", () => {
  it.each([
    ["11-frame-checksum-mismatch.bin", 0, 400],
    ["19-segment-4-batch2-bad-frame.bin", 0x300, 0x500],
    ["16-user-headers-malformed.bin", 0, 10_000],
    ["08-batch-reserved-nonzero.bin", 40, 120],
    ["04-segment-5-stamped.bin", 0, 300],
  ])("%s %d..%d: well-formed, captioned, one mark per problem byte", (file, start, end) => {
    const { bytes, analysis, root } = picture(file, start, end);
    expect(root.name).toBe("svg");
    expect(root.attrs.xmlns).toBe("http://www.w3.org/2000/svg");
    const clampedEnd = Math.min(end, bytes.length);
    const caption = allElements(root).find((e) => e.name === "title")!.text;
    expect(caption).toContain(file);
    expect(caption).toContain(`bytes 0x${start.toString(16)}..0x${clampedEnd.toString(16)}`);
    expect(caption).toContain(`SHA-256 ${sha(bytes)}`);
    expect(caption).toContain(analysis.summary.errors > 0 ? "verdict FAIL" : "verdict ok");
    const want = expectedMarks(analysis, start, clampedEnd);
    const got = marks(root);
    expect(got.map((m) => Number(m.attrs["data-offset"]))).toEqual(want);
    for (const m of got) {
      expect(m.attrs.fill).toMatch(/^url\(#hatch-(error|warning|info)\)$/);
      expect(Number(m.attrs["stroke-width"])).toBeGreaterThan(0);
    }
    if (file.startsWith("04")) expect(got).toHaveLength(0);
    else expect(got.length).toBeGreaterThan(0);
  });

  it("paints each byte with the theme colour of its field", () => {
    const { root } = picture("01-valid-producer-1frame.bin", 0, 64);
    const fills = allElements(root)
      .filter((e) => e.name === "rect" && e.attrs.width === "22")
      .map((e) => e.attrs.fill);
    expect(fills.slice(0, 8)).toEqual(Array(8).fill(LIGHT_PALETTE.bg["batch.partition_id"]));
    expect(fills[40]).toBe(LIGHT_PALETTE.bg["batch.batch_checksum"]);
    expect(fills[60]).toBe(LIGHT_PALETTE.bg["batch.reserved"]);
  });

  it("escapes the name, shows its control and bidi characters as visible escapes, and keeps them out of the document", () => {
    const name = `<script>alert("x")</script> & \u0001 co'rp\u202egol.\r\u2066x\ud800`;
    const { root } = picture("11-frame-checksum-mismatch.bin", 0, 32, name);
    expect(texts(root)).toContain(`<script>alert("x")</script> & \\x01 co'rp\\u202egol.\\x0d\\u2066x\ufffd`);
    // eslint-disable-next-line no-control-regex -- the raw control characters are what must not appear
    expect(texts(root).replace(/\n/g, "")).not.toMatch(/[\u0000-\u001f\u202e\u2066]/);
    expect(allElements(root).some((e) => e.name === "script")).toBe(false);
  });

  it("cuts a long range and says so", () => {
    const bytes = new Uint8Array(MAX_SVG_BYTES + 4096);
    const analysis = analyzeWith(xxh, bytes);
    const root = parseXml(renderHexSvg(analysis, bytes, { name: "zeros", sha256: sha(bytes), start: 0, end: bytes.length, palette: LIGHT_PALETTE }));
    expect(texts(root)).toContain(`cut from 0x${bytes.length.toString(16)}`);
    expect(marks(root).map((m) => Number(m.attrs["data-offset"]))).toEqual(expectedMarks(analysis, 0, MAX_SVG_BYTES));
    expect(allElements(root).filter((e) => e.name === "rect" && e.attrs.width === "22")).toHaveLength(MAX_SVG_BYTES);
  });
});
