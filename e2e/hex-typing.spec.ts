/**
 * Typing hex digits over a segment file's bytes in the hex map. A container's edit is shown once the
 * edited bytes are re-opened in the worker, so a digit can arrive before or after the previous one's
 * re-open lands; either way each pair of digits makes one byte and the cursor moves on byte by byte.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { CORPUS_DIR, asciiPoint, cell, expect, offsetsWith, openCorpus, openFile, openPage, test } from "./fixtures.ts";
import { bigSegment } from "./big-segment.ts";

const hex = (b: number) => b.toString(16).padStart(2, "0");
const editState = (page: Page) => page.getByTestId("edit-state");

/** Opens a segment file of about `mib` MiB, turns edit mode on and puts the cursor on byte 0; returns its bytes. */
async function openForTyping(page: Page, mib: number): Promise<Uint8Array> {
  const { file } = await bigSegment(mib);
  await openPage(page);
  await openFile(page, file);
  await page.getByRole("checkbox", { name: /^Edit bytes/ }).check();
  await cell(page, 0).click();
  await expect.poll(() => offsetsWith(page, "data-cursor")).toEqual([0]);
  return new Uint8Array(readFileSync(file));
}

test("1 MiB segment: the second digit, typed after the first one is shown, completes the byte", async ({ page }) => {
  const bytes = await openForTyping(page, 1);
  await page.keyboard.press("5");
  await expect(cell(page, 0)).toHaveText(hex(0x50 | (bytes[0]! & 0x0f)));
  await page.keyboard.press("a");
  await expect(cell(page, 0)).toHaveText("5a");
  await expect(editState(page)).toContainText("1 edit:");
  await expect.poll(() => offsetsWith(page, "data-cursor")).toEqual([1]);
});

test("32 MiB segment on a 4× throttled CPU: two digits with a wait between, then a burst of six, advance byte by byte", async ({ page }) => {
  test.setTimeout(240_000);
  const bytes = await openForTyping(page, 32);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const slow = { timeout: 60_000 };

  await page.keyboard.press("5");
  await expect(cell(page, 0)).toHaveText(hex(0x50 | (bytes[0]! & 0x0f)), slow);
  await page.keyboard.press("a");
  await expect(cell(page, 0)).toHaveText("5a", slow);
  await expect.poll(() => offsetsWith(page, "data-cursor")).toEqual([1]);

  // Six digits at once: each arrives while earlier edits are still being re-opened.
  await page.keyboard.type("6b7c8d");
  await expect(cell(page, 3)).toHaveText("8d", slow);
  for (const [offset, text] of [
    [0, "5a"],
    [1, "6b"],
    [2, "7c"],
  ] as const)
    await expect(cell(page, offset)).toHaveText(text);
  await expect(cell(page, 4)).toHaveText(hex(bytes[4]!));
  await expect(editState(page)).toContainText("4 edits", slow);
  await expect.poll(() => offsetsWith(page, "data-cursor")).toEqual([4]);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
});

test("a click starts a new byte at its high nibble, from the hex or the ASCII column", async ({ page }) => {
  const bytes = readFileSync(path.join(CORPUS_DIR, "01-valid-producer-1frame.bin"));
  await openPage(page);
  await openCorpus(page, "01-valid-producer-1frame.bin");
  await page.getByRole("checkbox", { name: /^Edit bytes/ }).check();
  await cell(page, 100).click();
  await page.keyboard.press("a");
  await expect(cell(page, 100)).toHaveText("a0");
  // Clicking the same byte again: the next digit is its high nibble, not the pending low one.
  await cell(page, 100).click();
  await page.keyboard.press("b");
  await expect(cell(page, 100)).toHaveText("b0");
  await page.keyboard.press("c");
  await expect(cell(page, 100)).toHaveText("bc");
  await expect.poll(() => offsetsWith(page, "data-cursor")).toEqual([101]);
  // The ASCII column puts the cursor on its byte too; the digits are typed in hex.
  const ascii = await asciiPoint(page, 102);
  await page.mouse.click(ascii.x, ascii.y);
  await page.keyboard.type("de");
  await expect(cell(page, 102)).toHaveText("de");
  await expect(cell(page, 101)).toHaveText(hex(bytes[101]!));
  await expect.poll(() => offsetsWith(page, "data-cursor")).toEqual([103]);
  // A byte typed as two digits is one edit; "a" alone stays an edit of its own.
  await expect(editState(page)).toContainText("3 edits");
});
