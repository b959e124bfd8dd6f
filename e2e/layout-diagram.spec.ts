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

/** The byte ranges of the Diagnostics list's items, as the list prints them (`0x000028..0x000030`). */
async function listedRanges(page: Page): Promise<{ start: number; end: number }[]> {
  const texts = await page.getByRole("list", { name: "Diagnostics", exact: true }).locator(".diag-range").allTextContents();
  return texts.map((t) => {
    const [start, end] = t.split("..").map((x) => Number(x));
    return { start: start!, end: Math.max(end!, start! + 1) };
  });
}

/** Names of the fields of a header list marked with a finding, and the names the Diagnostics list's ranges say should be. */
async function marks(page: Page, list: string, table: typeof BATCH_HEADER_FIELDS, base: number): Promise<{ drawn: string[]; expected: string[] }> {
  const ranges = await listedRanges(page);
  const expected = table.filter((f) => ranges.some((r) => r.start < base + f.offset + f.size && r.end > base + f.offset)).map((f) => f.name);
  const drawn = await figure(page)
    .getByRole("list", { name: list })
    .locator(":scope > li[data-problem]")
    .evaluateAll((els) => [...new Set(els.map((el) => el.getAttribute("data-field") ?? ""))]);
  return { drawn, expected };
}

test("a field with a finding is marked in the diagram, also after an edit breaks it", async ({ page }) => {
  await openPage(page, "/?sample=batch-checksum-mismatch");
  await expect(figure(page).locator('[data-field="batch_checksum"]').first()).toHaveAttribute("data-problem", "error");
  const batch = await marks(page, "Batch 0 header fields", BATCH_HEADER_FIELDS, 0);
  expect(batch.expected).toEqual(["batch_checksum"]);
  expect(batch.drawn).toEqual(batch.expected);
  // Every box of a marked field is marked, and the field says which finding in its name.
  await expect(figure(page).getByRole("button", { name: /^batch_checksum,.*batch-checksum-mismatch/ })).toBeVisible();

  // A clean sample: nothing marked; a payload byte typed over breaks its frame's checksum, which is then marked.
  await openPage(page, "/?sample=producer-batch");
  await expect(figure(page).locator(".dg-grid [data-problem], .dg-part[data-problem]")).toHaveCount(0);
  const frame = walk(await sampleBytes("producer-batch"))[0]!.frames[0]!;
  await page.getByRole("checkbox", { name: /^Edit bytes/ }).check();
  await cell(page, frame.start + 48).click();
  await page.keyboard.type("ff");
  await expect(figure(page).locator('[data-field="checksum"]').first()).toHaveAttribute("data-problem", "error");
  const after = await marks(page, "Frame 0 header fields", FRAME_HEADER_FIELDS, frame.start);
  expect(after.expected).toEqual(["checksum"]);
  expect(after.drawn).toEqual(after.expected);
});

test("a field's further lines read as that field, not as fields of their own", async ({ page }) => {
  await openPage(page);
  for (const [list, table] of [
    ["Batch 0 header fields", BATCH_HEADER_FIELDS],
    ["Frame 0 header fields", FRAME_HEADER_FIELDS],
  ] as const) {
    const grid = figure(page).getByRole("list", { name: list });
    // One list item, one button and one "+offset · size" per field.
    await expect(grid.getByRole("listitem")).toHaveCount(table.length);
    await expect(grid.getByRole("button")).toHaveCount(table.length);
    const sizes = await grid.locator(":scope > li").evaluateAll((els) => els.map((el) => /\+\d+ · \d+ B/.test(el.textContent ?? "")));
    expect(sizes.filter(Boolean)).toHaveLength(table.length);
    // Each continuation names its field and sits right after the field's earlier box, on the next line.
    const continued = grid.locator(":scope > li.dg-continued");
    expect(await continued.count()).toBeGreaterThan(0);
    for (const text of await continued.evaluateAll((els) => els.map((el) => `${el.getAttribute("data-field")}|${el.textContent}`))) {
      const [field, shown] = text.split("|");
      expect(shown).toContain(`${field} continued`);
    }
  }
});
