/** Reading a poll reply: the Format control (which absorbed "Input starts with") reads its 16-byte prefix; the choice travels in a share link. */
import { expect, openPage, statusLine, test, waitForIdle } from "./fixtures.ts";

test("the poll reply sample decodes clean as a poll reply and as garbage as plain batches", async ({ page, browser, guard }) => {
  await openPage(page, "/?sample=poll-reply");
  const format = page.getByLabel("Format", { exact: true });
  await expect(format).toHaveValue("poll-reply");
  await expect(statusLine(page)).toHaveText("2 batches · 3 frames · 0 errors · 0 warnings · 0 infos");
  // The prefix is the poll reply's own fields, not part of any batch.
  await expect(page.locator('[data-offset="0"]')).toHaveAttribute("data-kind", "poll.partition_id");
  await expect(page.locator('[data-offset="12"]')).toHaveAttribute("data-kind", "poll.count");
  await expect(page.locator('[data-offset="16"]')).toHaveAttribute("data-kind", "batch.partition_id");

  await format.selectOption("batches");
  await waitForIdle(page);
  await expect(statusLine(page)).not.toHaveText(/ 0 errors/);

  await format.selectOption("poll-reply");
  await expect(statusLine(page)).toHaveText("2 batches · 3 frames · 0 errors · 0 warnings · 0 infos");
  await page.getByRole("button", { name: "Copy share link" }).click();
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#iggy1\./);
  const link = await page.evaluate(() => location.href);

  const context = await browser.newContext();
  guard.watch(context);
  const fresh = await context.newPage();
  await openPage(fresh, link);
  await expect(fresh.getByLabel("Format", { exact: true })).toHaveValue("poll-reply");
  await expect(statusLine(fresh)).toHaveText("2 batches · 3 frames · 0 errors · 0 warnings · 0 infos");
  await context.close();
});
