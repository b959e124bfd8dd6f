/** Reading a poll reply: "Input starts with" steps over its 16-byte prefix; the choice travels in a share link. */
import { expect, openPage, statusLine, test, waitForIdle } from "./fixtures.ts";

test("the poll reply sample decodes clean with its envelope and as garbage without it", async ({ page, browser, guard }) => {
  await openPage(page, "/?sample=poll-reply");
  const envelope = page.getByLabel("Input starts with");
  await expect(envelope).toHaveValue("poll-reply");
  await expect(statusLine(page)).toHaveText("2 batches · 3 frames · 0 errors · 0 warnings · 0 infos");
  // The prefix is not part of any batch.
  await expect(page.locator('[data-offset="0"]')).toHaveAttribute("data-kind", "unattributed");
  await expect(page.locator('[data-offset="16"]')).toHaveAttribute("data-kind", "batch.partition_id");

  await envelope.selectOption("none");
  await waitForIdle(page);
  await expect(statusLine(page)).not.toHaveText(/ 0 errors/);

  await envelope.selectOption("poll-reply");
  await expect(statusLine(page)).toHaveText("2 batches · 3 frames · 0 errors · 0 warnings · 0 infos");
  await page.getByRole("button", { name: "Copy share link" }).click();
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#iggy1\./);
  const link = await page.evaluate(() => location.href);

  const context = await browser.newContext();
  guard.watch(context);
  const fresh = await context.newPage();
  await openPage(fresh, link);
  await expect(fresh.getByLabel("Input starts with")).toHaveValue("poll-reply");
  await expect(statusLine(fresh)).toHaveText("2 batches · 3 frames · 0 errors · 0 warnings · 0 infos");
  await context.close();
});
