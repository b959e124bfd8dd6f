/**
 * Findings people can attach (issue 12), as a new user meets them: a redacted link of a clean file
 * opens clean and says it is a redacted copy of the original's SHA-256; a large input's link carries
 * the batch around the first problem by default, its size shown before copying; the SVG picture is
 * well-formed for the browser's own XML parser with one mark per problem byte, and the PNG is drawn;
 * the reports come as Markdown and plain text.
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Download, Page } from "@playwright/test";
import { DIAGNOSTIC_HELP } from "../src/format/diagnostic-help.ts";
import {
  CONTAINERS_DIR,
  CORPUS_DIR,
  ROOT,
  diagnosticsList,
  expect,
  offsetsWith,
  openCorpus,
  openFile,
  openPage,
  readDiagnostics,
  runCli,
  statusLine,
  test,
  visibleOffsets,
  waitForInput,
} from "./fixtures.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { encodeBatch } from "../src/core/walk/encode.ts";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const corpusBytes = (file: string) => new Uint8Array(readFileSync(path.join(CORPUS_DIR, file)));
const readDownload = async (d: Download) => readFileSync(await d.path());
const download = async (page: Page, button: string) => {
  const [d] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button, exact: true }).click()]);
  return d;
};
/** The diagnostics as the list shows them: code and byte range. */
const listed = (page: Page) =>
  diagnosticsList(page)
    .getByRole("listitem")
    .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-code")} ${e.querySelector(".diag-range")?.textContent ?? ""}`));

/** Waits for the link size (shown before copying), clicks Copy share link, and returns the link. */
async function copyLink(page: Page): Promise<{ href: string; sizeText: string }> {
  const size = page.getByTestId("link-size");
  await expect(size).toHaveText(/^Link: [\d.]+ (B|KiB)/);
  const sizeText = (await size.textContent()) ?? "";
  await page.getByRole("button", { name: "Copy share link" }).click();
  await expect(size).toContainText(/copied|select and copy/);
  return { href: await page.evaluate(() => location.href), sizeText };
}

test("a redacted link of a clean file opens clean and says it is a redacted copy of the original", async ({ page, browser, guard }) => {
  const FILE = "02-valid-stamped-3frames-userheaders.bin";
  await openPage(page);
  const status = await openCorpus(page, FILE);
  expect(status).toContain("0 errors · 0 warnings · 0 infos");
  await page.getByLabel("Redact payloads").check();
  await page.getByLabel("and user header values").check();
  const { href, sizeText } = await copyLink(page);
  expect(href).toMatch(/#iggy1\./);
  expect(sizeText).toMatch(/^Link: [\d.]+ (B|KiB)$/);

  const context = await browser.newContext({ viewport: page.viewportSize() });
  guard.watch(context);
  try {
    const other = await context.newPage();
    await other.goto(href);
    expect(await waitForInput(other, FILE)).toBe(status);
    await expect(other.getByTestId("provenance-note")).toHaveText(
      `Redacted copy of SHA-256 ${sha256(corpusBytes(FILE))}: payloads and user header values were replaced and the checksums re-made, so the findings are the original's.`,
    );
    const payload = await other.locator('[data-kind="frame.payload"]').allTextContents();
    expect(new Set(payload)).toEqual(new Set([..."REDACTED"].map((c) => c.charCodeAt(0).toString(16))));
    // Its report says the same.
    const md = (await readDownload(await download(other, "Download report"))).toString("utf8");
    expect(md).toContain(`**Redacted copy.**`);
    expect(md).toContain(sha256(corpusBytes(FILE)));
  } finally {
    await context.close();
  }
});

test("a corpus file with an error: the redacted link keeps every finding at its bytes", async ({ page, browser, guard }) => {
  const FILE = "19-segment-4-batch2-bad-frame.bin";
  await openPage(page);
  await openCorpus(page, FILE);
  const before = await listed(page);
  await page.getByLabel("Redact payloads").check();
  await page.getByLabel("and ids").check();
  const { href } = await copyLink(page);
  const context = await browser.newContext({ viewport: page.viewportSize() });
  guard.watch(context);
  try {
    const other = await context.newPage();
    await other.goto(href);
    await waitForInput(other, FILE);
    expect(await listed(other)).toEqual(before);
    expect(await readDiagnostics(other)).toEqual(await readDiagnostics(page));
    await expect(other.locator(".status-area")).toContainText("Redacted copy of SHA-256");
  } finally {
    await context.close();
  }
  // The redacted .bin, judged by the command line: the original's diagnostics, none of its payload bytes.
  const d = await download(page, "Download redacted .bin");
  expect(d.suggestedFilename()).toBe("19-segment-4-batch2-bad-frame-redacted.bin");
  const strip = (r: ReturnType<typeof runCli>) => r.report.diagnostics.map(({ code, severity, start, end }) => ({ code, severity, start, end }));
  expect(strip(runCli(await d.path()))).toEqual(strip(runCli(path.join(CORPUS_DIR, FILE))));
  const copy = await readDownload(d);
  expect(copy.length).toBe(corpusBytes(FILE).length);
  expect(copy.includes(Buffer.from("REDACTEDREDACTED"))).toBe(true);
});

test("a large input shares the batch around the first problem by default, its size shown before copying", async ({ page, browser, guard }) => {
  const xxh = await loadXxh3();
  // 48 messages of 4 KiB random bytes (incompressible: the whole link would be ~260 KiB), then a batch with a bad frame checksum.
  const big = encodeBatch(xxh, { messages: Array.from({ length: 48 }, () => ({ payload: new Uint8Array(randomBytes(4096)) })) });
  const bad = corpusBytes("11-frame-checksum-mismatch.bin");
  const input = new Uint8Array([...big, ...bad]);
  const file = test.info().outputPath("large-with-problem.bin");
  writeFileSync(file, input);
  await openPage(page);
  // Nothing selected: the file opens at byte 0, so the link's default is the first problem's batch, not a selection.
  await page.getByText("Settings", { exact: true }).click();
  await page.getByRole("checkbox", { name: /Open files at their first problem/ }).uncheck();
  await openFile(page, file);
  await expect(page.getByLabel("What the link carries")).toHaveValue("first-problem");
  const { href, sizeText } = await copyLink(page);
  expect(sizeText).toMatch(/\(batch 1 only\)/);
  expect(href.length).toBeLessThan(4000);

  const context = await browser.newContext({ viewport: page.viewportSize() });
  guard.watch(context);
  try {
    const other = await context.newPage();
    await other.goto(href);
    expect(await waitForInput(other, "large-with-problem.bin (batch 1)")).toBe("1 batch · 2 frames · 1 error · 0 warnings · 0 infos");
    await expect(other.locator(".status-area")).toContainText(
      `Part of SHA-256 ${sha256(input)}: bytes 0x${big.length.toString(16)}..0x${input.length.toString(16)} of a ${input.length.toLocaleString("en-US")}-byte input`,
    );
    // The problem's bytes came selected.
    await expect.poll(() => other.locator("[data-selected]").count()).toBeGreaterThan(0);
  } finally {
    await context.close();
  }
  // Choosing the whole input shows its (long) size and the warning before anything is copied.
  await page.getByLabel("What the link carries").selectOption("whole");
  await expect(page.getByTestId("link-size")).toHaveText(/^Link: \d{3}\.\d KiB$/);
  await expect(page.getByText(/too long for most trackers/)).toBeVisible();
});

test("the picture of the bytes: SVG well-formed with a caption and one mark per problem byte; PNG drawn", async ({ page }) => {
  const FILE = "19-segment-4-batch2-bad-frame.bin";
  await openPage(page);
  await openCorpus(page, FILE);
  await diagnosticsList(page).getByRole("listitem").first().locator(".diag-jump").click();
  const svgDownload = await download(page, "Download SVG");
  expect(svgDownload.suggestedFilename()).toBe("19-segment-4-batch2-bad-frame-bytes.svg");
  const svg = (await readDownload(svgDownload)).toString("utf8");
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    return {
      error: doc.getElementsByTagName("parsererror").length,
      root: doc.documentElement.localName,
      title: doc.querySelector("title")?.textContent ?? "",
      marks: [...doc.querySelectorAll("rect.mark")].map((m) => Number(m.getAttribute("data-offset"))),
    };
  }, svg);
  expect(parsed.error).toBe(0);
  expect(parsed.root).toBe("svg");
  expect(parsed.title).toContain(FILE);
  expect(parsed.title).toContain("bytes 0x3b5..0x3bd");
  expect(parsed.title).toContain(`SHA-256 ${sha256(corpusBytes(FILE))}`);
  expect(parsed.title).toContain("verdict FAIL");
  expect(parsed.marks).toEqual([0x3b5, 0x3b6, 0x3b7, 0x3b8, 0x3b9, 0x3ba, 0x3bb, 0x3bc]);

  const png = await readDownload(await download(page, "Download PNG"));
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.readUInt32BE(16)).toBeGreaterThan(500);
  await expect(statusLine(page)).toContainText("1 error");
});

test("reports: Markdown with a <details> per affected batch, and a plain-text variant", async ({ page }) => {
  const FILE = "19-segment-4-batch2-bad-frame.bin";
  await openPage(page);
  await openCorpus(page, FILE);
  const md = (await readDownload(await download(page, "Download report"))).toString("utf8");
  expect(md).toContain("<summary>Batch 1 at 0x2b5..0x51d");
  expect(md).toMatch(/\| share link \| \[open in Iggy Batch Explorer\]\(<http:\/\/127\.0\.0\.1:\d+\/#iggy1\.[\w-]+>\) \|/);
  const textDownload = await download(page, "Download text report");
  expect(textDownload.suggestedFilename()).toMatch(/-report\.txt$/);
  const text = (await readDownload(textDownload)).toString("utf8");
  expect(text).toMatch(/^Iggy batch report: 19-segment-4-batch2-bad-frame\.bin\n/);
  expect(text).toContain("frame-checksum-mismatch: batch 1 frame 0");
  expect(text).not.toContain("<details>");
});

test("a file opens scrolled to its first problem, selected; with the setting off it opens at byte 0", async ({ page }) => {
  const one = readFileSync(path.join(CORPUS_DIR, "01-valid-producer-1frame.bin"));
  // 400 clean batches, then one whose payload byte was flipped: its frame checksum no longer matches.
  const bad = Buffer.from(one);
  bad[256 + 48 + 2]! ^= 0x40;
  const file = test.info().outputPath("far-problem.bin");
  writeFileSync(file, Buffer.concat([...Array.from({ length: 400 }, () => one), bad]));
  const problemBatch = 400 * one.length;

  await openPage(page);
  await openFile(page, file);
  const item = diagnosticsList(page).getByRole("listitem").first();
  await expect(item).toHaveAttribute("data-severity", "error");
  const visible = await visibleOffsets(page);
  expect(visible).not.toContain(0);
  // The selected bytes are the first finding's, on screen, in the last batch.
  const selected = await offsetsWith(page, "data-selected");
  expect(selected.length).toBeGreaterThan(0);
  expect(selected[0]).toBeGreaterThanOrEqual(problemBatch);
  for (const o of selected) expect(visible).toContain(o);

  await page.getByText("Settings", { exact: true }).click();
  await page.getByRole("checkbox", { name: /Open files at their first problem/ }).uncheck();
  await openCorpus(page, "01-valid-producer-1frame.bin");
  await openFile(page, file);
  expect(await visibleOffsets(page)).toContain(0);
  expect(await offsetsWith(page, "data-selected")).toEqual([]);
});

test("a finding says why: its help in the Diagnostics list (with the spec, served by the page) and in the byte tooltip", async ({ page }) => {
  await openPage(page, "/?sample=frame-checksum-mismatch");
  const help = DIAGNOSTIC_HELP["frame-checksum-mismatch"];
  const why = page.getByRole("button", { name: "Why frame-checksum-mismatch matters" });
  await expect(why).toHaveAttribute("aria-expanded", "false");
  await why.click();
  await expect(why).toHaveAttribute("aria-expanded", "true");
  const box = page.getByRole("region", { name: "Why this finding matters" });
  await expect(box).toContainText(help.rule);
  await expect(box).toContainText(help.server);
  await expect(box).toContainText(help.causes);
  await expect(box).toContainText(help.upstream);
  // The spec link is the page's own copy: same origin, and it is the spec.
  const href = await box.getByRole("link", { name: help.spec }).getAttribute("href");
  const spec = await page.request.get(new URL(href!, page.url()).href);
  expect(spec.ok()).toBe(true);
  expect(new URL(spec.url()).origin).toBe(new URL(page.url()).origin);
  expect(await spec.text()).toBe(readFileSync(path.join(ROOT, help.spec), "utf8"));
  // The tooltip over a problem byte gives the rule too.
  const item = diagnosticsList(page).getByRole("listitem").first();
  const start = Number(((await item.locator(".diag-range").textContent()) ?? "").split("..")[0]);
  await page.locator(`[data-offset="${start}"]`).hover();
  await expect(page.getByRole("tooltip")).toContainText(help.rule);
});

test("a partition's Copy report is the whole partition's: the server refuses chain-gap, every segment and finding with its file; links open at the Settings' base", async ({
  page,
}) => {
  const dir = path.join(CONTAINERS_DIR, "partitions", "chain-gap");
  await openPage(page);
  await page.getByLabel("Open folder").setInputFiles(dir);
  await waitForInput(page, `chain-gap (${readdirSync(dir).length} files)`);
  await expect(page.getByTestId("partition-share")).toContainText("a link carries one file");
  await expect(page.getByTestId("partition-share")).toContainText("partition-chain-gap");
  const [d] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download report", exact: true }).click()]);
  const md = (await readDownload(d)).toString("utf8");
  const lines = md.split("\n").filter((l) => l.trim() !== "");
  expect(lines[0]).toContain("chain-gap");
  // The partition's verdict leads, and says the server refuses it.
  expect(lines[1]).toMatch(/^\*\*Server:\*\* The server refuses it at boot/);
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".log"))) expect(md).toContain(name);
  expect(md).toMatch(/\| 1 \| 00000000000000001965\.log \| error \| `partition-chain-gap` \|/);
  expect(md).not.toContain("None: every check passed");

  // A base address in Settings: the link is built on it.
  await page.getByText("Settings", { exact: true }).click();
  await page.getByLabel("Share links' base address").fill("https://iggy.example.org/explorer/");
  await expect(page.getByTestId("link-base")).toHaveText("Opens at https://iggy.example.org/explorer/");
  const size = page.getByTestId("link-size");
  await expect(size).toHaveText(/^Link: [\d.]+ (B|KiB)/);
  const [d2] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download report", exact: true }).click()]);
  expect((await readDownload(d2)).toString("utf8")).toContain("(<https://iggy.example.org/explorer/#");
});
