/**
 * A large `.index` (issue #22): 64 MiB of zeros beside a small valid `.log` (a sparse file, as `truncate -s`
 * makes) is read in pages, not whole. The page shows the CLI's summary with the findings capped as the CLI
 * caps them (the first ones listed, the rest counted), lists the entries a page at a time from the file, and
 * stays usable: a finding and an entry still go to their bytes. The index alone opens the same way.
 */
import { spawnSync } from "node:child_process";
import { closeSync, copyFileSync, ftruncateSync, mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_MAX_DIAGNOSTICS } from "../src/core/walk/analyze.ts";
import { LISTED_PER_FILE } from "../src/core/containers/partition.ts";
import {
  CONTAINERS_DIR,
  ROOT,
  cell,
  diagnosticsList,
  entryRowAt,
  expect,
  openFile,
  openFiles,
  openPage,
  parseSummary,
  statusLine,
  summaryText,
  test,
} from "./fixtures.ts";

const LOG = "00000000000000001949.log";
const INDEX = "00000000000000001949.index";
const INDEX_BYTES = 64 << 20;

/** A folder of the healthy partition's first .log beside a sparse .index of zeros. */
function bigIndexFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "iggy-big-index-"));
  copyFileSync(path.join(CONTAINERS_DIR, "partitions", "healthy", LOG), path.join(dir, LOG));
  const fd = openSync(path.join(dir, INDEX), "w");
  ftruncateSync(fd, INDEX_BYTES);
  closeSync(fd);
  return dir;
}

/** The CLI's text summary line of a partition folder (its JSON would list every entry). */
function cliPartitionSummary(dir: string) {
  const res = spawnSync(process.execPath, [path.join(ROOT, "bin", "iggy-batch.mjs"), "inspect", dir], { cwd: ROOT, encoding: "utf8", maxBuffer: 256 << 20 });
  if (res.error) throw res.error;
  const line = res.stdout.split("\n").find((l) => l.startsWith(`partition ${dir}: `));
  if (!line) throw new Error(`no partition line from iggy-batch inspect ${dir} (exit ${res.status}): ${res.stderr}`);
  return parseSummary(line);
}

test.setTimeout(180_000);

test("a 64 MiB .index of zeros beside its .log: the CLI's summary, findings capped, entries listed from the file, the page usable", async ({ page }) => {
  const dir = bigIndexFolder();
  const cli = cliPartitionSummary(dir);
  const entries = Math.floor(INDEX_BYTES / 24);
  // Every entry is a finding (its offset and timestamp do not match the batch at position 0): far past the cap.
  expect(cli.errors).toBeGreaterThan(DEFAULT_MAX_DIAGNOSTICS);
  // A laptop's window: the Diagnostics column is narrower than a file's name beside its code.
  await page.setViewportSize({ width: 1366, height: 900 });
  await openPage(page);
  await openFiles(page, [path.join(dir, LOG), path.join(dir, INDEX)]);
  await expect(statusLine(page)).toHaveText(summaryText(cli), { timeout: 120_000 });
  // The partition's list holds each file's first findings by position; the status line counts the rest.
  const first = diagnosticsList(page).getByRole("listitem").first();
  await expect(first).toHaveAttribute("aria-setsize", String(LISTED_PER_FILE));
  await expect(first).toHaveAttribute("data-file", INDEX);
  // Code and file name stay on one line (the name cut, its whole in the title), so the message under them shows whole.
  await expect(first.locator(".diag-code")).toHaveAttribute("title", `index-entry-mismatch · ${INDEX}`);
  const [code, message, item] = await Promise.all([".diag-code", ".diag-msg", ".diag-jump"].map((s) => first.locator(s).boundingBox()));
  if (!code || !message || !item) throw new Error("a diagnostic's parts have no box");
  // The code's line is one line of its font (a wrapped name made it 32 px and squeezed the message to 4 px).
  expect(code.height).toBeLessThan(24);
  expect(message.height).toBeGreaterThanOrEqual(12);
  expect(message.y + message.height).toBeLessThanOrEqual(item.y + item.height + 1);
  const total = cli.errors + cli.warnings + cli.infos;
  await expect(page.locator(".status-area .input-name")).toContainText(`${(total - LISTED_PER_FILE).toLocaleString("en-US")} diagnostics not listed`);

  // The partition opens on the file of its first error, the index: its entries, a page at a time, read from the file.
  const table = page.getByRole("table", { name: "Index entries" });
  await expect(page.locator("#index-heading")).toContainText(entries.toLocaleString("en-US"));
  await expect(table).toHaveAttribute("aria-rowcount", "501");
  await expect(table.locator("tbody tr[data-entry]").first()).toContainText("index-entry-mismatch");
  // The next page of entries.
  await page.getByRole("button", { name: "Next entries" }).click();
  await expect(page.locator(".index-pages")).toContainText(`Entries 500–999 of ${entries.toLocaleString("en-US")}`);
  await expect(await entryRowAt(page, 499)).toHaveAttribute("data-entry", "999");
  await expect(table.locator('tbody tr[data-entry="999"]')).toContainText("index-entry-mismatch");
  // The table checks the entries it shows itself: an entry past the findings the page keeps still shows its finding.
  const past = LISTED_PER_FILE + 7;
  for (let page500 = 2; page500 * 500 <= past; page500++) {
    await page.getByRole("button", { name: "Next entries" }).click();
    await expect(page.locator(".index-pages")).toContainText(`Entries ${(page500 * 500).toLocaleString("en-US")}–`);
  }
  await expect(await entryRowAt(page, past % 500)).toHaveAttribute("data-entry", String(past));
  await expect(table.locator(`tbody tr[data-entry="${past}"]`)).toContainText("index-entry-mismatch");
  // So does the last entry, millions of entries past any kept finding, reached by its number.
  const last = entries - 1;
  await page.getByRole("spinbutton", { name: "Go to entry" }).fill(String(last));
  await page.getByRole("spinbutton", { name: "Go to entry" }).press("Enter");
  await expect(page.locator(".index-pages")).toContainText(`–${last.toLocaleString("en-US")} of`);
  await expect(table.locator(`tbody tr[data-entry="${last}"]`)).toContainText("index-entry-mismatch");

  // Usable: a finding goes to its bytes.
  await first.getByRole("button").first().click();
  await expect(cell(page, 0)).toHaveAttribute("aria-selected", "true");
});

test("the 64 MiB .index of zeros opened alone is read on demand and lists its entries from the file", async ({ page }) => {
  const dir = bigIndexFolder();
  const entries = Math.floor(INDEX_BYTES / 24);
  await openPage(page);
  await openFile(page, path.join(dir, INDEX));
  // Alone it is not cross-checked: zeros are in order; the trailing 16 bytes are a partial entry.
  const shown = parseSummary((await statusLine(page).textContent()) ?? "");
  expect(shown.errors).toBe(0);
  await expect(page.getByTestId("on-demand-note")).toBeVisible();
  await expect(page.locator("#index-heading")).toContainText(entries.toLocaleString("en-US"));
  const table = page.getByRole("table", { name: "Index entries" });
  await expect(table).toHaveAttribute("aria-rowcount", "501");
  await expect(table.locator("tbody tr[data-entry]").first()).toContainText("✓");
  // An entry selects its 24 bytes in the hex map, read from the file.
  await table.locator('tbody tr[data-entry="3"]').getByRole("button", { name: "3", exact: true }).click();
  await expect(cell(page, 3 * 24)).toHaveAttribute("aria-selected", "true");
});
