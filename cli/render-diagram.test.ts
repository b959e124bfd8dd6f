/** `iggy-batch render FILE --diagram batch:N|frame:N:K`: the layout diagram of that header as SVG, the same one the page downloads; bad targets are usage errors. */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { allElements, parseXml } from "../test/xml-wellformed.ts";
import { FRAME_HEADER_FIELDS } from "../src/format/fields.ts";
import { runCli } from "./spawn-cli.test-util.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const FILE = join(ROOT, "test/fixtures/corpus/19-segment-4-batch2-bad-frame.bin");

const cli = runCli;

describe("iggy-batch render --diagram", () => {
  it("draws frame K of batch N's header with its fields and the mark of its finding", async () => {
    // The file's one finding: batch 1 frame 0's stored checksum, bytes 0x3b5..0x3bd.
    const run = await cli(["render", FILE, "--diagram", "frame:1:0"]);
    expect(run.code, run.stderr).toBe(1);
    const all = allElements(parseXml(run.stdout));
    expect(all.filter((e) => e.attrs.class === "field").map((e) => e.attrs["data-field"])).toEqual(FRAME_HEADER_FIELDS.map((f) => f.name));
    expect(all.find((e) => e.name === "title")!.text).toContain("Frame 0 of batch 1 header (frame 4 of the input): bytes 0x3b5..0x3e5");
    expect(new Set(all.filter((e) => e.attrs.class?.startsWith("mark ")).map((e) => e.attrs["data-field"]))).toEqual(new Set(["checksum"]));
    const next = allElements(parseXml((await cli(["render", FILE, "--diagram", "frame:1:1"])).stdout));
    expect(next.filter((e) => e.attrs.class?.startsWith("mark "))).toHaveLength(0);
  });

  it("refuses a malformed or absent target", async () => {
    for (const bad of ["frame:1", "batch:99", "frame:0:99"]) {
      const run = await cli(["render", FILE, "--diagram", bad]);
      expect(run.code, bad).toBe(2);
      expect(run.stderr).toMatch(/--diagram takes|no batch 99|not a frame 99/);
    }
    expect((await cli(["render", FILE, "--diagram", "batch:0", "--range", "0..9"])).code).toBe(2);
  });
});
