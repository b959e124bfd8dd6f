/**
 * Issue #4 §4: editing a field value in the Batch header table and in the frame inspector's header
 * fields; the decode and every check update at once, and Undo restores the original.
 */
import type { Page } from "@playwright/test";
import { expect, openCorpus, openPage, readDiagnostics, statusLine, test } from "./fixtures.ts";
import { sampleBytes, walk } from "./layout.ts";

const FILE = "01-valid-producer-1frame.bin";
const codes = async (page: Page) => (await readDiagnostics(page)).map((d) => d.code).sort();

async function editField(page: Page, label: string, value: string): Promise<void> {
  await page.getByRole("button", { name: `Edit ${label}` }).click();
  const box = page.getByRole("textbox", { name: label });
  await expect(box).toBeFocused();
  await box.fill(value);
  await box.press("Enter");
  await expect(box).toHaveCount(0);
}

test("editing message_count in the Batch header table raises message-count-mismatch; Undo clears it", async ({ page }) => {
  await openPage(page);
  const clean = await openCorpus(page, FILE);
  await editField(page, "batch at 0x0 message_count", "2");
  await expect(statusLine(page)).toHaveText("1 batch · 1 frame · 2 errors · 0 warnings · 0 infos");
  await expect.poll(async () => codes(page)).toEqual(["batch-checksum-mismatch", "message-count-mismatch"]);
  await expect(page.getByRole("grid", { name: "Batch header" })).toContainText("2");
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(statusLine(page)).toHaveText(clean);
  await expect.poll(async () => codes(page)).toEqual([]);
});

test("a bad value is refused with a message and changes nothing", async ({ page }) => {
  await openPage(page);
  const clean = await openCorpus(page, FILE);
  await page.getByRole("button", { name: "Edit batch at 0x0 message_count" }).click();
  const box = page.getByRole("textbox", { name: "batch at 0x0 message_count" });
  await box.fill("4294967296");
  await box.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "does not fit 32 bits" })).toBeVisible();
  await box.press("Escape");
  await expect(box).toHaveCount(0);
  await expect(statusLine(page)).toHaveText(clean);
});

test("editing a frame's offset_delta in the inspector flags it, and Recompute does not hide it", async ({ page }) => {
  await openPage(page);
  await openCorpus(page, FILE);
  await editField(page, "batch 0 frame 0 offset_delta", "3");
  await expect.poll(async () => codes(page)).toEqual(["frame-checksum-mismatch", "offset-delta-not-index"]);
  await page.getByRole("button", { name: "Recompute checksums" }).click();
  await expect.poll(async () => codes(page)).toEqual(["offset-delta-not-index"]);
  await expect(page.getByRole("list", { name: "Checksum changes" })).toContainText("batch 0 frame 0 checksum");
});

test("Stamp as server starts from the selected batch's own partition_id and base_offset", async ({ page }) => {
  const bytes = await sampleBytes("stamped-segment");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const batches = walk(bytes);
  await openPage(page);
  const partitionId = page.getByRole("textbox", { name: "partition_id" });
  const baseOffset = page.getByRole("textbox", { name: "base_offset" });
  // The header's first two fields, little-endian u64s: partition_id at +0, base_offset at +8.
  const expected = (i: number) => [String(view.getBigUint64(batches[i]!.start, true)), String(view.getBigUint64(batches[i]!.start + 8, true))];
  await expect(partitionId).toHaveValue(expected(0)[0]!);
  await expect(baseOffset).toHaveValue(expected(0)[1]!);
  await page
    .getByRole("grid", { name: "Batches", exact: true })
    .getByRole("row")
    .filter({ has: page.getByRole("gridcell") })
    .nth(1)
    .click();
  await expect(baseOffset).toHaveValue(expected(1)[1]!);
  await expect(partitionId).toHaveValue(expected(1)[0]!);
  expect(expected(1)[1]).not.toBe("0");
});
