/**
 * The layout diagram as a picture (issue 12, point 3): batch 0's header by default; with a frame
 * selected, that frame's header, downloaded as SVG the browser's own XML parser reads (one box per
 * field of the table, the caption, a mark on the field with a finding) and as a PNG.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { BATCH_HEADER_FIELDS, FRAME_HEADER_FIELDS } from "../src/format/fields.ts";
import { CORPUS_DIR, expect, keepByteZero, openCorpus, openPage, test } from "./fixtures.ts";

const FILE = "11-frame-checksum-mismatch.bin";

async function download(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const [d] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button, exact: true }).click()]);
  return { name: d.suggestedFilename(), bytes: readFileSync(await d.path()) };
}

/** What the browser's XML parser finds in the SVG: parse errors, root, caption, the fields boxed and the fields marked. */
function parseSvg(page: Page, svg: string) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    return {
      errors: doc.getElementsByTagName("parsererror").length,
      root: doc.documentElement.localName,
      title: doc.querySelector("svg > title")?.textContent ?? "",
      fields: [...doc.querySelectorAll("g.field")].map((g) => ({ field: g.getAttribute("data-field"), text: g.textContent ?? "" })),
      marked: [...new Set([...doc.querySelectorAll("rect.mark")].map((m) => m.getAttribute("data-field")))],
    };
  }, svg);
}

test("the layout diagram downloads as SVG and PNG: batch 0 by default, the selected frame after a click", async ({ page }) => {
  const bytes = new Uint8Array(readFileSync(path.join(CORPUS_DIR, FILE)));
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  // Nothing selected on open (the setting that opens a file on its first problem off).
  await keepByteZero(page);
  await openPage(page);
  await openCorpus(page, FILE);

  // Nothing selected: batch 0's header, no field marked (the finding is in frame 0's header).
  const batch = await download(page, "Download diagram SVG");
  expect(batch.name).toBe("11-frame-checksum-mismatch-batch0-diagram.svg");
  const batchSvg = await parseSvg(page, batch.bytes.toString("utf8"));
  expect(batchSvg.errors).toBe(0);
  expect(batchSvg.fields.map((f) => f.field)).toEqual(BATCH_HEADER_FIELDS.map((f) => f.name));
  expect(batchSvg.title).toContain("Batch 0 header: bytes 0x0..0x100");
  expect(batchSvg.marked).toEqual([]);

  // Select frame 0 in the Frames table: the diagram buttons now draw its header.
  const frames = page
    .getByRole("grid", { name: "Frames", exact: true })
    .getByRole("row")
    .filter({ has: page.getByRole("gridcell") });
  await frames.first().click();
  await expect(frames.first()).toHaveAttribute("aria-selected", "true");
  await expect(page.getByText("Layout diagram of frame 0 of batch 0 header:")).toBeVisible();
  const frame = await download(page, "Download diagram SVG");
  expect(frame.name).toBe("11-frame-checksum-mismatch-frame0-diagram.svg");
  const svg = await parseSvg(page, frame.bytes.toString("utf8"));
  expect(svg.errors).toBe(0);
  expect(svg.root).toBe("svg");
  expect(svg.fields.map((f) => f.field)).toEqual(FRAME_HEADER_FIELDS.map((f) => f.name));
  for (const f of svg.fields) expect(f.text).toContain(f.field);
  expect(svg.title).toContain(FILE);
  expect(svg.title).toContain("Frame 0 of batch 0 header (frame 0 of the input): bytes 0x100..0x130");
  expect(svg.title).toContain(`SHA-256 ${sha256}`);
  expect(svg.title).toContain("verdict FAIL");
  expect(svg.marked).toEqual(["checksum"]);

  const png = await download(page, "Download diagram PNG");
  expect(png.name).toBe("11-frame-checksum-mismatch-frame0-diagram.png");
  expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // Drawn at twice the SVG's 832 px width.
  expect(png.bytes.readUInt32BE(16)).toBeGreaterThan(1000);
});
