/**
 * The guided tour: shown on a first visit, walks every step (each outlining its part of the page),
 * can be finished or skipped, stays away once done, and reopens from Keyboard help.
 */
import { expect, openPage, test } from "./fixtures.ts";

test("a first visit shows the tour; it can be walked to the end, stays closed, and reopens from Keyboard help", async ({ page }) => {
  await openPage(page);
  const tour = page.getByRole("region", { name: "Guided tour" });
  await expect(tour).toBeVisible();
  await expect(tour).toContainText("step 1 of 7");
  // The welcome counts the steps as the tour numbers them.
  const words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
  const welcome = ((await tour.textContent()) ?? "").toLowerCase();
  const count = Number(/step 1 of (\d+)/.exec(welcome)?.[1]);
  expect(welcome).toContain(`${words[count]} short steps`);
  await tour.getByRole("button", { name: "Start tour" }).click();
  const seen: string[] = [];
  for (let step = 2; step <= 7; step++) {
    await expect(tour).toContainText(`step ${step} of 7`);
    // Exactly one part of the page is outlined, and it is on screen.
    const focus = page.locator(".tour-focus");
    await expect(focus).toHaveCount(1);
    await expect(focus).toBeInViewport();
    seen.push((await tour.getByRole("heading").textContent()) ?? "");
    if (step < 7) await tour.getByRole("button", { name: "Next step" }).click();
  }
  expect(seen).toEqual([
    "A batch starts with a 256-byte header",
    "Then come the frames",
    "Checksums",
    "What a violation looks like",
    "Share a finding",
    "Find your way",
  ]);
  await tour.getByRole("button", { name: "Finish tour" }).click();
  await expect(tour).toHaveCount(0);
  await expect(page.locator(".tour-focus")).toHaveCount(0);

  await openPage(page);
  await expect(page.getByRole("heading", { name: "Bytes", exact: true })).toBeVisible();
  await expect(tour).toHaveCount(0);

  await page.getByRole("button", { name: "Keyboard help" }).click();
  await page.getByRole("dialog", { name: "Keyboard" }).getByRole("button", { name: "Take the tour" }).click();
  await expect(tour).toContainText("step 1 of 7");
});

test("the tour can be skipped at once, and a violation can be shown from it", async ({ page }) => {
  await openPage(page);
  const tour = page.getByRole("region", { name: "Guided tour" });
  await tour.getByRole("button", { name: "Start tour" }).click();
  for (let i = 0; i < 3; i++) await tour.getByRole("button", { name: "Next step" }).click();
  await tour.getByRole("button", { name: "Show a violation" }).click();
  await expect(page.getByRole("list", { name: "Diagnostics", exact: true }).locator('[data-code="frame-checksum-mismatch"]')).toHaveCount(1);
  await tour.getByRole("button", { name: "Skip tour" }).click();
  await expect(tour).toHaveCount(0);
  await openPage(page);
  await expect(tour).toHaveCount(0);
});
