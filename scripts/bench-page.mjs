#!/usr/bin/env node
// `npm run bench:page [-- --mib 256 --payload 100 --no-build --no-keep]`: how the page copes with a big
// segment file. Not a test: it asserts nothing and prints figures.
//
//   1. builds a segment of stamped batches (scripts/bench/segment.ts, the encoder of src/core) in
//      the OS temp dir, or reuses it when one of the same shape is already there;
//   2. builds the page (`vite build`, unless --no-build) and serves dist/ with `vite preview` on a
//      free port;
//   3. launches the Chromium the e2e tests use (scripts/find-browser.mjs, the same hermetic args
//      as playwright.config.ts), registers a PerformanceObserver for 'longtask' before the page
//      loads, opens the file through the "Open batch file" input and waits for the status line;
//   4. scrolls the hex map to the end, searches the whole input for 16 bytes (twice) and jumps to
//      the middle with the Overview, and prints: time from setInputFiles to the summary, the
//      longest main-thread task and the number of tasks over 50 ms during analysis and during the
//      scroll, the search and jump times, and the JS heap in use.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, rmSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { findBrowser } from "./find-browser.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MiB = 1 << 20;

// Keep in step with CHROMIUM_ARGS in playwright.config.ts: no background traffic, and every host
// but loopback unreachable.
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--proxy-server=http://127.0.0.1:9",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
  // performance.memory in whole bytes rather than bucketed values.
  "--enable-precise-memory-info",
];

const USAGE = `usage: npm run bench:page -- [--mib N] [--payload BYTES] [--no-build] [--no-keep] [--headed]

  --mib N          segment size in MiB (default 256)
  --payload BYTES  payload size of every message (default 100)
  --no-build       serve dist/ as it is (default: vite build first)
  --no-keep        delete the segment file afterwards (default: keep it in the temp dir for the next run)
  --headed         show the browser window`;

const { values: opts } = parseArgs({
  options: {
    mib: { type: "string", default: "256" },
    payload: { type: "string", default: "100" },
    "no-build": { type: "boolean", default: false },
    "no-keep": { type: "boolean", default: false },
    headed: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
const mib = Number(opts.mib);
const payload = Number(opts.payload);
if (!(mib > 0) || !(payload >= 0) || !Number.isInteger(payload)) {
  console.error(USAGE);
  process.exit(2);
}

const fmtMs = (ms) => `${ms.toFixed(0)} ms`;
const fmtMiB = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;

/** Builds the segment with the project's encoder (through tsx, as bin/run-ts.mjs does), or reuses one. */
async function segmentFile() {
  const { register } = await import("tsx/esm/api");
  register();
  const { planSegment, buildSegment } = await import(pathToFileURL(path.join(ROOT, "scripts", "bench", "segment.ts")).href);
  const { loadXxh3 } = await import(pathToFileURL(path.join(ROOT, "src", "checksum", "xxh3.ts")).href);
  const plan = planSegment(payload, mib * MiB);
  const file = path.join(os.tmpdir(), `iggy-bench-page-${mib}MiB-p${payload}-00000000000000000000.log`);
  if (existsSync(file) && statSync(file).size === plan.totalBytes) return { file, plan, reused: true, buildMs: 0 };
  const t0 = performance.now();
  const bytes = buildSegment(await loadXxh3(), plan);
  writeFileSync(file, bytes);
  return { file, plan, reused: false, buildMs: performance.now() - t0 };
}

/** A TCP port nothing listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts `vite preview` on port and resolves once it answers. */
async function startPreview(port) {
  const vite = path.join(ROOT, "node_modules", "vite", "bin", "vite.js");
  const child = spawn(process.execPath, [vite, "preview", "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`vite preview exited ${child.exitCode}: ${stderr}`);
    try {
      const res = await fetch(url);
      if (res.ok) return { child, url };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`vite preview did not answer on ${url}: ${stderr}`);
}

// Runs in the page before its scripts: collect long tasks from the first moment.
function initScript() {
  window.__benchLongTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__benchLongTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {
    window.__benchLongTasks = null;
  }
}

/** Long tasks that started in [from, to) (performance.now() times), as count over 50 ms and longest. */
async function longTasksBetween(page, from, to) {
  const tasks = (await page.evaluate(() => window.__benchLongTasks)) ?? null;
  if (!tasks) return null;
  const inside = tasks.filter((t) => t.start >= from && t.start < to);
  return {
    count: inside.filter((t) => t.duration > 50).length,
    longest: inside.reduce((m, t) => Math.max(m, t.duration), 0),
    total: inside.reduce((s, t) => s + t.duration, 0),
  };
}

async function main() {
  const executablePath = findBrowser();
  if (!executablePath) {
    console.error("bench:page: no Chromium found (see scripts/find-browser.mjs).");
    process.exitCode = 2;
    return;
  }

  console.log(`bench:page: ${mib} MiB segment, ${payload}-byte payloads`);
  const seg = await segmentFile();
  const { plan } = seg;
  console.log(`segment     ${seg.file}`);
  console.log(
    `            ${plan.totalBytes.toLocaleString("en-US")} bytes · ${plan.batches.toLocaleString("en-US")} batches · ${plan.frames.toLocaleString("en-US")} frames` +
      (seg.reused ? " (reused)" : ` (built in ${fmtMs(seg.buildMs)})`),
  );

  if (!opts["no-build"]) {
    const vite = path.join(ROOT, "node_modules", "vite", "bin", "vite.js");
    const res = spawnSync(process.execPath, [vite, "build", "--logLevel", "error"], { cwd: ROOT, stdio: "inherit" });
    if (res.status !== 0) throw new Error(`vite build exited ${res.status}`);
  } else if (!existsSync(path.join(ROOT, "dist", "index.html"))) {
    throw new Error("dist/ is not built: run without --no-build");
  }

  const port = await freePort();
  const preview = await startPreview(port);
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: !opts.headed });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.addInitScript(initScript);
    await page.goto(preview.url);
    // The first sample, decoded: the page is ready.
    await page.waitForFunction(
      () =>
        document.querySelector('header [role="status"]')?.getAttribute("aria-busy") === "false" &&
        /batch/.test(document.querySelector('header [role="status"]')?.textContent ?? ""),
    );

    const name = path.basename(seg.file);
    // In-page timestamps: the input's change event, and the moment the summary shows.
    await page.evaluate(() => {
      const input = document.querySelector('input[type="file"]');
      input.addEventListener("change", () => (window.__benchChange = performance.now()), { once: true, capture: true });
    });
    const t0 = performance.now();
    await page.getByLabel("Open batch file").setInputFiles(seg.file);
    const handle = await page.waitForFunction(
      (n) => {
        const status = document.querySelector('header [role="status"]');
        const shown = document.querySelector(".status-area .input-name")?.getAttribute("title");
        if (status?.getAttribute("aria-busy") !== "false" || shown !== n) return false;
        return { text: status.textContent, at: performance.now(), name: document.querySelector(".status-area .input-name")?.textContent };
      },
      name,
      { timeout: 10 * 60_000, polling: "raf" },
    );
    const wallMs = performance.now() - t0;
    const done = await handle.jsonValue();
    const changeAt = await page.evaluate(() => window.__benchChange ?? null);
    const analysis = changeAt === null ? null : await longTasksBetween(page, changeAt, done.at);

    // Scroll the hex map to its end and wait for the last byte's cell.
    const last = plan.totalBytes - 1;
    const scrollStart = await page.evaluate(() => performance.now());
    await page.getByTestId("hex-scroll").evaluate((el) => {
      el.scrollTop = el.scrollHeight;
      el.dispatchEvent(new Event("scroll"));
    });
    await page.waitForSelector(`[data-offset="${last}"]`, { timeout: 60_000 });
    const scrollEnd = await page.evaluate(() => performance.now());
    // Let any task the scroll started finish and be reported.
    await page.waitForTimeout(300);
    const scrolling = await longTasksBetween(page, scrollStart, scrollEnd + 300);

    // A byte search over the whole input (16 bytes found nowhere, so every byte is read), twice: the
    // first also hands the bytes to the search worker. Then one overview jump to the middle.
    const searchTimes = [];
    const searchTasks = [];
    for (let i = 0; i < 2; i++) {
      const box = page.getByLabel("Go to or search");
      await box.fill(`hex:dead beef 0f1e 2d3c 4b5a 6978 8796 a5b${i}`);
      const t = await page.evaluate(() => performance.now());
      await box.press("Enter");
      const end = await page.waitForFunction(
        () => {
          const says = document.querySelector('[data-testid="search-says"]')?.textContent ?? "";
          return /hits|No hits/.test(says) && !/Searching/.test(says) ? performance.now() : false;
        },
        null,
        { timeout: 120_000, polling: "raf" },
      );
      const doneAt = await end.jsonValue();
      searchTimes.push(doneAt - t);
      await page.waitForTimeout(200);
      searchTasks.push(await longTasksBetween(page, t, doneAt + 200));
    }
    const overview = page.getByRole("slider", { name: "Overview" });
    const ob = await overview.boundingBox();
    const middle = Math.floor(plan.totalBytes / 2 / 16) * 16;
    const jumpStart = await page.evaluate(() => performance.now());
    await page.mouse.click(ob.x + ob.width / 2, ob.y + ob.height / 2);
    const jumpEnd = await page.waitForFunction(
      (m) => {
        const cells = [...document.querySelectorAll("[data-offset]")].map((c) => Number(c.dataset.offset));
        return cells.some((o) => Math.abs(o - m) < 4096) ? performance.now() : false;
      },
      middle,
      { timeout: 60_000, polling: "raf" },
    );
    const jumpMs = (await jumpEnd.jsonValue()) - jumpStart;

    const memory = await page.evaluate(() => {
      const m = performance.memory;
      return m ? { used: m.usedJSHeapSize, total: m.totalJSHeapSize, limit: m.jsHeapSizeLimit } : null;
    });
    const cdp = await context.newCDPSession(page);
    const heap = await cdp.send("Runtime.getHeapUsage").catch(() => null);

    console.log(`status      ${done.text}`);
    console.log(`input       ${done.name}`);
    console.log(
      `time        ${fmtMs(wallMs)} from setInputFiles to the summary` +
        (changeAt !== null ? ` (${fmtMs(done.at - changeAt)} in the page, from the input's change event)` : ""),
    );
    if (analysis) {
      console.log(
        `main thread during analysis: longest task ${fmtMs(analysis.longest)}, ${analysis.count} task(s) > 50 ms, ${fmtMs(analysis.total)} in long tasks`,
      );
    } else {
      console.log("main thread: long task timing not available in this browser");
    }
    console.log(
      `scroll      hex map to the end (byte ${last.toLocaleString("en-US")} shown) in ${fmtMs(scrollEnd - scrollStart)}` +
        (scrolling ? `; longest task ${fmtMs(scrolling.longest)}, ${scrolling.count} task(s) > 50 ms` : ""),
    );
    console.log(
      `search      ${fmtMs(searchTimes[0])} for a 16-byte pattern over all ${fmtMiB(plan.totalBytes)} (bytes handed to the search worker first), ${fmtMs(searchTimes[1])} again` +
        (searchTasks[0] ? `; longest main-thread task ${fmtMs(searchTasks[0].longest)} then ${fmtMs(searchTasks[1].longest)}` : ""),
    );
    console.log(`overview    one jump to the middle in ${fmtMs(jumpMs)} (click to the rows shown)`);
    if (memory)
      console.log(
        `JS heap     ${fmtMiB(memory.used)} used of ${fmtMiB(memory.total)} (performance.memory, array buffers included; limit ${fmtMiB(memory.limit)})`,
      );
    else console.log("JS heap     performance.memory not available");
    if (heap)
      console.log(
        `            ${fmtMiB(heap.usedSize)} used of ${fmtMiB(heap.totalSize)} (CDP Runtime.getHeapUsage${heap.embedderHeapUsedSize !== undefined ? `; embedder ${fmtMiB(heap.embedderHeapUsedSize)}` : ""}${heap.backingStorageSize !== undefined ? `; array buffers ${fmtMiB(heap.backingStorageSize)}` : ""})`,
      );
    if (pageErrors.length) console.log(`page errors ${pageErrors.join(" | ")}`);
  } finally {
    await browser.close();
    preview.child.kill();
    if (opts["no-keep"]) rmSync(seg.file, { force: true });
  }
}

main().catch((err) => {
  console.error(`bench:page: ${err.stack ?? err}`);
  process.exitCode = 1;
});
