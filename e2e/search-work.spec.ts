/**
 * A byte search as long work: on a large input it runs in the search worker, which reads the
 * opened file a window at a time (edits written over it) instead of holding a copy; Esc (from the
 * box, the hex map or anywhere) and the Cancel button stop it as they stop a decode.
 */
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { cell, expect, hexMap, openFile, openPage, test } from "./fixtures.ts";
import { bigSegment } from "./big-segment.ts";

const box = (page: Page) => page.getByLabel("Go to or search");
const says = (page: Page) => page.getByTestId("search-says");
const results = (page: Page) => page.getByRole("list", { name: "Search results" });
const cancel = (page: Page) => page.getByRole("button", { name: "Cancel", exact: true });

/** Every start of `needle` in `hay`. */
function starts(hay: Uint8Array, needle: Uint8Array): number[] {
  const out: number[] = [];
  const first = needle[0]!;
  for (let i = hay.indexOf(first); i >= 0 && i + needle.length <= hay.length; i = hay.indexOf(first, i + 1)) {
    let k = 1;
    while (k < needle.length && hay[i + k] === needle[k]) k++;
    if (k === needle.length) out.push(i);
  }
  return out;
}

const hexOf = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join(" ");

test("a byte search over an edited 32 MiB input finds what the edit wrote, in the worker", async ({ page }) => {
  test.setTimeout(120_000);
  const { file } = await bigSegment(32);
  const bytes = new Uint8Array(readFileSync(file));
  await openPage(page);
  await openFile(page, file);
  // Batch 0's first 16 header bytes as loaded, then with byte 0 overwritten.
  const before = bytes.slice(0, 16);
  const after = before.slice();
  after[0] = 0x5a;
  const edited = bytes.slice();
  edited[0] = 0x5a;

  await page.getByRole("checkbox", { name: /^Edit bytes/ }).check();
  await cell(page, 0).click();
  // partition_id's low byte is 01: the first digit sets its high nibble, the second its low one.
  await page.keyboard.press("5");
  await expect(cell(page, 0)).toHaveText("51");
  await page.keyboard.press("a");
  await expect(cell(page, 0)).toHaveText("5a");

  await box(page).fill(`hex:${hexOf(after)}`);
  await box(page).press("Enter");
  const expected = starts(edited, after);
  expect(expected[0]).toBe(0);
  await expect(says(page)).toContainText("searched in a worker");
  await expect(says(page)).toContainText(`of ${expected.length} hit`);
  expect(
    (
      await results(page)
        .getByRole("listitem")
        .evaluateAll((els) => els.map((el) => el.getAttribute("data-start")))
    ).slice(0, 5),
  ).toEqual(expected.slice(0, 5).map(String));
  // The bytes the edit replaced are no longer found at 0.
  await box(page).fill(`hex:${hexOf(before)}`);
  await box(page).press("Enter");
  const old = starts(edited, before);
  await expect(says(page)).toContainText(old.length === 0 ? "No hits" : `of ${old.length} hit`);
  if (old.length > 0) await expect(results(page).getByRole("listitem").first()).not.toHaveAttribute("data-start", "0");
});

test("Cancel, and Esc from the hex map or anywhere, stop a byte search over 256 MiB; the next search still runs", async ({ page }) => {
  test.setTimeout(300_000);
  const { file } = await bigSegment(256);
  await openPage(page);
  await openFile(page, file);
  // Found nowhere, and its first byte is common, so the search reads and scans every window.
  const query = "hex:00 de ad be ef 0f 1e 2d 3c 4b 5a 69 78 87 96 a5";
  await box(page).fill(query);

  // The Cancel button beside the status line stands for the search while it runs.
  await box(page).press("Enter");
  await cancel(page).click();
  await expect(says(page)).toHaveText("Search cancelled.");
  await expect(cancel(page)).toHaveCount(0);
  await expect(results(page)).toHaveCount(0);

  // Esc with the hex map focused (where Esc otherwise hides the byte tooltip); the map keeps focus.
  await box(page).press("Enter");
  await hexMap(page).focus();
  await page.keyboard.press("Escape");
  await expect(says(page)).toHaveText("Search cancelled.");
  await expect(hexMap(page)).toBeFocused();

  // Esc with focus elsewhere on the page.
  await box(page).press("Enter");
  await page.getByRole("button", { name: "Go", exact: true }).focus();
  await page.keyboard.press("Escape");
  await expect(says(page)).toHaveText("Search cancelled.");

  // Left alone, the same search finishes in the worker.
  await box(page).press("Enter");
  await expect(says(page)).toContainText("No hits", { timeout: 120_000 });
  await expect(says(page)).toContainText("searched in a worker");
});
