/**
 * The Layout diagram (contracts.md §2) is drawn from the field table: one box run per field of the
 * batch header and the frame header, at the field's offset and size, widths to scale (16 bytes a
 * line), values as the bytes hold them; hovering a box lights that field's bytes in the hex map.
 */
import type { Page } from "@playwright/test";
import { BATCH_HEADER_FIELDS, FRAME_HEADER_FIELDS } from "../src/format/fields.ts";
import { cell, expect, offsetsWith, openPage, range, test } from "./fixtures.ts";
import { sampleBytes, walk } from "./layout.ts";

const figure = (page: Page) => page.getByRole("figure", { name: "Layout diagram" });

interface DrawnBox {
  field: string;
  offset: number;
  size: number;
  width: number;
  lines: number;
  line: number;
}

function drawn(page: Page, list: string): Promise<DrawnBox[]> {
  return figure(page)
    .getByRole("list", { name: list })
    .locator(":scope > li")
    .evaluateAll((els) =>
      els.map((el) => ({
        line: el.parentElement!.getBoundingClientRect().width,
        field: el.getAttribute("data-field") ?? "",
        offset: Number(el.getAttribute("data-field-offset")),
        size: Number(el.getAttribute("data-size")),
        lines: Number(el.getAttribute("data-lines")),
        width: el.getBoundingClientRect().width,
      })),
    );
}

/** Checks the boxes tile each field of the table exactly, in order, with widths proportional to bytes per line. */
function expectMatchesTable(boxes: DrawnBox[], table: typeof BATCH_HEADER_FIELDS): void {
  const covered = new Map<string, number[]>();
  for (const b of boxes) {
    const list = covered.get(b.field) ?? [];
    list.push(...range(b.offset, b.offset + b.size));
    covered.set(b.field, list);
  }
  expect([...covered.keys()]).toEqual(table.map((f) => f.name));
  for (const f of table) expect(covered.get(f.name), f.name).toEqual(range(f.offset, f.offset + f.size));
  for (const b of boxes) {
    const bytesOnLine = b.lines > 1 ? 16 : b.size;
    // 2 px gaps between boxes; allow for them.
    expect(Math.abs(b.width / b.line - bytesOnLine / 16), `${b.field} at +${b.offset} to scale`).toBeLessThan(0.04);
  }
}

test("the diagram's boxes are the field table's, to scale, with the shown batch's values", async ({ page }) => {
  const bytes = await sampleBytes("stamped-segment");
  const layout = walk(bytes);
  await openPage(page);
  await expect(figure(page)).toBeVisible();
  expectMatchesTable(await drawn(page, "Batch 0 header fields"), BATCH_HEADER_FIELDS);
  expectMatchesTable(await drawn(page, "Frame 0 header fields"), FRAME_HEADER_FIELDS);
  const baseOffset = figure(page).locator('[data-field="base_offset"]').first();
  await expect(baseOffset).toContainText("1000");

  // Selecting batch 1 redraws it with its own values; the frame drawn is its first frame.
  await page
    .getByRole("grid", { name: "Batches", exact: true })
    .getByRole("row")
    .filter({ has: page.getByRole("gridcell") })
    .nth(1)
    .click();
  await expect(figure(page).getByRole("list", { name: "Batch 1 header fields" })).toBeVisible();
  await expect(baseOffset).toContainText("1002");
  const frame = layout[1]!.frames[0]!;
  const id = [...bytes.subarray(frame.start + 8, frame.start + 24)].map((b) => b.toString(16).padStart(2, "0")).join("");
  await expect(figure(page).locator('[data-field="id"]').first()).toContainText(id);
});

test("hovering a box lights its field's bytes in the hex map", async ({ page }) => {
  await openPage(page);
  await figure(page).locator('[data-field="batch_checksum"]').first().hover();
  await expect.poll(() => offsetsWith(page, "data-hover")).toEqual(range(40, 48));
  const first = walk(await sampleBytes("stamped-segment"))[0]!.frames[0]!;
  await figure(page).locator('[data-field="payload_length"]').first().hover();
  await expect.poll(() => offsetsWith(page, "data-hover")).toEqual(range(first.start + 36, first.start + 40));
  await expect(cell(page, first.start + 36)).toHaveAttribute("data-kind", "frame.payload_length");
});
