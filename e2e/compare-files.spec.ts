/**
 * Compare two inputs: a second file chosen in Compare batches is diffed field by field against the
 * shown input, and payloads and user headers get a byte diff (first differing byte, the differing
 * bytes marked on both sides), not just their lengths.
 */
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { cell, expect, openFile, openPage, test } from "./fixtures.ts";
import { bigSegment } from "./big-segment.ts";
import { sampleBytes, walk } from "./layout.ts";

test("a second file is compared with the shown input; a changed payload byte and user-header byte are pinpointed", async ({ page }) => {
  const bytes = await sampleBytes("stamped-segment");
  const frame = walk(bytes)[0]!.frames[0]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const payloadLength = view.getUint32(frame.start + 36, true);
  const other = bytes.slice();
  other[frame.start + 48 + 5]! ^= 0xff; // payload byte 5
  other[frame.start + 48 + payloadLength + 2]! ^= 0x01; // user headers byte 2
  const file = path.join(os.tmpdir(), "iggy-e2e-compare-other.bin");
  writeFileSync(file, other);

  await openPage(page);
  await page.getByRole("button", { name: "Compare batches" }).click();
  const dialog = page.getByRole("dialog", { name: "Compare batches" });
  await dialog.getByLabel("Compare with a file").setInputFiles(file);
  await expect(dialog.getByTestId("diff-other")).toContainText("iggy-e2e-compare-other.bin");
  await expect(dialog.getByRole("columnheader", { name: /Right \(Other file batch 0\)/ })).toBeVisible();

  const rows = dialog.getByRole("table", { name: "Batch diff" }).locator("tbody tr.changed");
  const payload = rows.filter({ has: page.getByRole("cell", { name: /^payload/ }) }).first();
  await expect(payload).toContainText("differ from byte 5: 1 byte in 1 run");
  // The differing byte is marked on both sides, with each side's own value.
  const marks = payload.locator("mark");
  await expect(marks).toHaveCount(2);
  expect(await marks.evaluateAll((els) => els.map((el) => [el.getAttribute("data-at"), el.textContent]))).toEqual([
    ["5", bytes[frame.start + 53]!.toString(16).padStart(2, "0")],
    ["5", other[frame.start + 53]!.toString(16).padStart(2, "0")],
  ]);
  const headers = rows.filter({ has: page.getByRole("cell", { name: /^user headers/ }) }).first();
  await expect(headers).toContainText("differ from byte 2: 1 byte in 1 run");
  await expect(dialog.getByTestId("diff-summary")).toContainText(/\d+ of \d+ compared fields differ/);

  // "Show in hex map" selects the differing byte in the shown input and closes the dialog.
  await payload.getByRole("button", { name: "Show in hex map" }).click();
  await expect(dialog).toHaveCount(0);
  await expect
    .poll(() => page.locator('[data-offset][aria-selected="true"]').evaluateAll((els) => els.map((el) => Number((el as HTMLElement).dataset.offset))))
    .toEqual([frame.start + 53]);
});

// In memory, and with both files read on demand (each compared batch read alone from its File).
for (const [how, url] of [
  ["in memory", "/"],
  ["read on demand", "/?on-demand-from=0"],
] as const) {
  test(`a second file over 16 MiB is decoded off the page's thread and compared, ${how}; long diffs render in steps`, async ({ page }) => {
    test.setTimeout(120_000);
    const { file, plan } = await bigSegment(32);
    const other = readFileSync(file);
    const lastBatch = plan.batches - 1;
    const at = lastBatch * plan.batchBytes + 256 + 48 + 7; // payload byte 7 of the last batch's first frame
    other[at]! ^= 0xff;
    const otherPath = path.join(os.tmpdir(), "iggy-e2e-compare-big-other.log");
    writeFileSync(otherPath, other);

    await openPage(page, url);
    await openFile(page, file);
    await page.getByRole("button", { name: "Compare batches" }).click();
    const dialog = page.getByRole("dialog", { name: "Compare batches" });
    await dialog.getByLabel("Compare with a file").setInputFiles(otherPath);
    await expect(dialog.getByTestId("diff-other")).toContainText(
      `Other file: iggy-e2e-compare-big-other.log, ${other.length.toLocaleString("en-US")} bytes, ${plan.batches} batches.`,
    );
    // Batch 0 against batch 0: the same bytes.
    await expect(dialog.getByTestId("diff-summary")).toContainText("No differences");
    const body = dialog.getByRole("table", { name: "Batch diff" }).locator("tbody tr");
    const first = await body.count();
    expect(first).toBeLessThan(plan.messagesPerBatch);
    await dialog.getByRole("button", { name: "Show more rows" }).click();
    await expect.poll(() => body.count()).toBeGreaterThan(first);

    await dialog.getByLabel("Left batch").selectOption(String(lastBatch));
    await dialog.getByLabel("Right batch").selectOption(String(lastBatch));
    await expect(dialog.getByTestId("diff-summary")).toContainText(/^1 of \d+ compared fields differ/);
    const payload = dialog.locator("tbody tr.changed").filter({ has: page.getByRole("cell", { name: /^payload/ }) });
    await expect(payload).toHaveCount(1);
    await expect(payload).toContainText("differ from byte 7: 1 byte in 1 run");
    // The changed byte is selected in the shown input's hex map.
    await payload.getByRole("button", { name: "Show in hex map" }).click();
    await expect
      .poll(() => page.locator('[data-offset][aria-selected="true"]').evaluateAll((els) => els.map((el) => Number((el as HTMLElement).dataset.offset))))
      .toEqual([at]);
  });
}

test("an edited input over 16 MiB compares with its original: the original is decoded in a worker, not refused", async ({ page }) => {
  test.setTimeout(180_000);
  const { file } = await bigSegment(32);
  const bytes = new Uint8Array(readFileSync(file));
  const at = 256 + 48 + 7; // payload byte 7 of batch 0's first frame
  const typed = (bytes[at]! ^ 0xff).toString(16).padStart(2, "0");
  await openPage(page);
  await openFile(page, file);
  await page.getByRole("checkbox", { name: /^Edit bytes/ }).check();
  await cell(page, at).click();
  await page.keyboard.press(typed[0]!);
  await expect(cell(page, at)).toHaveText(new RegExp(`^${typed[0]}`), { timeout: 60_000 });
  await page.keyboard.press(typed[1]!);
  await expect(cell(page, at)).toHaveText(typed, { timeout: 60_000 });
  await expect(page.getByTestId("edit-state")).toContainText("1 edit:", { timeout: 60_000 });

  await page.getByRole("button", { name: "Compare batches" }).click();
  const dialog = page.getByRole("dialog", { name: "Compare batches" });
  await expect(dialog.getByRole("columnheader", { name: /Left \(Original batch 0\)/ })).toBeVisible({ timeout: 60_000 });
  await expect(dialog).not.toContainText("too large");
  await expect(dialog.getByTestId("diff-summary")).toContainText(/^1 of \d+ compared fields differ/);
  const payload = dialog.locator("tbody tr.changed").filter({ has: page.getByRole("cell", { name: /^payload/ }) });
  await expect(payload).toHaveCount(1);
  await expect(payload).toContainText("differ from byte 7: 1 byte in 1 run");
});
