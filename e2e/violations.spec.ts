/**
 * Violations that jump out: every error or warning byte is marked invalid for assistive tech and
 * drawn with a flag, and the byte tooltip sits beside the rows, never over the bytes it describes.
 */
import type { Page } from "@playwright/test";
import { cell, expect, hexMap, openPage, test, waitForInput } from "./fixtures.ts";

/** True when the tooltip's box overlaps any rendered cell of the hovered field. */
function tooltipCoversField(page: Page): Promise<{ covered: number[]; hovered: number }> {
  return page.evaluate(() => {
    const tip = document.querySelector('[role="tooltip"]')!.getBoundingClientRect();
    const cells = [...document.querySelectorAll<HTMLElement>("[data-offset][data-hover]")];
    const covered = cells
      .filter((c) => {
        const r = c.getBoundingClientRect();
        return r.left < tip.right && r.right > tip.left && r.top < tip.bottom && r.bottom > tip.top;
      })
      .map((c) => Number(c.dataset.offset));
    return { covered, hovered: cells.length };
  });
}

for (const width of [1024, 1366, 1920]) {
  test(`the tooltip of a 204-byte field sits beside its rows at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await openPage(page, "/?sample=batch-reserved-nonzero");
    await waitForInput(page, "sample: Nonzero reserved header bytes");
    // Byte 100 is inside batch 0's reserved field (52..256): twelve rows of hovered bytes.
    await cell(page, 100).hover();
    await expect(page.getByRole("tooltip")).toBeVisible();
    await expect.poll(async () => (await tooltipCoversField(page)).hovered).toBeGreaterThan(100);
    expect((await tooltipCoversField(page)).covered).toEqual([]);
    // And it stays on screen.
    const box = (await page.getByRole("tooltip").boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
  });
}

test("every error and warning byte is marked invalid and flagged; clean bytes are not", async ({ page }) => {
  await openPage(page, "/?sample=frame-checksum-mismatch");
  await waitForInput(page, "sample: Flipped payload byte");
  const marks = await hexMap(page)
    .locator("[data-offset]")
    .evaluateAll((els) =>
      els.map((el) => ({
        problem: el.getAttribute("data-problem"),
        invalid: el.getAttribute("aria-invalid"),
        flag: getComputedStyle(el).backgroundImage.split("gradient").length - 1,
      })),
    );
  const bad = marks.filter((m) => m.problem === "error" || m.problem === "warning");
  expect(bad.length).toBeGreaterThan(0);
  expect(bad.every((m) => m.invalid === "true")).toBe(true);
  // The error flag, the bar above and the hatch: three gradient layers.
  expect(bad.filter((m) => m.problem === "error").every((m) => m.flag >= 3)).toBe(true);
  expect(marks.filter((m) => !m.problem).every((m) => m.invalid === null)).toBe(true);
});
