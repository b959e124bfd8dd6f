/**
 * Issue #4: share links (round trip into a fresh browser context, selection included, redacted
 * variant), what-if editing (typing over a reserved byte, undo/redo, recompute checksums), the
 * batch builder, the batch diff after an edit, and the Markdown report and JSON downloads.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Download, Page } from "@playwright/test";
import {
  CORPUS_DIR,
  ROOT,
  cell,
  diagnosticsList,
  expect,
  loadManifest,
  offsetsWith,
  openCorpus,
  openPage,
  parseSummary,
  range,
  readDiagnostics,
  renderedOffsets,
  runCli,
  statusLine,
  summaryText,
  test,
  visibleOffsets,
  waitForInput,
} from "./fixtures.ts";

const manifest = loadManifest();
const caseOf = (file: string) => {
  const c = manifest.cases.find((k) => k.file === file);
  if (!c) throw new Error(`no corpus case ${file}`);
  return c;
};
const framesGrid = (page: Page) => page.getByRole("grid", { name: "Frames", exact: true });
const frameRows = (page: Page) =>
  framesGrid(page)
    .getByRole("row")
    .filter({ has: page.getByRole("gridcell") });
const CLEAN_ONE_FRAME = "1 batch · 1 frame · 0 errors · 0 warnings · 0 infos";

async function downloadText(download: Download): Promise<string> {
  const file = await download.path();
  return readFileSync(file, "utf8");
}

/** Clicks "Copy share link" and returns the link (location.href, which the page set to it). */
async function copyShareLink(page: Page): Promise<string> {
  const before = await page.evaluate(() => location.href);
  await page.getByRole("button", { name: "Copy share link" }).click();
  await expect(page.getByTestId("link-size")).toContainText(/Link: [\d.]+ (B|KiB)/);
  await expect.poll(() => page.evaluate(() => location.href)).not.toBe(before);
  const href = await page.evaluate(() => location.href);
  expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#iggy1\.[A-Za-z0-9_-]+$/);
  // When the clipboard is refused the link is shown for copying by hand: it must be the same.
  const box = page.getByRole("textbox", { name: "Share link" });
  if ((await box.count()) > 0) await expect(box).toHaveValue(href);
  return href;
}

test.describe("share link", () => {
  const FILE = "19-segment-4-batch2-bad-frame.bin";

  test("round trip: a fresh browser opens the same input with the same selection; a redacted link opens too", async ({ page, browser, guard }) => {
    const c = caseOf(FILE);
    // The frame with the bad checksum: batch 1, frame 0.
    const frame = c.batchList[1]!.frames[0]!;
    const globalIndex = c.batchList[0]!.frames.length;
    await openPage(page);
    const status = await openCorpus(page, FILE);

    await page.getByRole("region", { name: "Frames" }).getByLabel("All batches").check();
    await frameRows(page).nth(globalIndex).click();
    await expect(frameRows(page).nth(globalIndex)).toHaveAttribute("aria-selected", "true");
    const rendered = await renderedOffsets(page);
    const selected = await offsetsWith(page, "data-selected");
    expect(selected).toEqual(range(frame.start, frame.end).filter((o) => rendered.includes(o)));
    expect(selected).toContain(frame.start);

    const href = await copyShareLink(page);
    expect(href.length).toBeLessThan(8000);

    // A new context: no storage, no history shared with the first page.
    const context = await browser.newContext({ viewport: page.viewportSize() });
    guard.watch(context);
    try {
      const other = await context.newPage();
      await other.goto(href);
      expect(await waitForInput(other, FILE)).toBe(status);
      expect(await readDiagnostics(other)).toEqual(await readDiagnostics(page));
      // The selection came along: the same frame's bytes are selected and scrolled into view.
      const rendered2 = await renderedOffsets(other);
      await expect.poll(() => offsetsWith(other, "data-selected")).toEqual(range(frame.start, frame.end).filter((o) => rendered2.includes(o)));
      await expect.poll(() => visibleOffsets(other)).toContain(frame.start);
      // Same bytes: every rendered cell reads as the file's byte at its offset.
      const file = readFileSync(path.join(CORPUS_DIR, FILE));
      const cells = await other
        .locator("[data-offset]")
        .evaluateAll((els) => els.map((e) => [Number((e as HTMLElement).dataset.offset), e.textContent ?? ""] as const));
      expect(cells.length).toBeGreaterThan(100);
      for (const [offset, text] of cells) expect(text, `byte ${offset}`).toBe(file[offset]!.toString(16).padStart(2, "0"));

      // "Redact payloads": a different link that opens with the same findings, payloads replaced by the filler.
      await page.getByLabel("Redact payloads").check();
      const redacted = await copyShareLink(page);
      expect(redacted).not.toBe(href);
      const third = await context.newPage();
      await third.goto(redacted);
      expect(await waitForInput(third, FILE)).toBe(status);
      expect(await readDiagnostics(third)).toEqual(await readDiagnostics(page));
      const sha = createHash("sha256")
        .update(readFileSync(path.join(CORPUS_DIR, FILE)))
        .digest("hex");
      await expect(third.locator(".status-area")).toContainText(`Redacted copy of SHA-256 ${sha}`);
      const payload = await third.locator('[data-kind="frame.payload"]').allTextContents();
      expect(payload.length).toBeGreaterThan(0);
      expect(new Set(payload)).toEqual(new Set([..."REDACTED"].map((c) => c.charCodeAt(0).toString(16))));
      // The page that made the link still shows the unredacted input.
      await expect(statusLine(page)).toHaveText(status);
    } finally {
      await context.close();
    }
  });
});

test.describe("editing", () => {
  test("typing over a reserved header byte raises batch-reserved-nonzero; Undo clears it, Redo brings it back", async ({ page }) => {
    await openPage(page);
    await openCorpus(page, "01-valid-producer-1frame.bin");
    await expect(statusLine(page)).toHaveText(CLEAN_ONE_FRAME);

    await page.getByRole("checkbox", { name: /^Edit bytes/ }).check();
    await cell(page, 100).click();
    await expect.poll(() => offsetsWith(page, "data-cursor")).toEqual([100]);
    await page.keyboard.press("a");
    await page.keyboard.press("b");
    await expect(cell(page, 100)).toHaveText("ab");
    await expect.poll(() => offsetsWith(page, "data-cursor")).toEqual([101]);
    await expect(statusLine(page)).toHaveText("1 batch · 1 frame · 1 error · 0 warnings · 0 infos");
    const item = diagnosticsList(page).getByRole("listitem");
    await expect(item).toHaveCount(1);
    await expect(item).toHaveAttribute("data-code", "batch-reserved-nonzero");
    await expect(item).toHaveAttribute("data-severity", "error");
    await expect(cell(page, 100)).toHaveAttribute("data-problem", "error");
    await expect(page.getByTestId("edit-state")).toContainText("1 edit: byte 0x64 = ab");

    // A byte typed as two digits is one edit: one undo takes it back.
    const undo = page.getByRole("button", { name: "Undo" });
    await undo.click();
    await expect(cell(page, 100)).toHaveText("00");
    await expect(undo).toBeDisabled();
    await expect(statusLine(page)).toHaveText(CLEAN_ONE_FRAME);
    await expect(diagnosticsList(page).getByRole("listitem")).toHaveCount(0);
    await expect(cell(page, 100)).not.toHaveAttribute("data-problem", /.+/);

    const redo = page.getByRole("button", { name: "Redo" });
    await redo.click();
    await expect(cell(page, 100)).toHaveText("ab");
    await expect(diagnosticsList(page).getByRole("listitem")).toHaveAttribute("data-code", "batch-reserved-nonzero");
  });

  test("Recompute checksums fixes a corrupted frame checksum and lists what changed", async ({ page }) => {
    await openPage(page);
    await openCorpus(page, "11-frame-checksum-mismatch.bin");
    await expect(diagnosticsList(page).getByRole("listitem")).toHaveAttribute("data-code", "frame-checksum-mismatch");
    const before = await cell(page, 256).textContent();

    await page.getByRole("button", { name: "Recompute checksums" }).click();
    await expect(statusLine(page)).toHaveText("1 batch · 2 frames · 0 errors · 0 warnings · 0 infos");
    await expect(diagnosticsList(page).getByRole("listitem")).toHaveCount(0);
    const changes = page.getByRole("list", { name: "Checksum changes" }).getByRole("listitem");
    await expect(changes.first()).toContainText("batch 0 frame 0 checksum at 0x100");
    // The frame checksum feeds the batch checksum, so that changes too; nothing else does.
    const texts = await changes.allTextContents();
    expect(texts.some((t) => /frame 1\b/.test(t))).toBe(false);
    await expect(cell(page, 256)).not.toHaveText(before ?? "");
    await expect(cell(page, 256)).not.toHaveAttribute("data-problem", /.+/);
  });

  test("Compare batches after an edit shows the changed field", async ({ page }) => {
    await openPage(page);
    await openCorpus(page, "01-valid-producer-1frame.bin");
    await page.getByRole("checkbox", { name: /^Edit bytes/ }).check();
    await cell(page, 0).click(); // partition_id
    await page.keyboard.press("0");
    await page.keyboard.press("5");
    await expect(cell(page, 0)).toHaveText("05");

    await page.getByRole("button", { name: "Compare batches" }).click();
    const dialog = page.getByRole("dialog", { name: "Compare batches" });
    await expect(dialog).toBeVisible();
    const table = dialog.getByRole("table", { name: "Batch diff" });
    const row = table.getByRole("row").filter({ has: page.getByRole("cell", { name: "partition_id", exact: true }) });
    await expect(row).toHaveCount(1);
    await expect(row).toHaveClass(/changed/);
    await expect(row.getByRole("cell").nth(3)).toHaveText("0");
    await expect(row.getByRole("cell").nth(4)).toHaveText("5");
    await expect(dialog.getByTestId("diff-summary")).toContainText(/\d+ of \d+ compared fields differ/);
    // Nothing but partition_id was edited (stored fields are compared): "Changed only" leaves that row alone.
    await dialog.getByLabel("Changed only").check();
    await expect(table.locator("tbody tr")).toHaveCount(1);
    await expect(table.locator("tbody tr").getByRole("cell").nth(2)).toHaveText("partition_id");
    await expect(dialog.getByTestId("diff-summary")).toContainText(/^1 of \d+ compared fields differ/);
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await expect(dialog).toBeHidden();
  });
});

test("the builder builds a batch and Show in explorer opens it with no findings", async ({ page }) => {
  await openPage(page);
  await page.getByRole("button", { name: "Build a batch" }).click();
  const dialog = page.getByRole("dialog", { name: "Build a batch" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Add message" }).click();
  const payloads = dialog.getByRole("textbox", { name: /Payload$/ });
  await expect(payloads).toHaveCount(2);
  await payloads.nth(1).fill("second message from the e2e suite");
  const size = dialog.getByTestId("builder-size");
  await expect(size).toContainText(/Size: \d+ bytes \(2 messages\)/);
  const bytes = Number(await size.locator("strong").textContent());
  await dialog.getByRole("button", { name: "Show in explorer" }).click();
  await expect(dialog).toBeHidden();

  await waitForInput(page, `built batch (2 messages, ${bytes} bytes)`);
  await expect(statusLine(page)).toHaveText("1 batch · 2 frames · 0 errors · 0 warnings · 0 infos");
  await expect(diagnosticsList(page).getByRole("listitem")).toHaveCount(0);
  await expect(frameRows(page)).toHaveCount(2);
  await expect(frameRows(page).nth(1)).toContainText("second message from the e2e suite");
});

test.describe("downloads", () => {
  const FILE = "19-segment-4-batch2-bad-frame.bin";

  test("Download report gives Markdown with the diagnostics table and the tool version", async ({ page }) => {
    const version = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
    const sha = createHash("sha256")
      .update(readFileSync(path.join(CORPUS_DIR, FILE)))
      .digest("hex");
    await openPage(page);
    await openCorpus(page, FILE);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download report" }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.md$/);
    const md = await downloadText(download);
    expect(md).toContain(FILE);
    expect(md).toContain(`iggy-batch-explorer ${version}`);
    expect(md).toContain(sha);
    expect(md).toMatch(/^## Diagnostics$/m);
    expect(md).toContain("| # | severity | code | bytes | batch | frame | message |");
    expect(md).toMatch(/^\| 1 \| error \| `frame-checksum-mismatch` \| 0x0*3b5\.\.0x0*3bd \| 1 \| 0 \|/m);
  });

  test("Export JSON parses and its summary is the status line's", async ({ page }) => {
    await openPage(page);
    const status = await openCorpus(page, FILE);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export JSON" }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.json$/);
    const json = JSON.parse(await downloadText(download)) as {
      input: { name: string; size: number };
      summary: unknown;
      diagnostics: { code: string }[];
      batches: unknown[];
    };
    expect(json.summary).toEqual(parseSummary(status));
    expect(summaryText(json.summary as ReturnType<typeof parseSummary>)).toBe(status);
    expect(json.input).toEqual({ name: FILE, size: caseOf(FILE).size });
    // The page's JSON is the CLI's (contracts.md §1), diagnostics and batches included.
    const cli = runCli(path.join(CORPUS_DIR, FILE)).report;
    expect(json.summary).toEqual(cli.summary);
    expect(json.diagnostics).toEqual(cli.diagnostics);
    expect(json.batches).toEqual(cli.batches);
  });
});
