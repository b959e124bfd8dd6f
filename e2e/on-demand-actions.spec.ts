/**
 * The actions on an input read on demand (`?on-demand-from=0` opens any batch file so): the search
 * worker finds hits in the File at their real offsets and names their fields as in memory (a cut-off
 * frame's too, from its payload_length read from the file), a batch downloads as exactly its bytes (read
 * alone), turning edit mode on reads the file into memory and says so and an edit is re-checked,
 * and Compare reads the two batches it compares and finds what the same file finds in memory.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { encodeBatch } from "../src/core/walk/encode.ts";
import type { Download, Page } from "@playwright/test";
import { cell, CORPUS_DIR, expect, keepByteZero, offsetsWith, openFile, openPage, parseSummary, runCli, statusLine, test, waitForIdle } from "./fixtures.ts";

const FILE = path.join(CORPUS_DIR, "19-segment-4-batch2-bad-frame.bin");
const ON_DEMAND = "/?on-demand-from=0";
// These compare a file read on demand with the same file in memory from byte 0: the first-problem jump (findings.spec.ts) stays off.
test.beforeEach(async ({ page }) => keepByteZero(page));
const box = (page: Page) => page.getByLabel("Go to or search");
const says = (page: Page) => page.getByTestId("search-says");
const results = (page: Page) => page.getByRole("list", { name: "Search results" });
const selectedOffsets = (page: Page) => offsetsWith(page, 'aria-selected="true"');

/** Every start of `needle` in `hay`. */
function starts(hay: Uint8Array, needle: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i + needle.length <= hay.length; i++) if (needle.every((b, k) => hay[i + k] === b)) out.push(i);
  return out;
}

async function search(page: Page, query: string): Promise<void> {
  await box(page).fill(query);
  await box(page).press("Enter");
}

const hitStarts = (page: Page) =>
  results(page)
    .getByRole("listitem")
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-start"))));

async function downloaded(download: Download): Promise<Uint8Array> {
  return new Uint8Array(readFileSync(await download.path()));
}

test("search of a file read on demand finds text, hex and an id at their offsets in the file", async ({ page }) => {
  const bytes = new Uint8Array(readFileSync(FILE));
  const { report } = runCli(FILE);
  await openPage(page, ON_DEMAND);
  await openFile(page, FILE);

  const text = new TextEncoder().encode("consumer");
  const expected = starts(bytes, text);
  expect(expected.length).toBeGreaterThan(1);
  await search(page, `"consumer"`);
  await expect(says(page)).toContainText(`of ${expected.length} hit`);
  await expect(says(page)).toContainText("searched in a worker");
  expect(await hitStarts(page)).toEqual(expected);

  // Batch 2's header bytes 8..16 (its base_offset), spaced hex: found where the file holds them.
  const b2 = report.batches[2]!;
  const pattern = bytes.slice(b2.start + 8, b2.start + 16);
  await search(page, [...pattern].map((b) => b.toString(16).padStart(2, "0")).join(" "));
  const hexHits = starts(bytes, pattern);
  await expect(says(page)).toContainText(`of ${hexHits.length} hit`);
  expect(await hitStarts(page)).toEqual(hexHits);

  // A frame's id, as 32 hex digits in value order: one hit, on that frame's id field.
  const frame = report.batches[1]!.frames![0]!;
  const id = [...bytes.subarray(frame.start + 8, frame.start + 24)].reverse().map((b) => b.toString(16).padStart(2, "0"));
  await search(page, `id:${id.join("")}`);
  await expect(says(page)).toContainText("of 1 hit");
  expect(await hitStarts(page)).toEqual([frame.start + 8]);

  // Go to past the end names the file's real size.
  await search(page, String(bytes.length + 5));
  await expect(says(page)).toContainText(`the input has ${bytes.length.toLocaleString("en-US")} bytes`);
});

test("a hit in the user headers of a frame cut off at the end of the file is named as in memory", async ({ page }) => {
  // A valid TLV block (string key "color" → string "red") after a 20-byte payload, then the last 4 bytes of the file cut off.
  const headers = Uint8Array.from("0205000000636f6c6f720203000000726564".match(/../g)!.map((h) => parseInt(h, 16)));
  const batch = encodeBatch(await loadXxh3(), {
    messages: [{ payload: new Uint8Array(20).fill(0x50) }, { payload: new Uint8Array(20).fill(0x51), userHeaders: headers }],
  });
  const file = path.join(os.tmpdir(), "iggy-e2e-torn-headers-00000000000000000000.log");
  writeFileSync(file, batch.subarray(0, batch.length - 4));
  const where = async (url: string) => {
    await openPage(page, url);
    await openFile(page, file);
    await search(page, `"color"`);
    await expect(says(page)).toContainText("of 1 hit");
    return results(page).locator(".search-hit-where").innerText();
  };
  const inMemory = await where("/");
  expect(inMemory).toBe("batch 0 · user_headers");
  expect(await where(ON_DEMAND)).toBe(inMemory);
});

test("Download batch .bin of a file read on demand gives exactly that batch's bytes, and a link of it is made from it alone", async ({ page }) => {
  const bytes = new Uint8Array(readFileSync(FILE));
  const { report } = runCli(FILE);
  await openPage(page, ON_DEMAND);
  await openFile(page, FILE);
  for (const index of [1, 3]) {
    const b = report.batches[index]!;
    await search(page, `batch ${index}`);
    await expect(says(page)).toContainText(`Went to batch ${index}`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download batch .bin" }).click()]);
    expect(download.suggestedFilename()).toBe(`19-segment-4-batch2-bad-frame-batch${index}.bin`);
    expect(Buffer.from(await downloaded(download)).equals(Buffer.from(bytes.subarray(b.start, b.end)))).toBe(true);
  }
  // The link of the selected batch: made from that batch, read alone.
  await page.getByRole("combobox", { name: "What the link carries" }).selectOption("selection");
  await expect(page.getByTestId("link-size")).toContainText(/Link: [\d.]+ (B|KiB) \(batch 3 only\)/);
  // Nothing was read into memory for any of it.
  await expect(page.getByTestId("share-memory-note")).toHaveCount(0);
});

test("a file read on demand makes no share link until asked, then makes it", async ({ page }) => {
  await openPage(page, ON_DEMAND);
  await openFile(page, FILE);
  await expect(page.getByTestId("link-size")).toContainText("made when asked for");
  // Every text the link's size shows from here on: a link made on its own would show its size there.
  await page.getByTestId("link-size").evaluate((el) => {
    const shown: string[] = [];
    (window as unknown as { __linkTexts: string[] }).__linkTexts = shown;
    new MutationObserver(() => shown.push(el.textContent ?? "")).observe(el, { subtree: true, childList: true, characterData: true });
  });
  // A later read of the whole File (a search in the worker), done after a link made on open would have been read (one batch).
  await search(page, `"consumer"`);
  await expect(says(page)).toContainText("searched in a worker");
  // Not made on its own: opening the file computed no link.
  await expect(page.getByRole("button", { name: "Copy share link" })).toBeDisabled();
  expect(await page.evaluate(() => (window as unknown as { __linkTexts: string[] }).__linkTexts.filter((t) => /Link: [\d.]+ /.test(t)))).toEqual([]);
  await page.getByRole("button", { name: "Make share link" }).click();
  await expect(page.getByTestId("link-size")).toContainText(/Link: [\d.]+ (B|KiB)/);
  await expect(page.getByRole("button", { name: "Copy share link" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Make share link" })).toHaveCount(0);
});

test("a redacted batch .bin read on demand is the one the same file gives in memory", async ({ page }) => {
  const redactedBatch = async (url: string) => {
    await openPage(page, url);
    await openFile(page, FILE);
    await page.getByRole("checkbox", { name: "Redact payloads" }).check();
    await search(page, "batch 2");
    await expect(says(page)).toContainText("Went to batch 2");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download batch .bin" }).click()]);
    expect(download.suggestedFilename()).toBe("19-segment-4-batch2-bad-frame-redacted-batch2.bin");
    return Buffer.from(await downloaded(download));
  };
  const inMemory = await redactedBatch("/");
  const bytes = readFileSync(FILE);
  const b2 = runCli(FILE).report.batches[2]!;
  expect(inMemory.length).toBe(b2.end - b2.start);
  expect(inMemory.equals(bytes.subarray(b2.start, b2.end))).toBe(false);
  expect((await redactedBatch(ON_DEMAND)).equals(inMemory)).toBe(true);
  await expect(page.getByTestId("share-memory-note")).toHaveCount(0);
});

test("Download report of a file read on demand reads only what it quotes; Export JSON reads it into memory and says so; both match the CLI", async ({
  page,
}) => {
  const bytes = readFileSync(FILE);
  const sha = createHash("sha256").update(bytes).digest("hex");
  const cli = runCli(FILE).report;
  await openPage(page, ON_DEMAND);
  await openFile(page, FILE);
  const [report] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download report" }).click()]);
  const md = readFileSync(await report.path(), "utf8");
  expect(md).toContain(sha);
  expect(md).toMatch(/^\| 1 \| error \| `frame-checksum-mismatch` \| 0x0*3b5\.\.0x0*3bd \| 1 \| 0 \|/m);
  // The report reads only what it quotes: the file stays on demand.
  await expect(page.getByTestId("share-memory-note")).toHaveCount(0);
  await expect(page.getByTestId("edit-resident")).toContainText("read from its file on demand");
  const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export JSON" }).click()]);
  const doc = JSON.parse(readFileSync(await json.path(), "utf8")) as { batches: unknown; diagnostics: unknown };
  expect(doc.batches).toEqual(cli.batches);
  expect(doc.diagnostics).toEqual(cli.diagnostics);
  await expect(page.getByTestId("share-memory-note")).toHaveText("Read all 2,493 bytes of 19-segment-4-batch2-bad-frame.bin into memory to export JSON.");
});

test("edit mode on a file read on demand reads it into memory, says so, keeps the search hits, and an edit is re-checked", async ({ page }) => {
  await openPage(page, ON_DEMAND);
  const before = parseSummary(await openFile(page, FILE));
  await expect(page.getByTestId("edit-resident")).toContainText("read from its file on demand");
  await search(page, `"consumer"`);
  await expect(says(page)).toContainText("hit");
  const hits = await hitStarts(page);
  const mode = page.getByRole("checkbox", { name: /^Edit bytes/ });
  // Turning editing on reads the file into memory first, so the box is ticked only once that is done: click, then wait for it.
  await mode.click();
  await expect(mode).toBeChecked();
  await expect(page.getByTestId("edit-resident")).toContainText("Read all 2,493 bytes of 19-segment-4-batch2-bad-frame.bin into memory to edit it.");
  await waitForIdle(page);
  // The same bytes, now in memory: the search's hits stay.
  expect(await hitStarts(page)).toEqual(hits);
  await search(page, "0");
  // partition_id's low byte is 01 in this file: typing 5a there breaks batch 0's checksum.
  await cell(page, 0).click();
  await page.keyboard.press("5");
  await page.keyboard.press("a");
  await expect(cell(page, 0)).toHaveText("5a");
  // The two digits of one byte are one step: 01 → 5a.
  await expect(page.getByTestId("edit-state")).toContainText("1 edit: byte 0x0 = 5a");
  await expect.poll(async () => parseSummary((await statusLine(page).textContent()) ?? "").errors).toBe(before.errors + 1);
});

test("Compare on a file read on demand says what the same file says in memory", async ({ page }) => {
  const summaryOf = async () => {
    await page.getByRole("button", { name: "Compare batches" }).click();
    const dialog = page.getByRole("dialog", { name: "Compare batches" });
    await expect(dialog.getByTestId("diff-summary")).toContainText(/compared fields/);
    const text = await dialog.getByTestId("diff-summary").textContent();
    const panes = await dialog.getByTestId("diff-pane-note").allTextContents();
    // The first differing bytes of batch 1 (swapped to the left, so its offset in the input counts), selected in the hex map.
    await dialog.getByRole("button", { name: "Swap sides" }).click();
    await expect(dialog.getByRole("columnheader", { name: /^Left \(Batch 1\)/ })).toBeVisible();
    await dialog.getByRole("button", { name: "Show in hex map" }).first().click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await selectedOffsets(page)).length).toBeGreaterThan(0);
    return { text, panes, selected: await selectedOffsets(page) };
  };
  await openPage(page);
  await openFile(page, FILE);
  const inMemory = await summaryOf();
  expect(inMemory.text).toMatch(/^\d+ of \d+ compared fields differ/);
  await openPage(page, ON_DEMAND);
  await openFile(page, FILE);
  await expect(page.getByTestId("edit-resident")).toContainText("read from its file on demand");
  expect(inMemory.selected[0]).toBeGreaterThanOrEqual(runCli(FILE).report.batches[1]!.start);
  expect(await summaryOf()).toEqual(inMemory);
});
