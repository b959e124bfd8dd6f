/** Issue #3 §4: hovering a table row highlights its bytes and, once the pointer rests, scrolls them into view. */
import type { Page } from "@playwright/test";
import { expect, loadManifest, openCorpus, openPage, test } from "./fixtures.ts";

const FILE = "19-segment-4-batch2-bad-frame.bin";
const framesGrid = (page: Page) => page.getByRole("grid", { name: "Frames", exact: true });
const frameRows = (page: Page) =>
  framesGrid(page)
    .getByRole("row")
    .filter({ has: page.getByRole("gridcell") });

test("hovering the last frame's row highlights its bytes and brings them into view", async ({ page }) => {
  const c = loadManifest().cases.find((k) => k.file === FILE)!;
  const lastBatch = c.batchList[c.batchList.length - 1]!;
  const last = lastBatch.frames[lastBatch.frames.length - 1]!;
  await openPage(page);
  await openCorpus(page, FILE);
  await page.getByRole("region", { name: "Frames" }).getByLabel("All batches").check();
  const cell = page.locator(`[data-offset="${last.start}"]`);
  await expect(cell).toHaveCount(0);
  await frameRows(page).last().hover();
  await expect(cell).toBeInViewport();
  await expect(cell).toHaveAttribute("data-hover", /.*/);
  await expect(page.locator(`[data-offset="${last.end - 1}"]`)).toHaveAttribute("data-hover", /.*/);
});
