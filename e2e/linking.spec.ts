/**
 * Linking between the hex map, the tables and the diagnostics: hover with checksum coverage,
 * selection both ways, jumping to a diagnostic's bytes, and the hex map's keyboard.
 */
import type { Page } from "@playwright/test";
import {
  cell,
  diagnosticsList,
  expect,
  hexMap,
  keepByteZero,
  offsetsWith,
  openCorpus,
  openPage,
  range,
  renderedOffsets,
  test,
  visibleOffsets,
} from "./fixtures.ts";
import { batchChecksumCoverage, sampleBytes, walk, type BatchLayout } from "./layout.ts";

/** The default sample's layout, computed in Node. */
let sample: BatchLayout[];
test.beforeAll(async () => {
  sample = walk(await sampleBytes("stamped-segment"));
  // What the tests below rely on: 3 batches of 2, 3 and 1 frames, the last frame below the fold.
  expect(sample.map((b) => b.frames.length)).toEqual([2, 3, 1]);
});

const framesGrid = (page: Page) => page.getByRole("grid", { name: "Frames", exact: true });
const frameRows = (page: Page) =>
  framesGrid(page)
    .getByRole("row")
    .filter({ has: page.getByRole("gridcell") });
const restrictTo = (offsets: number[], rendered: number[]) => {
  const shown = new Set(rendered);
  return offsets.filter((o) => shown.has(o));
};

test("hovering batch_checksum marks the field, explains it and shades what it covers", async ({ page }) => {
  // The hex map is sized to the window: a tall one renders both frames' checksum rows (offsets 256.. and 404..).
  await page.setViewportSize({ width: 1280, height: 1100 });
  await openPage(page);
  await cell(page, 40).hover();
  await expect.poll(() => offsetsWith(page, "data-hover")).toEqual(range(40, 48));
  for (let o = 40; o < 48; o++) await expect(cell(page, o)).toHaveAttribute("data-kind", "batch.batch_checksum");

  const tip = page.getByRole("tooltip");
  await expect(tip).toBeVisible();
  await expect(tip).toContainText("batch_checksum");
  await expect(tip).toContainText("XXH3-64 over the header fields and every frame's stored checksum");
  await expect(tip).toContainText("batch 0");

  // Covered: header bytes 0..40 and 48..52, then the 8 stored checksum bytes of each frame of batch 0.
  const expected = batchChecksumCoverage(sample[0]!);
  const rendered = await renderedOffsets(page);
  // Both frames' checksums are within the rendered rows, so the whole coverage can be checked.
  expect(restrictTo(expected, rendered)).toEqual(expected);
  await expect.poll(() => offsetsWith(page, "data-covered")).toEqual(expected);
});

test("hovering a frame checksum shades exactly the frame's bytes 8..end", async ({ page }) => {
  await openPage(page);
  const frame = sample[0]!.frames[0]!;
  await cell(page, frame.start + 3).hover();
  await expect.poll(() => offsetsWith(page, "data-hover")).toEqual(range(frame.start, frame.start + 8));
  await expect(page.getByRole("tooltip")).toContainText("checksum");
  await expect(page.getByRole("tooltip")).toContainText("XXH3-64 of frame bytes 8..end");
  const rendered = await renderedOffsets(page);
  const expected = restrictTo(range(frame.start + 8, frame.end), rendered);
  expect(expected.length).toBe(frame.end - frame.start - 8);
  await expect.poll(() => offsetsWith(page, "data-covered")).toEqual(expected);

  // Moving off the checksum clears the coverage.
  await cell(page, frame.start + 30).hover();
  await expect.poll(() => offsetsWith(page, "data-covered")).toEqual([]);
});

test("clicking a row of the Frames table selects its bytes and scrolls them into view", async ({ page }) => {
  await openPage(page);
  const target = sample[2]!.frames[0]!; // frame 5 of the input: batch 2, frame 0
  expect(await visibleOffsets(page)).not.toContain(target.start);

  await page.getByRole("region", { name: "Frames" }).getByLabel("All batches").check();
  const rows = frameRows(page);
  await expect(rows).toHaveCount(6);
  const row = rows.nth(target.index);
  await expect(row.getByRole("gridcell").nth(0)).toHaveText("2");
  await expect(row.getByRole("gridcell").nth(1)).toHaveText("0");
  await row.click();
  await expect(row).toHaveAttribute("aria-selected", "true");

  await expect.poll(() => visibleOffsets(page)).toContain(target.start);
  const rendered = await renderedOffsets(page);
  expect(rendered).toContain(target.end - 1);
  await expect.poll(() => offsetsWith(page, "data-selected")).toEqual(restrictTo(range(target.start, target.end), rendered));
  for (const other of [0, 1, 2, 3, 4]) await expect(rows.nth(other)).toHaveAttribute("aria-selected", "false");
});

test("clicking a byte selects its field and the frame's row in the Frames table", async ({ page }) => {
  await openPage(page);
  const [f0, f1] = sample[0]!.frames;
  const rows = frameRows(page);
  await expect(rows).toHaveCount(2);

  // A payload byte of frame 0.
  await cell(page, f0!.start + 60).click();
  await expect(rows.nth(0)).toHaveAttribute("aria-selected", "true");
  await expect(rows.nth(1)).toHaveAttribute("aria-selected", "false");
  const selected = await offsetsWith(page, "data-selected");
  expect(selected).toContain(f0!.start + 60);
  expect(selected.every((o) => o >= f0!.start + 48 && o < f0!.end)).toBe(true);
  for (const o of selected) await expect(cell(page, o)).toHaveAttribute("data-kind", "frame.payload");

  // The id of frame 1: exactly its 16 bytes.
  await cell(page, f1!.start + 10).click();
  await expect(rows.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(rows.nth(0)).toHaveAttribute("aria-selected", "false");
  await expect.poll(() => offsetsWith(page, "data-selected")).toEqual(range(f1!.start + 8, f1!.start + 24));
  await expect(cell(page, f1!.start + 10)).toHaveAttribute("aria-selected", "true");
});

test("selecting a diagnostic scrolls the hex map to its bytes", async ({ page }) => {
  // From byte 0: the file does not open on its first problem here, the click must bring it.
  await keepByteZero(page);
  await openPage(page);
  // 19-segment-4-batch2-bad-frame.bin: frame-checksum-mismatch on bytes 949..957 (manifest), below the fold.
  await openCorpus(page, "19-segment-4-batch2-bad-frame.bin");
  expect(await visibleOffsets(page)).not.toContain(949);
  const item = diagnosticsList(page).getByRole("listitem").first();
  await expect(item).toHaveAttribute("data-code", "frame-checksum-mismatch");
  await item.locator(".diag-jump").click();

  await expect.poll(() => offsetsWith(page, "data-selected")).toEqual(range(949, 957));
  await expect.poll(() => visibleOffsets(page)).toEqual(expect.arrayContaining(range(949, 957)));
  for (let o = 949; o < 957; o++) await expect(cell(page, o)).toHaveAttribute("data-problem", "error");
  // The Frames table follows: batch 1 is shown, its frame 0 selected.
  await expect(frameRows(page).first()).toHaveAttribute("aria-selected", "true");
});

test("keyboard: arrows move the cursor, n steps frames, ] steps problems, ? lists the keys", async ({ page }) => {
  await openPage(page);
  const map = hexMap(page);
  await map.focus();
  await expect(map).toBeFocused();
  const cursor = () => offsetsWith(page, "data-cursor");
  await expect.poll(cursor).toEqual([0]);

  const steps: [string, number][] = [
    ["ArrowRight", 1],
    ["ArrowRight", 2],
    ["ArrowDown", 18],
    ["ArrowLeft", 17],
    ["ArrowUp", 1],
    ["End", 15],
    ["Home", 0],
  ];
  for (const [key, at] of steps) {
    await page.keyboard.press(key);
    await expect.poll(cursor, key).toEqual([at]);
  }
  // The cursor's cell is the grid's active descendant.
  const active = await map.getAttribute("aria-activedescendant");
  expect(await page.locator(`[id="${active}"]`).getAttribute("data-offset")).toBe("0");

  // n: next frame (selects it whole and puts the cursor on its first byte); p: back.
  const [f0, f1] = sample[0]!.frames;
  await page.keyboard.press("n");
  await expect.poll(cursor).toEqual([f0!.start]);
  await expect.poll(() => offsetsWith(page, "data-selected")).toEqual(restrictTo(range(f0!.start, f0!.end), await renderedOffsets(page)));
  await page.keyboard.press("n");
  await expect.poll(cursor).toEqual([f1!.start]);
  await expect.poll(() => visibleOffsets(page)).toContain(f1!.start);
  await expect(frameRows(page).nth(1)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("p");
  await expect.poll(cursor).toEqual([f0!.start]);

  // Ctrl+End: the last byte, scrolled into view.
  const last = sample[2]!.end - 1;
  await page.keyboard.press("Control+End");
  await expect.poll(cursor).toEqual([last]);
  await expect.poll(() => visibleOffsets(page)).toContain(last);

  // ]: next problem, wrapping around. 08-batch-reserved-nonzero.bin has two: 60..63 and 200..201; it opens on the first.
  await openCorpus(page, "08-batch-reserved-nonzero.bin");
  await expect.poll(() => offsetsWith(page, "data-selected")).toEqual(range(60, 63));
  await expect.poll(cursor).toEqual([60]);
  await map.focus();
  await page.keyboard.press("]");
  await expect.poll(() => offsetsWith(page, "data-selected")).toEqual([200]);
  await expect.poll(cursor).toEqual([200]);
  await page.keyboard.press("]");
  await expect.poll(cursor).toEqual([60]);
  await page.keyboard.press("[");
  await expect.poll(cursor).toEqual([200]);

  // ?: the help dialog lists every key.
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard" });
  await expect(help).toBeVisible();
  const keys = help.getByRole("table", { name: "Keyboard shortcuts" });
  for (const k of [
    "← / →",
    "↑ / ↓",
    "PageUp / PageDown",
    "Home / End",
    "Ctrl+Home / Ctrl+End",
    "Enter",
    "n / p",
    "] / [",
    "Escape",
    "0–9 a–f",
    "?",
    "Ctrl+V",
  ]) {
    await expect(
      keys
        .getByRole("row")
        .filter({ has: page.locator("kbd", { hasText: k }) })
        .first(),
      k,
    ).toBeVisible();
  }
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
});
