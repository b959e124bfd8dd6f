/**
 * Partition folders (containers.md "Partition directory"; contracts.md §2): each public partition of
 * test/fixtures/corpus-containers/partitions, dropped as a folder and picked as several files, shows the
 * CLI's summed summary, its verdict, and every expected finding with its file (data-file) and range.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  CONTAINERS_DIR,
  cell,
  dropFolder,
  entryRowAt,
  expect,
  formatFacts,
  listedRange,
  openFiles,
  openPage,
  readFileDiagnostics,
  runCliJson,
  statusLine,
  summaryText,
  test,
  waitForIdle,
  waitForInput,
  type Summary,
} from "./fixtures.ts";
import { singleMessagePartition } from "./big-segment.ts";

interface Expected {
  code: string;
  file: string;
  start?: number;
  end?: number;
}
interface PartitionCase {
  dir: string;
  why: string;
  exit: number;
  files: Record<string, number>;
  errors: Expected[];
  warnings: Expected[];
  forbid: string[];
}
interface CliPartition {
  summary: Summary;
  partition: { verdict: "ok" | "refused"; sentence: string; segments: { name: string; recovery: { sentence: string } }[] };
}

const PARTITIONS = path.join(CONTAINERS_DIR, "partitions");
const manifest = JSON.parse(readFileSync(path.join(PARTITIONS, "manifest.json"), "utf8")) as { cases: PartitionCase[] };

for (const c of manifest.cases) {
  test(`dropping the ${c.dir} folder shows its verdict and findings (${c.why})`, async ({ page }) => {
    const dir = path.join(PARTITIONS, c.dir);
    const cli = runCliJson<CliPartition>(dir);
    await openPage(page);
    await dropFolder(page, dir);
    await expect(statusLine(page)).toHaveText(summaryText(cli.summary));
    expect(cli.summary.errors > 0).toBe(c.exit === 1);

    // Both axes, each named: what the server does (the CLI's sentence), and what the checks found.
    const verdict = page.getByLabel("Partition verdict");
    await expect(verdict.locator('[data-axis="server"]')).toHaveText(cli.partition.sentence);
    await expect(verdict.locator('[data-axis="findings"]')).toContainText(
      cli.summary.errors + cli.summary.warnings === 0 ? "clean" : `${cli.summary.errors} error${cli.summary.errors === 1 ? "" : "s"}, `,
    );
    await expect(verdict).toHaveAttribute("data-verdict", cli.partition.verdict);
    // Every segment is listed with the recovery sentence the CLI gives it.
    const segments = page.getByRole("table", { name: "Segments" });
    for (const s of cli.partition.segments) await expect(segments.locator(`tr[data-recovery-of="${s.name}"]`)).toContainText(s.recovery.sentence);
    // Files outside the chain (an orphan index) are listed too.
    for (const name of Object.keys(c.files)) {
      if (!cli.partition.segments.some((s) => s.name === name || s.name.replace(/\.log$/, ".index") === name)) {
        await expect(page.getByRole("list", { name: "Files not in the chain" }).locator(`[data-file="${name}"]`)).toBeVisible();
      }
    }

    const listed = await readFileDiagnostics(page);
    expect(listed.length).toBe(cli.summary.errors + cli.summary.warnings + cli.summary.infos);
    for (const d of listed) expect(Object.keys(c.files), `${d.code} names a file of the folder`).toContain(d.file);
    for (const e of [...c.errors, ...c.warnings]) {
      const hit = listed.find((d) => d.code === e.code && d.file === e.file && (e.start === undefined || d.range === listedRange(e.start, e.end!)));
      expect(hit, `${e.code} in ${e.file}${e.start !== undefined ? ` at ${e.start}..${e.end}` : ""}`).toBeTruthy();
    }
    for (const code of c.forbid) expect(listed.map((d) => d.code)).not.toContain(code);

    // The first segment opened in the hex map; choosing a finding of another file opens that file at its bytes.
    const other = c.errors.find((e) => e.start !== undefined && e.file !== cli.partition.segments[0]?.name);
    if (other) {
      await page.locator(`[data-code="${other.code}"][data-file="${other.file}"] button`).first().click();
      await expect(page.locator(".hex-panel h2")).toContainText(other.file);
      await expect(cell(page, other.start!)).toHaveAttribute("aria-selected", "true");
    }
  });
}

test("several .log and .index files picked in Open batch file open as one partition; a segment opens with its index", async ({ page }) => {
  const dir = path.join(PARTITIONS, "healthy");
  const files = readdirSync(dir).map((n) => path.join(dir, n));
  const cli = runCliJson<CliPartition>(dir);
  await openPage(page);
  await openFiles(page, files);
  await expect(statusLine(page)).toHaveText(summaryText(cli.summary));
  await expect(page.getByLabel("Partition verdict")).toHaveAttribute("data-verdict", "ok");

  const second = cli.partition.segments[1]!.name;
  await page.getByRole("table", { name: "Segments" }).getByRole("button", { name: second, exact: true }).click();
  await waitForInput(page, `partition (${files.length} files)`);
  await expect(page.locator(".hex-panel h2")).toContainText(second);
  await expect(page.locator(`tr[data-segment="${second}"]`)).toHaveAttribute("aria-current", "true");
  // Opened with its .index: recovery takes the index path, and the entries are listed under it.
  await expect(formatFacts(page)).toHaveText(`format: Partition directory (auto: ${files.length} files opened together; server loads it; findings: clean)`);
  const entries = page.getByRole("table", { name: "Index entries" });
  await expect(entries).toHaveAttribute("aria-rowcount", "3");
  await expect(entries.locator("tbody tr[data-entry]")).toHaveCount(2);
  await expect(entries.locator("tbody tr[data-entry]").first()).toContainText("✓");
  // An entry points at a batch: choosing it selects that batch's first byte in the segment.
  const position = Number(/Go to batch at (\d+)/.exec((await entries.locator("tbody tr[data-entry]").nth(1).textContent()) ?? "")![1]);
  await entries.getByRole("button", { name: `Go to batch at ${position}` }).click();
  await expect(cell(page, position)).toHaveAttribute("aria-selected", "true");
  await expect(cell(page, position)).toHaveAttribute("data-kind", "batch.partition_id");
});

test("a folder with foreign and scratch files lists them with why and still decodes the chain", async ({ page }) => {
  const healthy = path.join(PARTITIONS, "healthy");
  const dir = test.info().outputPath("p3");
  mkdirSync(dir);
  for (const n of readdirSync(healthy)) copyFileSync(path.join(healthy, n), path.join(dir, n));
  writeFileSync(path.join(dir, "notes.txt"), "not a segment");
  writeFileSync(path.join(dir, "00000000000000001980.log.staging"), new Uint8Array(40));
  const cli = runCliJson<CliPartition>(dir);
  await openPage(page);
  await dropFolder(page, dir);
  await expect(statusLine(page)).toHaveText(summaryText(cli.summary));
  await expect(page.getByLabel("Partition verdict")).toHaveAttribute("data-verdict", "ok");
  const others = page.getByRole("list", { name: "Files not in the chain" });
  await expect(others.locator('[data-file="notes.txt"]')).toContainText("not a segment: a segment is named by its start offset in 20 digits");
  await expect(others.locator('[data-file="00000000000000001980.log.staging"]')).toContainText(".staging scratch file");
  await expect(page.getByRole("table", { name: "Segments" }).locator("tr.segment-row")).toHaveCount(3);
});

test("an index with an entry per single-message batch lists its entries a page at a time, and an entry still goes to its batch", async ({ page }) => {
  const { dir, starts } = await singleMessagePartition(1300);
  await openPage(page);
  await openFiles(
    page,
    readdirSync(dir).map((n) => path.join(dir, n)),
  );
  await expect(statusLine(page)).toContainText("1,300 batches · 1,300 frames · 0 errors");
  await expect(page.getByLabel("Partition verdict")).toHaveAttribute("data-verdict", "ok");
  const entries = page.getByRole("table", { name: "Index entries" });
  // A page of rows, not one per entry: 2.6 million rows crashed the page.
  await expect(page.locator("#index-heading")).toContainText("1,300");
  await expect(entries).toHaveAttribute("aria-rowcount", "501");
  // Only the rows in view (and a few around them) are rendered.
  expect(await entries.locator("tbody tr[data-entry]").count()).toBeLessThan(60);
  await expect(page.locator(".index-pages")).toContainText("Entries 0–499 of 1,300");
  await expect(page.getByRole("button", { name: "Previous entries" })).toBeDisabled();
  await page.getByRole("button", { name: "Next entries" }).click();
  await page.getByRole("button", { name: "Next entries" }).click();
  await expect(page.locator(".index-pages")).toContainText("Entries 1,000–1,299 of 1,300");
  await expect(entries).toHaveAttribute("aria-rowcount", "301");
  await expect(page.getByRole("button", { name: "Next entries" })).toBeDisabled();
  const row = await entryRowAt(page, 234);
  await expect(row).toContainText("1234");
  await expect(row).toContainText("✓");
  await row.getByRole("button", { name: `Go to batch at ${starts[1234]}` }).click();
  await expect(cell(page, starts[1234]!)).toHaveAttribute("aria-selected", "true");
  await expect(cell(page, starts[1234]!)).toHaveAttribute("data-kind", "batch.partition_id");
});

test("Open folder (a directory picker beside Open batch file) opens a partition on the file of its first error, at its bytes; a setting keeps to the first segment", async ({
  page,
}) => {
  const dir = path.join(PARTITIONS, "chain-gap");
  const cli = runCliJson<CliPartition>(dir);
  const c = manifest.cases.find((x) => x.dir === "chain-gap")!;
  const firstError = c.errors[0]!;
  expect(firstError.file).not.toBe(cli.partition.segments[0]!.name);
  await openPage(page);
  const folder = page.getByLabel("Open folder");
  await expect(folder).toHaveAttribute("type", "file");
  await expect(folder).toHaveAttribute("webkitdirectory", "");
  // The button sits beside Open batch file, on the same line.
  const [file, picker] = await Promise.all([
    page.getByText("Open batch file", { exact: true }).boundingBox(),
    page.getByText("Open folder", { exact: true }).boundingBox(),
  ]);
  expect(Math.abs(file!.y - picker!.y)).toBeLessThan(4);
  expect(picker!.x).toBeGreaterThan(file!.x + file!.width - 1);

  await folder.setInputFiles(dir);
  await waitForInput(page, `chain-gap (${readdirSync(dir).length} files)`);
  await expect(statusLine(page)).toHaveText(summaryText(cli.summary));
  await expect(page.locator(".hex-panel h2")).toContainText(firstError.file);
  await expect(page.locator(`tr[data-segment="${firstError.file}"]`)).toHaveAttribute("aria-current", "true");
  for (let o = firstError.start!; o < firstError.end!; o++) await expect(cell(page, o)).toHaveAttribute("aria-selected", "true");

  // Turned off in Settings (kept across a reload): the first segment, nothing selected.
  await page.getByText("Settings", { exact: true }).click();
  await page.getByRole("checkbox", { name: /Open files at their first problem/ }).uncheck();
  await page.reload();
  await waitForIdle(page);
  await page.getByText("Settings", { exact: true }).click();
  await expect(page.getByRole("checkbox", { name: /Open files at their first problem/ })).not.toBeChecked();
  await page.getByLabel("Open folder").setInputFiles(dir);
  await waitForInput(page, `chain-gap (${readdirSync(dir).length} files)`);
  await expect(page.locator(".hex-panel h2")).toContainText(cli.partition.segments[0]!.name);
  await expect(page.locator('[data-offset][aria-selected="true"]')).toHaveCount(0);
});
