/**
 * The shared Playwright fixtures and helpers of the e2e suite.
 *
 * Every test runs under an automatic `guard` fixture that records, for the test's browser
 * context (and any further context a test hands to `guard.watch`):
 *   - uncaught page errors (`weberror`, i.e. `pageerror` of every page and worker),
 *   - console messages of type "error" (CSP violations are reported there too),
 *   - every request whose URL is not on 127.0.0.1 / localhost (or blob: / data:),
 * and asserts after the test that all three lists are empty: zero page errors and zero requests to
 * other origins across the whole suite.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { test as base, expect, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { ENTRY_ROW_HEIGHT } from "../src/ui/containers/partition-rows.ts";

export { expect };

/** Repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The public corpus. */
export const CORPUS_DIR = path.join(ROOT, "test", "fixtures", "corpus");

/** True for URLs a hermetic page may load: its own origin on loopback, blob: and data:. */
export function isLocalUrl(url: string): boolean {
  if (url.startsWith("blob:") || url.startsWith("data:") || url === "about:blank") return true;
  try {
    const u = new URL(url);
    return (u.protocol === "http:" || u.protocol === "https:" || u.protocol === "ws:") && (u.hostname === "127.0.0.1" || u.hostname === "localhost");
  } catch {
    return false;
  }
}

/** What the guard saw. */
export class Guard {
  readonly pageErrors: string[] = [];
  readonly consoleErrors: string[] = [];
  readonly foreignRequests: string[] = [];
  /** Every request URL seen (local or not), so a test can check the tracking itself works. */
  readonly requests: string[] = [];
  private readonly watched = new Set<BrowserContext>();

  /** Starts recording a context (the test's own is watched automatically). */
  watch(context: BrowserContext): void {
    if (this.watched.has(context)) return;
    this.watched.add(context);
    context.on("weberror", (e) => this.pageErrors.push(`${e.page()?.url() ?? "?"}: ${e.error().stack ?? e.error().message}`));
    context.on("console", (m) => {
      if (m.type() === "error") this.consoleErrors.push(`${m.location().url}:${m.location().lineNumber}: ${m.text()}`);
    });
    context.on("request", (r) => {
      const url = r.url();
      this.requests.push(url);
      if (!isLocalUrl(url)) this.foreignRequests.push(`${r.method()} ${url}`);
    });
  }
}

// The guard of the worker-scoped shared page (see `sharedPage`), checked after every test too.
let sharedGuard: Guard | null = null;

function assertClean(guard: Guard, what: string): void {
  // Taken out first, so one failure is reported once and does not fail every later test.
  const pageErrors = guard.pageErrors.splice(0);
  const consoleErrors = guard.consoleErrors.splice(0);
  const foreignRequests = guard.foreignRequests.splice(0);
  expect(pageErrors, `page errors (${what})`).toEqual([]);
  expect(consoleErrors, `console errors (${what})`).toEqual([]);
  expect(foreignRequests, `requests to other origins (${what})`).toEqual([]);
}

export const test = base.extend<{ guard: Guard }, { sharedPage: Page }>({
  /**
   * One page kept for a whole worker, for long runs of small checks (the corpus) that would
   * otherwise spend most of their time creating contexts and loading the page. Its context is
   * watched by its own guard, which every test's teardown checks as well.
   */
  sharedPage: [
    async ({ browser }, use, workerInfo) => {
      const { baseURL, viewport, deviceScaleFactor, userAgent, colorScheme } = workerInfo.project.use;
      const context = await browser.newContext({ baseURL, viewport, deviceScaleFactor, userAgent, colorScheme });
      sharedGuard = new Guard();
      sharedGuard.watch(context);
      const page = await context.newPage();
      await use(page);
      await context.close();
      sharedGuard = null;
    },
    { scope: "worker" },
  ],
  guard: [
    async ({ context }, use) => {
      const guard = new Guard();
      guard.watch(context);
      await use(guard);
      assertClean(guard, "this test's pages");
      if (sharedGuard) assertClean(sharedGuard, "the shared page");
    },
    { auto: true },
  ],
});

// ---------------------------------------------------------------------------
// The page's contract hooks (shared/spec/contracts.md §2)
// ---------------------------------------------------------------------------

/** The status line summary, e.g. "2 batches · 17 frames · 1 error · 0 warnings · 0 infos". */
export const SUMMARY_RE = /^\s*[\d,]+ batch(?:es)? · [\d,]+ frames? · [\d,]+ errors? · [\d,]+ warnings? · [\d,]+ infos?\s*$/;

/** The five counts of a summary. */
export interface Summary {
  batches: number;
  frames: number;
  errors: number;
  warnings: number;
  infos: number;
}

/** The status line (role=status in the page header; other role=status notes come later in the DOM). */
export function statusLine(page: Page): Locator {
  return page.locator('header [role="status"]').first();
}

/**
 * Waits until the status line is not busy and shows a finished summary (and, with `name`, until
 * the input called `name` is the one shown); returns the status text. Polls every animation frame
 * (page.waitForFunction), which is much quicker than expect()'s back-off for loads of ~10 ms.
 */
async function settle(page: Page, name: string | null): Promise<string> {
  const handle = await page.waitForFunction(
    ({ source, name }) => {
      const status = document.querySelector('header [role="status"]');
      if (!status || status.getAttribute("aria-busy") !== "false") return false;
      const text = (status.textContent ?? "").trim();
      if (!new RegExp(source).test(text)) return false;
      if (name !== null && document.querySelector(".status-area .input-name")?.getAttribute("title") !== name) return false;
      return text;
    },
    { source: SUMMARY_RE.source, name },
  );
  return (await handle.jsonValue()) as string;
}

/** Waits until the status line is not busy and shows a finished summary; returns its text. */
export async function waitForIdle(page: Page): Promise<string> {
  const text = await settle(page, null);
  await expect(statusLine(page)).toHaveAttribute("aria-busy", "false");
  return text;
}

/** Waits until the input called `name` is shown and decoded; returns the status text. */
export function waitForInput(page: Page, name: string): Promise<string> {
  return settle(page, name);
}

/** Reads the five counts of a summary text. */
export function parseSummary(text: string): Summary {
  const m = /([\d,]+) batch(?:es)? · ([\d,]+) frames? · ([\d,]+) errors? · ([\d,]+) warnings? · ([\d,]+) infos?/.exec(text);
  if (!m) throw new Error(`not a summary: ${JSON.stringify(text)}`);
  const n = (s: string) => Number(s.replace(/,/g, ""));
  return { batches: n(m[1]!), frames: n(m[2]!), errors: n(m[3]!), warnings: n(m[4]!), infos: n(m[5]!) };
}

/** The summary text the page shows for counts (the contract's wording, plurals included). */
export function summaryText(s: Summary): string {
  const c = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
  return [
    c(s.batches, "batch", "batches"),
    c(s.frames, "frame", "frames"),
    c(s.errors, "error", "errors"),
    c(s.warnings, "warning", "warnings"),
    c(s.infos, "info", "infos"),
  ].join(" · ");
}

/** Keeps files opening at byte 0 (the page's "open files at their first problem" setting off), for a test that starts from there; call before openPage. */
export async function keepByteZero(page: Page): Promise<void> {
  await page.addInitScript(() => localStorage.setItem("iggy-explorer.settings", JSON.stringify({ openAtFirstProblem: false })));
}

/** Opens the page on its first sample (or `url`) and waits for it to be decoded. */
export async function openPage(page: Page, url = "/"): Promise<string> {
  await page.goto(url);
  return waitForIdle(page);
}

/** Opens a file through the labelled "Open batch file" input and waits until it is shown. */
export async function openFile(page: Page, file: string): Promise<string> {
  await waitForIdle(page);
  // The wait below recognises the new input by its name: the same name twice in a row would not be seen.
  const shown = await page.evaluate(() => document.querySelector(".status-area .input-name")?.getAttribute("title") ?? null);
  if (shown === path.basename(file)) throw new Error(`${shown} is already shown: open another input first`);
  await page.getByLabel("Open batch file").setInputFiles(file);
  return waitForInput(page, path.basename(file));
}

/** Opens a corpus file by name. */
export function openCorpus(page: Page, name: string): Promise<string> {
  return openFile(page, path.join(CORPUS_DIR, name));
}

/** The Diagnostics list (contracts.md §2). */
export function diagnosticsList(page: Page): Locator {
  return page.getByRole("list", { name: "Diagnostics", exact: true });
}

/** One diagnostic as the list shows it. */
export interface ListedDiagnostic {
  code: string;
  severity: string;
}

/** Every item of the Diagnostics list in order (checks aria-setsize so a virtualized list is not read short). */
export async function readDiagnostics(page: Page): Promise<ListedDiagnostic[]> {
  const items = await diagnosticsList(page)
    .getByRole("listitem")
    .evaluateAll((els) =>
      els.map((el) => ({
        pos: Number(el.getAttribute("aria-posinset") ?? "0"),
        setSize: Number(el.getAttribute("aria-setsize") ?? "-1"),
        code: el.getAttribute("data-code") ?? "",
        severity: el.getAttribute("data-severity") ?? "",
      })),
    );
  items.sort((a, b) => a.pos - b.pos);
  for (const [i, item] of items.entries()) {
    expect(item.pos, "aria-posinset runs 1..n").toBe(i + 1);
    expect(item.setSize, "aria-setsize is the number of diagnostics").toBe(items.length);
  }
  return items.map(({ code, severity }) => ({ code, severity }));
}

// ---------------------------------------------------------------------------
// Hex map helpers
// ---------------------------------------------------------------------------

/** The hex map grid (its scroll container). */
export function hexMap(page: Page): Locator {
  return page.getByTestId("hex-scroll");
}

/** The hex cell of byte `offset` (only rendered rows exist: the map is virtualized). */
export function cell(page: Page, offset: number): Locator {
  return page.locator(`[data-offset="${offset}"]`);
}

/**
 * The middle of byte `offset`'s character in the ASCII column, in page coordinates: the column draws runs of
 * bytes that share their marks as one span naming its first byte (`data-a`), a character each.
 */
export async function asciiPoint(page: Page, offset: number): Promise<{ x: number; y: number }> {
  const point = await hexMap(page).evaluate((grid, at) => {
    for (const run of grid.querySelectorAll<HTMLElement>("[data-a]")) {
      const first = Number(run.dataset.a);
      const count = run.textContent?.length ?? 0;
      if (at < first || at >= first + count) continue;
      const r = run.getBoundingClientRect();
      return { x: r.left + ((at - first + 0.5) * r.width) / count, y: r.top + r.height / 2 };
    }
    return null;
  }, offset);
  if (!point) throw new Error(`byte ${offset} has no ASCII character on screen`);
  return point;
}

/** Offsets of the rendered hex cells carrying a data-* attribute (e.g. "data-selected"). */
export function offsetsWith(page: Page, attribute: string): Promise<number[]> {
  return page.locator(`[data-offset][${attribute}]`).evaluateAll((els) => els.map((el) => Number((el as HTMLElement).dataset.offset)).sort((a, b) => a - b));
}

/** Offsets of every rendered hex cell. */
export function renderedOffsets(page: Page): Promise<number[]> {
  return offsetsWith(page, "data-kind");
}

/** Offsets of the hex cells wholly inside the hex map's visible rows. */
export function visibleOffsets(page: Page): Promise<number[]> {
  return hexMap(page).evaluate((grid) => {
    const g = grid.getBoundingClientRect();
    // The sticky column header covers the first row's worth of the box.
    const head = grid.querySelector(".hx-head")?.getBoundingClientRect().height ?? 0;
    return [...grid.querySelectorAll<HTMLElement>("[data-offset]")]
      .filter((c) => {
        const r = c.getBoundingClientRect();
        return r.top >= g.top + head - 0.5 && r.bottom <= g.bottom + 0.5;
      })
      .map((c) => Number(c.dataset.offset))
      .sort((a, b) => a - b);
  });
}

/** The integers in [start, end). */
export function range(start: number, end: number): number[] {
  return Array.from({ length: Math.max(0, end - start) }, (_, i) => start + i);
}

// ---------------------------------------------------------------------------
// The real CLI and the corpus manifest
// ---------------------------------------------------------------------------

/** A diagnostic of the CLI's JSON (contracts.md §1). */
export interface CliDiagnostic {
  code: string;
  severity: "error" | "warning" | "info";
  start: number;
  end: number;
  batch: number | null;
  frame: number | null;
  message: string;
}

/** The CLI's JSON document. */
export interface CliReport {
  input: { name: string; size: number };
  summary: Summary;
  batches: { index: number; start: number; end: number; frames?: { index: number; start: number; end: number }[] }[];
  diagnostics: CliDiagnostic[];
}

/** Runs `node bin/iggy-batch.mjs inspect FILE --json`; returns its exit status and JSON. */
export function runCli(file: string): { status: number; report: CliReport } {
  const res = spawnSync(process.execPath, [path.join(ROOT, "bin", "iggy-batch.mjs"), "inspect", file, "--json"], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (res.error) throw res.error;
  if (res.status !== 0 && res.status !== 1) throw new Error(`iggy-batch inspect ${file} exited ${res.status}: ${res.stderr}`);
  return { status: res.status, report: JSON.parse(res.stdout) as CliReport };
}

/** One case of test/fixtures/corpus/manifest.json. */
export interface CorpusCase {
  file: string;
  name: string;
  size: number;
  description: string;
  exit: number;
  batches: number;
  frames: number;
  expect: { code: string; severity: "error" | "warning" | "info"; at: number; range: [number, number]; batch: number | null; frame: number | null }[];
  allow: string[];
  batchList: { start: number; stamped: boolean; frames: { index: number; start: number; end: number }[] }[];
}

/** The corpus manifest. */
export interface CorpusManifest {
  severities: Record<string, "error" | "warning" | "info">;
  cases: CorpusCase[];
}

/** Reads the corpus manifest. */
export function loadManifest(): CorpusManifest {
  return JSON.parse(readFileSync(path.join(CORPUS_DIR, "manifest.json"), "utf8")) as CorpusManifest;
}

/** Lays out text as `xxd` prints it (16 bytes a line, 2-byte groups, ASCII column). */
export function xxdDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const row = bytes.subarray(at, at + 16);
    let hex = "";
    for (let i = 0; i < 16; i++) {
      hex += i < row.length ? row[i]!.toString(16).padStart(2, "0") : "  ";
      if (i % 2 === 1) hex += " ";
    }
    const ascii = Array.from(row, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");
    lines.push(`${at.toString(16).padStart(8, "0")}: ${hex} ${ascii}`);
  }
  return lines.join("\n") + "\n";
}

/** Fires a paste of `text` (text/plain) at the document, as Ctrl+V would. */
export async function pasteText(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData("text/plain", t);
    document.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

// ---------------------------------------------------------------------------
// Containers and partitions (containers.md; contracts.md §1.1 and §2)
// ---------------------------------------------------------------------------

/** The public container corpus: vectors/ and partitions/. */
export const CONTAINERS_DIR = path.join(ROOT, "test", "fixtures", "corpus-containers");

/** One Diagnostics item with the file it belongs to (a partition's items carry data-file). */
export interface FileDiagnostic extends ListedDiagnostic {
  file: string | null;
  /** The item's byte range as listed, e.g. "0x000008..0x000010". */
  range: string;
}

/** Every Diagnostics item with its data-file and listed range, in list order. */
export async function readFileDiagnostics(page: Page): Promise<FileDiagnostic[]> {
  const items = await diagnosticsList(page)
    .getByRole("listitem")
    .evaluateAll((els) =>
      els.map((el) => ({
        pos: Number(el.getAttribute("aria-posinset") ?? "0"),
        code: el.getAttribute("data-code") ?? "",
        severity: el.getAttribute("data-severity") ?? "",
        file: el.getAttribute("data-file"),
        range: el.querySelector(".diag-range")?.textContent ?? "",
      })),
    );
  items.sort((a, b) => a.pos - b.pos);
  return items.map(({ code, severity, file, range }) => ({ code, severity, file, range }));
}

/** The Diagnostics list's range text of a half-open byte range, e.g. "0x000008..0x000010". */
export function listedRange(start: number, end: number): string {
  const hex = (n: number) => "0x" + n.toString(16).padStart(6, "0");
  return `${hex(start)}..${hex(end)}`;
}

/** Picks several files at once in "Open batch file" (they open as one partition) and waits until it is shown. */
export async function openFiles(page: Page, files: readonly string[]): Promise<string> {
  await waitForIdle(page);
  await page.getByLabel("Open batch file").setInputFiles([...files]);
  return waitForInput(page, `partition (${files.length} files)`);
}

/**
 * Drops a folder on the page as a person would: a drop event whose one item is a directory entry
 * (webkitGetAsEntry) holding the folder's files. Waits until the partition is shown.
 */
export async function dropFolder(page: Page, dir: string): Promise<string> {
  await waitForIdle(page);
  const folder = path.basename(dir);
  const files = readdirSync(dir)
    .filter((n) => statSync(path.join(dir, n)).isFile())
    .map((name) => ({ name, base64: readFileSync(path.join(dir, name)).toString("base64") }));
  await page.evaluate(
    ({ folder, files }) => {
      const fileEntry = (f: File) => ({ isFile: true, isDirectory: false, name: f.name, file: (ok: (f: File) => void) => ok(f) });
      const made = files.map((f) => new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name));
      let handed = false;
      const dirEntry = {
        isFile: false,
        isDirectory: true,
        name: folder,
        // Like the browser's: entries in one call, then an empty call.
        createReader: () => ({
          readEntries: (ok: (e: unknown[]) => void) => {
            ok(handed ? [] : made.map(fileEntry));
            handed = true;
          },
        }),
      };
      const item = { kind: "file", type: "", webkitGetAsEntry: () => dirEntry, getAsFile: () => null };
      const data = { items: [item], files: [] as File[], types: ["Files"] };
      const drop = new Event("drop", { bubbles: true, cancelable: true });
      Object.defineProperty(drop, "dataTransfer", { value: data });
      window.dispatchEvent(drop);
    },
    { folder, files },
  );
  return waitForInput(page, `${folder} (${files.length} file${files.length === 1 ? "" : "s"})`);
}

/** Runs `iggy-batch inspect PATH --json` on a file or a directory; returns the parsed document. */
export function runCliJson<T = Record<string, unknown>>(target: string, extra: readonly string[] = []): T {
  const res = spawnSync(process.execPath, [path.join(ROOT, "bin", "iggy-batch.mjs"), "inspect", target, "--json", ...extra], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (res.error) throw res.error;
  if (res.status !== 0 && res.status !== 1) throw new Error(`iggy-batch inspect ${target} exited ${res.status}: ${res.stderr}`);
  return JSON.parse(res.stdout) as T;
}

/** Picks an entry of the samples menu by its value and waits until the input called `name` is shown. */
export async function openSample(page: Page, value: string, name: string): Promise<string> {
  await waitForIdle(page);
  await page.getByLabel("Load a sample").selectOption(value);
  return waitForInput(page, name);
}

/** The text beside the status line naming the format, e.g. "format: SendMessages body (auto: …)". */
export function formatFacts(page: Page): Locator {
  return page.locator(".status-area .format-facts");
}

/** Makes every read of a File on the page take `ms` (700 by default), so what the views show before the bytes land can be seen. */
export async function slowReads(page: Page, ms = 700): Promise<void> {
  await page.evaluate((ms) => {
    const proto = Blob.prototype;
    const slice = Object.getOwnPropertyDescriptor(proto, "slice")!.value as (this: Blob, ...args: Parameters<Blob["slice"]>) => Blob;
    proto.slice = function (this: Blob, ...args: Parameters<Blob["slice"]>) {
      const part = slice.apply(this, args);
      const read = part.arrayBuffer.bind(part);
      part.arrayBuffer = () => new Promise((resolve) => setTimeout(() => resolve(read()), ms));
      return part;
    };
  }, ms);
}

/** The index entries table (its rows in view rendered, `aria-rowcount` counting the page's rows and its header). */
export function entriesTable(page: Page): Locator {
  return page.getByRole("table", { name: "Index entries" });
}

/**
 * The row of the entry at position `pos` of the page of entries shown, scrolled into view first: the table renders
 * only the rows in view and a few around them.
 */
export async function entryRowAt(page: Page, pos: number): Promise<Locator> {
  const table = entriesTable(page);
  await table.evaluate(
    (t, top) => {
      const scroller = t.closest(".table-scroll");
      if (scroller) scroller.scrollTop = top;
    },
    Math.max(0, pos * ENTRY_ROW_HEIGHT - 60),
  );
  return table.locator(`tbody tr[aria-rowindex="${pos + 2}"]`);
}
