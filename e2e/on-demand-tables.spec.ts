/**
 * Issue #9 point 4, the tables: a file opened on demand (`?on-demand-from=0`: never read whole) shows in
 * the Frames table, the Batch header table, the frame inspector and the layout diagram exactly what the
 * same file shows when it is read into memory, and what its bytes hold; nothing shows zeros meanwhile.
 */
import { writeFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { concat, encodeBatch, stampBatch } from "../src/core/walk/encode.ts";
import { expect, keepByteZero, openFile, openPage, slowReads, test } from "./fixtures.ts";
import { walk } from "./layout.ts";

const ON_DEMAND = "/?on-demand-from=0";
// These compare a file read on demand with the same file in memory from byte 0: the first-problem jump (findings.spec.ts) stays off.
test.beforeEach(async ({ page }) => keepByteZero(page));
const at = (n: number) => `0x${n.toString(16).padStart(8, "0")}`;
const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");

/** Four stamped batches of twelve frames: JSON and text payloads, user headers, one corrupted frame checksum, batch 0 ends with a payload of 5 MiB (so the file is larger than a whole-input share link reads), batch 2 with one of 1 MiB. */
async function buildFile(): Promise<{ file: string; bytes: Uint8Array }> {
  const xxh = await loadXxh3();
  const batches: Uint8Array[] = [];
  for (let b = 0; b < 4; b++) {
    const messages = Array.from({ length: 12 }, (_, i) => ({
      id: BigInt(b * 1000 + i) * 0x1_0000_0001n + 0xabcdn,
      payload: i % 2 === 0 ? JSON.stringify({ batch: b, frame: i, text: "x".repeat(i * 7) }) : `plain text ${b}/${i} ` + "é".repeat(i),
      timestampDelta: 100 * i + b,
      userHeaders: i === 3 ? [{ key: { kind: "string" as const, value: `key-${b}` }, value: { kind: "u32" as const, value: 40 + i } }] : undefined,
    }));
    if (b === 0) messages.push({ id: 77n, payload: "L".repeat(5 << 20), timestampDelta: 5, userHeaders: undefined });
    // Keeps batch 3 (and the end of the file) pages away from batches 1 and 2.
    if (b === 2) messages.push({ id: 78n, payload: "M".repeat(1 << 20), timestampDelta: 6, userHeaders: undefined });
    const producer = encodeBatch(xxh, { originTimestamp: 1_764_000_000_000_000n + BigInt(b) * 1_000_000n, messages });
    batches.push(stampBatch(xxh, producer, { partitionId: 7n, baseOffset: BigInt(100 + b * 10), baseTimestamp: 1_764_000_100_000_000n + BigInt(b) }));
  }
  const bytes = concat(batches);
  // Frame 4 of batch 1 gets a wrong stored checksum.
  const layout = walk(bytes);
  bytes[layout[1]!.frames[4]!.start]! ^= 0xff;
  const file = test.info().outputPath("on-demand-tables.bin");
  writeFileSync(file, bytes);
  return { file, bytes };
}

const framesGrid = (page: Page) => page.getByRole("grid", { name: "Frames", exact: true });
const batchesGrid = (page: Page) => page.getByRole("grid", { name: "Batches", exact: true });
const headerGrid = (page: Page) => page.getByRole("grid", { name: "Batch header", exact: true });
const inspector = (page: Page) => page.getByRole("region", { name: "Frame inspector" });
const figure = (page: Page) => page.getByRole("figure", { name: "Layout diagram" });

/** The text of every body row of a grid, cell by cell, once nothing in it is still being read. */
async function gridRows(page: Page, grid: ReturnType<typeof framesGrid>): Promise<string[][]> {
  await expect(grid.locator('[aria-busy="true"]')).toHaveCount(0);
  return grid
    .getByRole("row")
    .filter({ has: page.getByRole("gridcell") })
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('[role="gridcell"]')].map((c) => (c.textContent ?? "").trim())));
}

/** What the inspector shows, once it is not reading: facts, header fields, id, payload and user headers. */
async function inspectorText(page: Page): Promise<string> {
  await expect(inspector(page).locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(inspector(page).getByLabel("Frame facts")).toBeVisible();
  // Panels off screen skip rendering (content-visibility: auto), and innerText reads only what is rendered: read it where a person would.
  // The browser renders it a frame after the scroll, so read until the text is there.
  const scroll = inspector(page).locator(".insp-scroll");
  await scroll.scrollIntoViewIfNeeded();
  let text = "";
  await expect
    .poll(async () => {
      text = (await scroll.innerText()).trim();
      return text.length;
    })
    .toBeGreaterThan(0);
  return text;
}

async function selectBatch(page: Page, index: number): Promise<void> {
  await batchesGrid(page)
    .getByRole("row")
    .filter({ has: page.getByRole("gridcell") })
    .nth(index)
    .click();
}

async function selectFrameRow(page: Page, index: number): Promise<void> {
  await framesGrid(page)
    .getByRole("row")
    .filter({ has: page.getByRole("gridcell") })
    .nth(index)
    .click();
}

/** Everything the four views show for batch `batch`, frame `frame` of it. */
async function views(page: Page, batch: number, frame: number) {
  await selectBatch(page, batch);
  await expect(figure(page).getByRole("list", { name: `Batch ${batch} header fields` })).toBeVisible();
  const frames = await gridRows(page, framesGrid(page));
  const header = await gridRows(page, headerGrid(page));
  await selectFrameRow(page, frame);
  await expect(inspector(page)).toContainText(`batch ${batch} · frame ${frame}`);
  const inspected = await inspectorText(page);
  await expect(figure(page).locator('[aria-busy="true"]')).toHaveCount(0);
  const diagram = (await figure(page).innerText()).trim();
  return { frames, header, inspected, diagram };
}

test("a file opened on demand shows the same Frames, Batch header, inspector and diagram as in memory, and its bytes", async ({ page }) => {
  test.setTimeout(120_000);
  const { file, bytes } = await buildFile();
  const layout = walk(bytes);

  await openPage(page);
  await openFile(page, file);
  const inMemory = [await views(page, 1, 4), await views(page, 2, 3)];

  await openPage(page, ON_DEMAND);
  await openFile(page, file);
  const onDemand = [await views(page, 1, 4), await views(page, 2, 3)];
  expect(onDemand).toEqual(inMemory);

  // And what they show is the file's bytes: ids, offsets, the corrupted checksum, the drawn header's values.
  const rows = onDemand[0]!.frames;
  expect(rows).toHaveLength(12);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const [k, f] of layout[1]!.frames.entries()) {
    const row = rows[k]!;
    const idHex = hex(bytes.subarray(f.start + 8, f.start + 24));
    const uuid = `${idHex.slice(0, 8)}-${idHex.slice(8, 12)}-${idHex.slice(12, 16)}-${idHex.slice(16, 20)}-${idHex.slice(20)}`;
    expect(row.join(" | "), `frame ${k}`).toContain(uuid);
    expect(row).toContain(String(110 + view.getUint32(f.start + 24, true)));
    const payload = bytes.subarray(f.start + 48, f.start + 48 + view.getUint32(f.start + 36, true));
    expect(row.at(-1)).toBe(new TextDecoder().decode(payload).slice(0, 40) + (payload.length > 40 ? "…" : ""));
    expect(
      row.some((c) => c.startsWith("✗")),
      `frame ${k} checksum`,
    ).toBe(k === 4);
  }
  const inspected = onDemand[0]!.inspected;
  const f4 = layout[1]!.frames[4]!;
  expect(inspected).toContain(`bytes ${at(f4.start)}..${at(f4.end)}`);
  expect(inspected).toContain("✗ stored");
  expect(inspected).toContain(JSON.stringify({ batch: 1, frame: 4, text: "x".repeat(28) }, null, 2));
  // Batch 2 frame 3's TLV user header, decoded.
  expect(onDemand[1]!.inspected).toMatch(/key-2\s+u32\s+43/);
  const b3 = layout[2]!;
  expect(onDemand[1]!.diagram).toContain(`Batch 2 header: 256 bytes at 0x${b3.start.toString(16)}`);
  expect(onDemand[1]!.diagram).toContain(String(view.getBigUint64(b3.start + 8, true)));
  expect(onDemand[1]!.diagram).toContain(hex(bytes.subarray(b3.frames[3]!.start + 8, b3.frames[3]!.start + 24)));
  expect(onDemand[1]!.header.map((r) => r.join(" ")).join("\n")).toContain(hex(bytes.subarray(b3.start + 8, b3.start + 16)).replace(/(..)(?!$)/g, "$1 "));
});

test("on demand, a 5 MiB payload is previewed and inspected from its first bytes, with notes that say so", async ({ page }) => {
  test.setTimeout(120_000);
  const { file, bytes } = await buildFile();
  const layout = walk(bytes);
  await openPage(page, ON_DEMAND);
  await openFile(page, file);
  // Batch 0 is shown first.
  await expect(
    framesGrid(page)
      .getByRole("row")
      .filter({ has: page.getByRole("gridcell") })
      .first(),
  ).toBeVisible();
  const rows = await gridRows(page, framesGrid(page));
  expect(rows).toHaveLength(13);
  expect(rows[12]!.at(-1)).toBe("L".repeat(40) + "…");
  await selectFrameRow(page, 12);
  await expect(inspector(page)).toContainText("batch 0 · frame 12");
  const text = await inspectorText(page);
  expect(text).toContain("5,242,880 bytes");
  await expect(inspector(page).getByRole("tab", { name: /JSON/ })).toContainText("(no)");
  await inspector(page).getByRole("tab", { name: "Text" }).click();
  await expect(inspector(page).getByRole("tabpanel")).toContainText("first 256 KiB of 5,242,880 bytes");
  const big = layout[0]!.frames[12]!;
  expect(text).toContain(`bytes ${at(big.start)}..${at(big.end)}`);
  await inspector(page).getByRole("tab", { name: "JSON" }).click();
  await expect(inspector(page).getByRole("tabpanel")).toContainText("larger than 1 MiB, not parsed");
});

test("on demand, the byte columns of the Frames table sort the shown batch as in memory, and all batches not at all", async ({ page }) => {
  const { file } = await buildFile();
  const sortedRows = async (mode: string, column: string, clicks: number): Promise<string[][]> => {
    await openPage(page, mode);
    await openFile(page, file);
    const head = framesGrid(page).getByRole("columnheader").filter({ hasText: column }).first();
    for (let k = 0; k < clicks; k++) await head.getByRole("button").click();
    await expect(head).toHaveAttribute("aria-sort", clicks === 1 ? "ascending" : "descending");
    return gridRows(page, framesGrid(page));
  };
  for (const [column, clicks] of [
    ["Producer time", 2],
    ["Id", 2],
    ["Preview", 1],
  ] as const) {
    const inMemory = await sortedRows("/", column, clicks);
    const onDemand = await sortedRows(ON_DEMAND, column, clicks);
    expect(onDemand, `${column}, ${clicks === 1 ? "ascending" : "descending"}`).toEqual(inMemory);
    // Sorted, not the file's order: batch 0's frames are not listed by index.
    expect(inMemory.map((r) => r[0])).not.toEqual([...inMemory.map((r) => r[0])].sort((x, y) => Number(x) - Number(y)));
  }
  await page.getByRole("checkbox", { name: "All batches" }).check();
  const head = framesGrid(page).getByRole("columnheader");
  await expect(head.filter({ hasText: "Payload" })).toHaveAttribute("aria-sort", /none|ascending|descending/);
  for (const name of ["Id", "Producer time", "Preview"]) await expect(head.filter({ hasText: name }).first()).not.toHaveAttribute("aria-sort", /.+/);
});

test("editing a field of a file opened on demand reads it into memory first, then edits it", async ({ page }) => {
  const { file } = await buildFile();
  await openPage(page, ON_DEMAND);
  await openFile(page, file);
  await selectBatch(page, 1);
  await headerGrid(page)
    .getByRole("button", { name: /Edit batch at 0x[0-9a-f]+ message_count/ })
    .click();
  const form = page.locator("form.field-edit");
  await expect(form.getByRole("textbox")).toHaveValue("12");
  await expect(form).toContainText("Apply reads the whole file into memory first");
  await form.getByRole("textbox").fill("9");
  await form.getByRole("button", { name: "Apply" }).click();
  await expect(form).toHaveCount(0);
  await expect(headerGrid(page).getByRole("row").filter({ hasText: "message_count" })).toContainText("walked 12 complete frames");
});

test("on demand, rows and header fields not read yet show marked placeholders, never zeros, then the file's values", async ({ page }) => {
  const { file, bytes } = await buildFile();
  const layout = walk(bytes);
  await openPage(page, ON_DEMAND);
  await openFile(page, file);
  // Long enough that a busy machine still shows the placeholders before the bytes land.
  await slowReads(page, 2000);
  // Batch 2 lies past the pages read so far (batch 0 holds 5 MiB).
  await selectBatch(page, 2);
  const pending = framesGrid(page).locator('[aria-busy="true"]');
  await expect(pending.first()).toBeVisible();
  expect(await pending.first().textContent()).toBe("··");
  await expect(headerGrid(page).locator('[aria-busy="true"]').first()).toHaveText("reading…");
  // The bytes land: real values, no placeholder left.
  const rows = await gridRows(page, framesGrid(page));
  const first = layout[2]!.frames[0]!;
  const idHex = hex(bytes.subarray(first.start + 8, first.start + 12));
  expect(rows[0]!.join(" ")).toContain(idHex);
  await expect(headerGrid(page).locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(headerGrid(page).getByRole("row").filter({ hasText: "base_offset" })).toContainText("120");
});

test("on demand, a file that changed on disk: the tables, the inspector and the diagram say which bytes could not be read, and show no zeros", async ({
  page,
}) => {
  const { file } = await buildFile();
  await openPage(page, ON_DEMAND);
  // Every read of the file on the page comes back empty, as a file cut short on disk would (the worker's own reads still work).
  await page.evaluate(() => {
    Blob.prototype.slice = () => new Blob([]);
  });
  await openFile(page, file);
  const message = /Could not read bytes [\d,]+\.\.[\d,]+ of the file: the file changed since it was opened/;
  await expect(page.getByRole("region", { name: "Frames" }).getByRole("alert")).toContainText(message);
  await expect(page.getByRole("region", { name: "Batch header" }).getByRole("alert")).toContainText(message);
  await expect(inspector(page).getByRole("alert")).toContainText(message);
  await expect(figure(page).getByRole("alert")).toContainText(message);
  // The cells it could not read keep their placeholders; what the analysis holds still shows.
  const cells = await framesGrid(page)
    .getByRole("row")
    .filter({ has: page.getByRole("gridcell") })
    .first()
    .getByRole("gridcell")
    .allTextContents();
  expect(cells.slice(0, 2)).toEqual(["0", "100"]);
  expect(cells.slice(2).filter((c) => c === "··")).toHaveLength(4);
  expect(cells.join(" ")).not.toMatch(/00000000-0000/);
  await expect(headerGrid(page).getByRole("row").filter({ hasText: "base_offset" })).toContainText("reading…");
});
