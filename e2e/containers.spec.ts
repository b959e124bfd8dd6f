/**
 * Containers on the page (containers.md; contracts.md §2): every container vector and every container
 * sample shows its format and why beside the status, its container fields coloured (data-kind) with
 * tooltips naming them, and its findings; the Format control forces another format (and travels in a
 * share link); a legacy dump converts to a clean segment; an index entry leads to its batch.
 * Expected values come from the real core run in Node on the same bytes.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { FORMAT_TITLES, openInput, type FormatName, type OpenedInput } from "../src/core/containers/index.ts";
import { CONTAINER_SAMPLES, type ContainerSample } from "../src/core/samples/container-samples.ts";
import {
  CONTAINERS_DIR,
  cell,
  expect,
  formatFacts,
  openFile,
  openPage,
  openSample,
  readDiagnostics,
  readFileDiagnostics,
  statusLine,
  summaryText,
  test,
  waitForIdle,
  waitForInput,
  type Summary,
} from "./fixtures.ts";
import type { Page } from "@playwright/test";

const VECTORS = path.join(CONTAINERS_DIR, "vectors");
const vectors = (JSON.parse(readFileSync(path.join(VECTORS, "manifest.json"), "utf8")) as { cases: { file: string; kind: string; expect: string }[] }).cases;
const KIND_FORMAT: Record<string, FormatName> = { batches: "batches", "poll-reply": "poll-reply", "send-messages-body": "send-messages" };

const summaryOf = (o: OpenedInput): Summary => o.analysis.summary;

/** Checks the format line, the status and the first and last container field (colour class, kind, tooltip name). */
async function expectContainer(page: Page, opened: OpenedInput): Promise<void> {
  await expect(formatFacts(page)).toHaveText(`format: ${FORMAT_TITLES[opened.format]} (${opened.detectedBy})`);
  await expect(statusLine(page)).toHaveText(summaryText(summaryOf(opened)));
  const fields = opened.container?.fields ?? [];
  for (const f of [fields[0], fields[Math.min(fields.length - 1, 3)]]) {
    if (!f) continue;
    const c = cell(page, f.start);
    await expect(c).toHaveAttribute("data-kind", f.kind);
    await expect(c).toHaveClass(/kind-container-/);
    await c.hover();
    const tip = page.getByRole("tooltip");
    await expect(tip).toContainText(f.name);
    await expect(tip).toContainText(f.value);
  }
  await page.mouse.move(0, 0);
}

for (const v of vectors) {
  test(`the ${v.file} vector is detected as ${v.kind} and shows its container fields`, async ({ page }) => {
    const bytes = new Uint8Array(readFileSync(path.join(VECTORS, v.file)));
    const opened = await openInput(bytes, { name: v.file });
    expect(opened.format).toBe(KIND_FORMAT[v.kind]);
    await openPage(page);
    await openFile(page, path.join(VECTORS, v.file));
    await expectContainer(page, opened);
    if (v.expect === "accepted") expect(summaryOf(opened).errors).toBe(0);
    if (opened.format !== "batches") expect(opened.container?.fields.length).toBeGreaterThan(0);
  });
}

async function openedOf(sample: ContainerSample): Promise<{ name: string; opened: OpenedInput | null }> {
  const xxh = await loadXxh3();
  const files = sample.build(xxh);
  if (sample.format === "partition") return { name: `sample: ${sample.title}`, opened: null };
  const [file, companion] = files;
  const opened = await openInput(file!.bytes, { name: file!.name, format: sample.forced ? sample.format : "auto", companion, xxh3: xxh });
  return { name: `sample: ${sample.title} (${file!.name})`, opened };
}

for (const group of ["good", "broken"] as const) {
  test(`every ${group} container sample shows its format, fields and findings`, async ({ page }) => {
    test.setTimeout(120_000);
    await openPage(page);
    for (const sample of CONTAINER_SAMPLES.filter((s) => (s.shows === null) === (group === "good"))) {
      const { name, opened } = await openedOf(sample);
      await openSample(page, `c:${sample.id}`, name);
      if (opened) {
        expect(opened.format, sample.id).toBe(sample.format);
        await expectContainer(page, opened);
        const codes = (await readDiagnostics(page)).map((d) => d.code);
        expect(codes, sample.id).toEqual(opened.analysis.diagnostics.map((d) => d.code));
        if (sample.shows) expect(codes, sample.id).toContain(sample.shows);
      } else {
        await expect(page.getByLabel("Partition verdict")).toBeVisible();
        const listed = await readFileDiagnostics(page);
        // A finding about the directory itself (partition-no-segments) names it as ".".
        for (const d of listed) expect(d.file, `${sample.id}: ${d.code} carries its file`).toMatch(/^(\d{20}\.(log|index)|\.)$/);
        if (sample.shows)
          expect(
            listed.map((d) => d.code),
            sample.id,
          ).toContain(sample.shows);
        else expect(listed.filter((d) => d.severity === "error")).toEqual([]);
      }
    }
  });
}

test("the Format control forces another format, auto goes back, and a share link keeps the choice", async ({ page, browser, guard }) => {
  const file = path.join(VECTORS, "golden-send-messages-body.bin");
  const bytes = new Uint8Array(readFileSync(file));
  const auto = await openInput(bytes, { name: path.basename(file) });
  const forced = await openInput(bytes, { name: path.basename(file), format: "batches" });
  await openPage(page);
  await openFile(page, file);
  const format = page.getByLabel("Format", { exact: true });
  await expect(format).toHaveValue("auto");
  await expect(formatFacts(page)).toContainText("format: SendMessages body (auto: metadata_length");
  await expect(cell(page, 0)).toHaveAttribute("data-kind", "send.metadata_length");

  await format.selectOption("batches");
  await waitForIdle(page);
  await expect(formatFacts(page)).toHaveText(`format: Batches (${forced.detectedBy})`);
  await expect(statusLine(page)).toHaveText(summaryText(forced.analysis.summary));
  expect(forced.analysis.summary.errors).toBeGreaterThan(0);
  await expect(cell(page, 0)).toHaveAttribute("data-kind", "batch.partition_id");

  await page.getByRole("button", { name: "Copy share link" }).click();
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#iggy1\./);
  const link = await page.evaluate(() => location.href);
  const context = await browser.newContext();
  guard.watch(context);
  const fresh = await context.newPage();
  await openPage(fresh, link);
  await expect(fresh.getByLabel("Format", { exact: true })).toHaveValue("batches");
  await expect(statusLine(fresh)).toHaveText(summaryText(forced.analysis.summary));
  await context.close();

  await format.selectOption("auto");
  await waitForIdle(page);
  await expect(statusLine(page)).toHaveText(summaryText(auto.analysis.summary));
  await expect(cell(page, 0)).toHaveAttribute("data-kind", "send.metadata_length");
});

test("Convert to batches turns a legacy dump into a clean stamped segment", async ({ page }) => {
  const sample = CONTAINER_SAMPLES.find((s) => s.id === "legacy-messages")!;
  const { name, opened } = await openedOf(sample);
  await openPage(page);
  await openSample(page, `c:${sample.id}`, name);
  await expect(formatFacts(page)).toContainText("format: Legacy messages");
  await page.getByRole("button", { name: "Convert to batches" }).click();
  const segment = `${opened!.legacy!.messages[0]!.offset.toString().padStart(20, "0")}.log`;
  await waitForInput(page, `${segment} (converted from ${name})`);
  await expect(formatFacts(page)).toContainText("format: Segment file (.log) (auto: the file name ends in .log)");
  await expect(statusLine(page)).toHaveText(
    summaryText({ batches: opened!.legacy!.runs.length, frames: opened!.legacy!.messages.length, errors: 0, warnings: 0, infos: 0 }),
  );
  await expect(page.getByLabel("Recovery verdict")).toContainText(`${opened!.legacy!.messages.length} messages`);
});

test("an index file lists its entries cross-checked against its log, and an entry opens the log at its batch", async ({ page }) => {
  const sample = CONTAINER_SAMPLES.find((s) => s.id === "index")!;
  const { name, opened } = await openedOf(sample);
  await openPage(page);
  await openSample(page, `c:${sample.id}`, name);
  const table = page.getByRole("table", { name: "Index entries" });
  await expect(table).toHaveAttribute("aria-rowcount", String(opened!.entries!.length + 1));
  await expect(table.locator("tbody tr[data-entry]")).toHaveCount(opened!.entries!.length);
  await expect(formatFacts(page)).toContainText("cross-checked against 00000000000000001000.log");
  const last = opened!.entries!.at(-1)!;
  await table.getByRole("button", { name: `Go to batch at ${last.position}` }).click();
  await waitForInput(page, "00000000000000001000.log");
  await expect(formatFacts(page)).toContainText("format: Segment file (.log)");
  await expect(cell(page, Number(last.position))).toHaveAttribute("aria-selected", "true");
  await expect(cell(page, Number(last.position))).toHaveAttribute("data-kind", "batch.partition_id");

  // A broken entry names its finding in the table.
  const broken = CONTAINER_SAMPLES.find((s) => s.id === "index-entry-misplaced")!;
  await openSample(page, `c:${broken.id}`, (await openedOf(broken)).name);
  await expect(page.getByRole("table", { name: "Index entries" }).locator("tbody tr[data-entry]").nth(1)).toContainText("index-entry-misplaced");
});
