/**
 * The hex map of a file read on demand (`?on-demand-from=0`: the page keeps no copy of the file and
 * reads pages of it as rows come into view). What a user sees is checked against the file's real
 * bytes: cells near the start, cells deep in the file after jumping there with the overview, the
 * tooltip's values, and no "··" placeholder left once the bytes have landed.
 */
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { bigSegment } from "./big-segment.ts";
import { cell, expect, hexMap, openFile, openPage, slowReads, test, visibleOffsets } from "./fixtures.ts";

const hex = (b: number) => b.toString(16).padStart(2, "0");

/** Hex text and offset of every rendered cell, and how many still show a placeholder. */
async function shownCells(page: Page): Promise<{ offsets: number[]; texts: string[]; pending: number }> {
  return hexMap(page).evaluate((grid) => {
    const cells = [...grid.querySelectorAll<HTMLElement>("[data-offset]")];
    return {
      offsets: cells.map((c) => Number(c.dataset.offset)),
      texts: cells.map((c) => c.textContent ?? ""),
      pending: grid.querySelectorAll("[data-pending], [aria-busy='true']").length,
    };
  });
}

/** Waits until every rendered cell shows its byte, then checks each against the file. */
async function expectRealBytes(page: Page, bytes: Uint8Array): Promise<number[]> {
  await expect.poll(async () => (await shownCells(page)).pending, { message: "placeholders left after the bytes landed" }).toBe(0);
  const { offsets, texts } = await shownCells(page);
  expect(offsets.length).toBeGreaterThan(100);
  expect(texts).toEqual(offsets.map((o) => hex(bytes[o]!)));
  return offsets;
}

test("a 6 MiB segment read on demand: cells near the start and deep in the file show the file's bytes, the tooltip its values", async ({ page }) => {
  const { file, plan } = await bigSegment(6);
  const bytes = new Uint8Array(readFileSync(file));
  await openPage(page, "/?on-demand-from=0");
  await openFile(page, file);

  // Near the start: the first batch header, its base_offset and the first frame header.
  const first = await expectRealBytes(page, bytes);
  expect(first).toContain(0);
  expect(first).toContain(300);

  // The tooltip of base_offset (bytes 8..16) and of a payload byte of the first frame, as the file says.
  await cell(page, 9).hover();
  const tip = page.getByRole("tooltip");
  await expect(tip).not.toHaveAttribute("aria-busy");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  await expect(tip).toContainText("base_offset");
  await expect(tip).toContainText(`Value${view.getBigUint64(8, true)}`);
  await expect(tip).toContainText(`Byte0x${hex(bytes[9]!)}`);
  const payloadAt = 256 + 48 + 5;
  await cell(page, payloadAt).hover();
  await expect(tip).toContainText("payload");
  await expect(tip).toContainText(`Length${plan.payloadSize} bytes`);
  const head = [...bytes.subarray(256 + 48, 256 + 48 + 24)].map(hex).join(" ");
  await expect(tip).toContainText(`Hex${head} …`);
  await expect(tip).toContainText(`Byte0x${hex(bytes[payloadAt]!)}`);

  // Deep in the file: jump with the overview to about 80 % of it, far past the pages read so far.
  await page.mouse.move(0, 0);
  const box = (await page.getByTestId("overview").boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.8);
  await expect.poll(async () => Math.min(...(await visibleOffsets(page)))).toBeGreaterThan(bytes.length * 0.7);
  const deep = await expectRealBytes(page, bytes);
  expect(Math.min(...deep)).toBeGreaterThan(bytes.length * 0.7);

  // A tooltip deep in the file reads that field's bytes: the frame's id (16 bytes) as the file holds it.
  const visible = await visibleOffsets(page);
  const target = visible[Math.floor(visible.length / 2)]!;
  await cell(page, target).hover();
  await expect(tip).not.toHaveAttribute("aria-busy");
  await expect(tip).toContainText(`Byte0x${hex(bytes[target]!)}`);
  await expect(tip).toContainText(`Offset0x${target.toString(16).padStart(8, "0")} (${target})`);
});

test("rows not read yet show placeholders, never zeros, until their bytes land", async ({ page }) => {
  const { file } = await bigSegment(6);
  const bytes = new Uint8Array(readFileSync(file));
  await openPage(page, "/?on-demand-from=0");
  // Slow every read of the file so the placeholders can be seen before the bytes land.
  await slowReads(page);
  await openFile(page, file);
  const box = (await page.getByTestId("overview").boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.5);
  await expect.poll(async () => (await shownCells(page)).pending).toBeGreaterThan(0);
  const { texts } = await shownCells(page);
  expect(texts.filter((t) => t === "··").length).toBeGreaterThan(0);
  await expectRealBytes(page, bytes);
});

test("a file that changed on disk after it was opened: the hex map says which bytes could not be read, and stays", async ({ page }) => {
  const { file } = await bigSegment(6);
  const bytes = new Uint8Array(readFileSync(file));
  await openPage(page, "/?on-demand-from=0");
  await openFile(page, file);
  await expectRealBytes(page, bytes);
  // From now on every read of the file comes back empty, as a file cut short on disk would.
  await page.evaluate(() => {
    Blob.prototype.slice = () => new Blob([]);
  });
  const box = (await page.getByTestId("overview").boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.9);
  // The hex map's own alert (the tables that follow the view may say the same of their rows).
  const alert = page.locator(".hx-read-error").getByText("Could not read bytes");
  await expect(alert).toContainText(/Could not read bytes [\d,]+\.\.[\d,]+ of the file: the file changed since it was opened/);
  await expect(alert).toHaveAttribute("role", "alert");
  await expect(hexMap(page)).toBeVisible();
  // The rows it could not read keep their placeholders: no zeros stand in for them.
  expect((await shownCells(page)).texts.filter((t) => t === "00")).toEqual([]);
});

test("the keyboard reaches the last byte of a file read on demand: its cell and tooltip show the file's last bytes", async ({ page }) => {
  const { file } = await bigSegment(6);
  const bytes = new Uint8Array(readFileSync(file));
  await openPage(page, "/?on-demand-from=0");
  await openFile(page, file);
  await expectRealBytes(page, bytes);
  await cell(page, 0).click();
  // Away from the rows: they would slide under a resting pointer, and its hover would take the tooltip.
  await page.mouse.move(0, 0);
  await page.keyboard.press("Control+End");
  const last = bytes.length - 1;
  await expect(cell(page, last)).toHaveAttribute("data-cursor", "");
  await expectRealBytes(page, bytes);
  await expect(cell(page, last)).toHaveText(hex(bytes[last]!));
  const tip = page.getByRole("tooltip");
  await expect(tip).not.toHaveAttribute("aria-busy");
  await expect(tip).toContainText(`Offset0x${last.toString(16).padStart(8, "0")} (${last})`);
  await expect(tip).toContainText(`Byte0x${hex(bytes[last]!)}`);
  await expect(tip).toContainText("payload");
});

/** The rows the grid shows whole, where every byte position has its cell, and the rows rendered at all. */
async function rowCoverage(page: Page): Promise<{ slots: number; visible: number[]; rendered: number }> {
  const slots = await hexMap(page).evaluate((grid) => {
    const head = grid.querySelector(".hx-head")!.getBoundingClientRect().height;
    return Math.floor((grid.clientHeight - head) / head);
  });
  const visible = await visibleOffsets(page);
  const rendered = await hexMap(page).locator('[role="row"][aria-rowindex]:not(.hx-head)').count();
  return { slots, visible, rendered };
}

test("a map past the browser's scroll height draws the rows in view and no more, with the file's bytes, after a far jump and a wheel step", async ({
  page,
}) => {
  // 32 MiB: 2 million rows, far past the 8,000,000 px a scroll range may have, so rows are placed by the page.
  const { file } = await bigSegment(32);
  const bytes = new Uint8Array(readFileSync(file));
  await openPage(page, "/?on-demand-from=0");
  await openFile(page, file);
  await expect(hexMap(page)).toHaveAttribute("data-scaled", "");
  const check = async (): Promise<number> => {
    await expectRealBytes(page, bytes);
    const { slots, visible, rendered } = await rowCoverage(page);
    // Every byte position in view has its cell, in one run of offsets: no blank row.
    expect(visible.length).toBeGreaterThanOrEqual(slots * 16);
    expect(visible[visible.length - 1]! - visible[0]! + 1).toBe(visible.length);
    // Rows out of view are never seen before the next render: besides the whole rows, only a partial row at each
    // edge and one more each side for rounding are drawn (eight each side were, 16 rows never shown).
    expect(rendered).toBeLessThanOrEqual(slots + 4);
    return visible[0]!;
  };
  await check();
  const box = (await page.getByTestId("overview").boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.5);
  await expect.poll(async () => Math.min(...(await visibleOffsets(page)))).toBeGreaterThan(bytes.length * 0.4);
  const before = await check();
  const grid = (await hexMap(page).boundingBox())!;
  await page.mouse.move(grid.x + grid.width / 2, grid.y + grid.height / 2);
  await page.mouse.wheel(0, 120);
  await expect.poll(async () => Math.min(...(await visibleOffsets(page)))).toBeGreaterThan(before);
  await check();
});
