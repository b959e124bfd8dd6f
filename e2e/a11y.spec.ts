/**
 * Accessibility: axe-core (WCAG 2 A and AA rules) finds no serious or critical violation on the
 * page with a sample, with a violation sample (and its tooltip), with the help and builder dialogs
 * open, and in the dark colour scheme, which really is dark.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { cell, expect, hexMap, openPage, test, waitForInput } from "./fixtures.ts";

/** Runs axe and fails with a readable list of the serious and critical violations. */
async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = bad
    .map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes
          .slice(0, 8)
          .map((n) => `    ${n.target.join(" ")}\n      ${n.failureSummary?.replace(/\n/g, "\n      ")}`)
          .join("\n")}${v.nodes.length > 8 ? `\n    … ${v.nodes.length - 8} more` : ""}`,
    )
    .join("\n");
  expect(bad, `axe: serious/critical violations ${what}:\n${report}`).toEqual([]);
  // Sanity: axe did run its rules.
  expect(results.passes.length).toBeGreaterThan(10);
}

/** The colour actually painted behind the page: the first non-transparent background of body, then html. */
function pageBackground(page: Page): Promise<string> {
  return page.evaluate(() => {
    for (const el of [document.body, document.documentElement]) {
      const bg = getComputedStyle(el).backgroundColor;
      if (bg && bg !== "transparent" && bg !== "rgba(0, 0, 0, 0)") return bg;
    }
    return "transparent";
  });
}

/** Relative luminance of an rgb()/rgba() colour (0 black … 1 white). */
function luminance(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => Number(v) / 255);
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r ?? 0) + 0.7152 * lin(g ?? 0) + 0.0722 * lin(b ?? 0);
}

for (const scheme of ["light", "dark"] as const) {
  test.describe(`${scheme} colour scheme`, () => {
    test.use({ colorScheme: scheme });

    test(`the page with a sample (${scheme})`, async ({ page }) => {
      await openPage(page);
      // Legend open, a byte hovered (tooltip shown): every colour on screen gets checked.
      await page.locator("details.legend-box > summary").click();
      await cell(page, 40).hover();
      await expect(page.getByRole("tooltip")).toBeVisible();
      await expectNoSeriousViolations(page, `with the default sample (${scheme})`);
    });

    test(`the page with a violation sample (${scheme})`, async ({ page }) => {
      await openPage(page, "/?sample=frame-checksum-mismatch");
      await waitForInput(page, "sample: Flipped payload byte");
      await expect(hexMap(page).locator("[data-problem]").first()).toBeVisible();
      await cell(page, 258).hover();
      await expect(page.getByRole("tooltip")).toContainText("frame-checksum-mismatch");
      await expectNoSeriousViolations(page, `with a violation sample (${scheme})`);
    });
  });
}

test("the help dialog", async ({ page }) => {
  await openPage(page);
  await page.getByRole("button", { name: "Keyboard help" }).click();
  await expect(page.getByRole("dialog", { name: "Keyboard" })).toBeVisible();
  await expectNoSeriousViolations(page, "with the help dialog open");
});

test("the builder dialog", async ({ page }) => {
  await openPage(page);
  await page.getByRole("button", { name: "Build a batch" }).click();
  const dialog = page.getByRole("dialog", { name: "Build a batch" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("builder-size")).toContainText(/Size: \d+ bytes/);
  await expectNoSeriousViolations(page, "with the builder dialog open");
});

for (const scheme of ["light", "dark"] as const) {
  test(`the compare dialog, its hex panes' differing bytes marked (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openPage(page);
    await page.getByRole("button", { name: "Compare batches" }).click();
    const dialog = page.getByRole("dialog", { name: "Compare batches" });
    await expect(dialog.getByRole("table", { name: "Batch diff" })).toBeVisible();
    // Batch 0 against batch 1 of the sample: their stamped fields differ, so both panes mark bytes.
    await expect(dialog.getByRole("region", { name: "Left bytes" }).locator('[data-diff="true"]').first()).toBeVisible();
    await expectNoSeriousViolations(page, `with the compare dialog open (${scheme})`);
  });
}

test("the dark colour scheme really is dark, the light one light", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await openPage(page);
  const light = await pageBackground(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(() => pageBackground(page)).not.toBe(light);
  const dark = await pageBackground(page);
  expect(luminance(light)).toBeGreaterThan(0.5);
  expect(luminance(dark)).toBeLessThan(0.1);
  // The hex map follows: its cells are painted differently too.
  await page.emulateMedia({ colorScheme: "light" });
  const lightCell = await cell(page, 0).evaluate((el) => getComputedStyle(el).backgroundColor);
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(() => cell(page, 0).evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(lightCell);
});
