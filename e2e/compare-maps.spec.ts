/**
 * Compare two inputs in both hex maps: the Compare dialog's Left and Right panes show each side's
 * batch and mark exactly its differing bytes (data-diff cells, with an outline and underline
 * besides the colour), the first one scrolled into view.
 */
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator } from "@playwright/test";
import { expect, openPage, test } from "./fixtures.ts";
import { sampleBytes, walk } from "./layout.ts";

const diffCells = (pane: Locator) =>
  pane.locator('[data-diff="true"]').evaluateAll((els) => els.map((el) => [Number(el.getAttribute("data-at")), el.textContent]));

test("both hex panes mark exactly the differing payload run of a second file, in view", async ({ page }) => {
  const bytes = await sampleBytes("stamped-segment");
  const batches = walk(bytes);
  // A run in the second batch's last frame, so the panes must scroll to it.
  const batch = 1;
  const frame = batches[batch]!.frames.at(-1)!;
  const other = bytes.slice();
  const run = [frame.start + 48 + 3, frame.start + 48 + 4, frame.start + 48 + 5];
  for (const i of run) other[i]! ^= 0xa5;
  const file = path.join(os.tmpdir(), "iggy-e2e-compare-maps-other.bin");
  writeFileSync(file, other);

  await openPage(page);
  await page.getByRole("button", { name: "Compare batches" }).click();
  const dialog = page.getByRole("dialog", { name: "Compare batches" });
  await dialog.getByLabel("Compare with a file").setInputFiles(file);
  await expect(dialog.getByTestId("diff-other")).toContainText("iggy-e2e-compare-maps-other.bin");
  const left = dialog.getByRole("region", { name: "Left bytes" });
  const right = dialog.getByRole("region", { name: "Right bytes" });

  // Batch 0 against batch 0: nothing differs, nothing is marked.
  await expect(left.locator("[data-at]").first()).toBeVisible();
  await expect(left.locator('[data-diff="true"]')).toHaveCount(0);
  await expect(right.locator('[data-diff="true"]')).toHaveCount(0);

  await dialog.getByLabel("Left batch").selectOption(String(batch));
  await dialog.getByLabel("Right batch").selectOption(String(batch));
  const hex = (b: number) => b.toString(16).padStart(2, "0");
  await expect.poll(() => diffCells(left)).toEqual(run.map((i) => [i, hex(bytes[i]!)]));
  await expect.poll(() => diffCells(right)).toEqual(run.map((i) => [i, hex(other[i]!)]));
  await expect(dialog.getByTestId("diff-pane-note").first()).toContainText(`3 differing bytes marked, the first at`);
  await expect(dialog.getByTestId("diff-pane-note").first()).toContainText(`(${run[0]})`);
  // The first differing byte is scrolled into view in both panes, and marked by more than colour.
  for (const pane of [left, right]) {
    const cell = pane.locator(`[data-at="${run[0]}"]`);
    const [box, view] = [(await cell.boundingBox())!, (await pane.boundingBox())!];
    expect(box.y).toBeGreaterThanOrEqual(view.y);
    expect(box.y + box.height).toBeLessThanOrEqual(view.y + view.height);
    expect(await cell.evaluate((el) => [getComputedStyle(el).outlineStyle, getComputedStyle(el).textDecorationLine])).toEqual(["solid", "underline"]);
  }

  // The panes show that batch (not the whole input), in the hex map's kind colours.
  await expect(left.locator(`[data-at="${frame.start + 48}"]`)).toHaveClass(/kind-frame-payload/);
  const ends = async () =>
    left.locator("[data-at]").evaluateAll((els) => [Number(els[0]!.getAttribute("data-at")), Number(els.at(-1)!.getAttribute("data-at"))]);
  await left.evaluate((el) => {
    el.scrollTop = 0;
  });
  await expect.poll(async () => (await ends())[0]).toBe(batches[batch]!.start);
  await left.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect.poll(async () => (await ends())[1]).toBe(batches[batch]!.end - 1);
});
