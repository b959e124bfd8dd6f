/**
 * Accessibility of the finding-your-way controls: axe (WCAG 2 A and AA) finds no serious or
 * critical violation with search hits listed, the Overview, the Layout diagram and the legend
 * open, and a violation sample's flagged bytes, in the light and the dark colour scheme.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, openPage, test, waitForInput } from "./fixtures.ts";
import { bigSegment } from "./big-segment.ts";

async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = bad
    .map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help}\n${v.nodes
          .slice(0, 6)
          .map((n) => `    ${n.target.join(" ")}\n      ${n.failureSummary?.replace(/\n/g, "\n      ")}`)
          .join("\n")}`,
    )
    .join("\n");
  expect(bad, `axe: serious/critical violations ${what}:\n${report}`).toEqual([]);
  expect(results.passes.length).toBeGreaterThan(10);
}

for (const scheme of ["light", "dark"] as const) {
  test.describe(`${scheme} colour scheme`, () => {
    test.use({ colorScheme: scheme });

    test(`search results, overview, diagram and legend (${scheme})`, async ({ page }) => {
      await openPage(page);
      await page.getByLabel("Go to or search").fill("coffee");
      await page.getByLabel("Go to or search").press("Enter");
      await expect(page.getByRole("list", { name: "Search results" }).getByRole("listitem").first()).toBeVisible();
      await expect(page.getByRole("slider", { name: "Overview" })).toBeVisible();
      await expect(page.getByRole("figure", { name: "Layout diagram" })).toBeVisible();
      await page.locator("details.legend-box > summary").click();
      await expectNoSeriousViolations(page, `with search hits and the new panels (${scheme})`);
    });

    test(`Compare batches with a second file and "Show more rows" (${scheme})`, async ({ page }) => {
      const { file } = await bigSegment(1);
      await openPage(page);
      await page.getByRole("button", { name: "Compare batches" }).click();
      const dialog = page.getByRole("dialog", { name: "Compare batches" });
      await dialog.getByLabel("Compare with a file").setInputFiles(file);
      await expect(dialog.getByTestId("diff-other")).toContainText("Other file:");
      await expect(dialog.getByRole("button", { name: "Show more rows" })).toBeVisible();
      await expectNoSeriousViolations(page, `in Compare batches with another file (${scheme})`);
    });

    test(`flagged violation bytes and a go-to message (${scheme})`, async ({ page }) => {
      await openPage(page, "/?sample=frame-reserved-nonzero");
      await waitForInput(page, "sample: Nonzero frame reserved bytes");
      await page.getByLabel("Go to or search").fill("batch 9");
      await page.getByLabel("Go to or search").press("Enter");
      await expect(page.getByTestId("search-says")).toContainText("There is no batch 9");
      await expectNoSeriousViolations(page, `with flagged bytes (${scheme})`);
    });
  });
}
