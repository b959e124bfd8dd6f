// `npm run bench:page -- --capture` (issue #24).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { findBrowser } from "../find-browser.mjs";
import { builtSite, CHROMIUM_ARGS, freePort, rendererMemory, startPreview } from "./page-browser.mjs";
import { ROOT, fmtMiB, fmtMs } from "./page-common.mjs";

/**
 * `--capture` (issue #24): the capture of `npm run bench -- --capture` opened through "Open batch file";
 * times setInputFiles (in-page: the input's change event) to the first row of the Messages table and to
 * the summary in the status line, and reads the page renderer's peak RSS over that time.
 */
export async function captureMain(opts) {
  const executablePath = findBrowser();
  if (!executablePath) {
    console.error("bench:page: no Chromium found (see scripts/find-browser.mjs).");
    process.exitCode = 2;
    return;
  }
  const { register } = await import("tsx/esm/api");
  register();
  const bench = await import(pathToFileURL(path.join(ROOT, "scripts", "bench", "capture-bench.ts")).href);
  const t0 = performance.now();
  const { capture, traffic, made } = await bench.cachedCapture(bench.parseCaptureSize(opts["capture-size"]));
  console.log(
    `bench:page --capture: ${capture}, ${fmtMiB(traffic.captureBytes)}, ${(2 * traffic.requests).toLocaleString("en-US")} messages, ` +
      `${traffic.messages.toLocaleString("en-US")} frames (${made ? `written in ${fmtMs(performance.now() - t0)}` : "cached"})`,
  );
  builtSite(opts["no-build"]);
  const preview = await startPreview(await freePort());
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: !opts.headed });
  const mem = rendererMemory(process.pid);
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.goto(preview.url);
    await page.waitForFunction(() => document.querySelector('header [role="status"]')?.getAttribute("aria-busy") === "false");
    // In-page times: the input's change event, the first Messages row, the summary of the capture.
    await page.evaluate((name) => {
      const at = (window.__benchCapture = { change: null, firstRow: null, summary: null });
      document.querySelector('input[type="file"]').addEventListener("change", () => (at.change = performance.now()), { once: true, capture: true });
      const look = () => {
        if (at.firstRow === null && document.querySelector('[role="grid"][aria-label="Messages"] [data-message], section.messages-panel [data-message]'))
          at.firstRow = performance.now();
        const status = document.querySelector('header [role="status"]');
        if (
          at.summary === null &&
          at.change !== null &&
          status?.getAttribute("aria-busy") === "false" &&
          document.querySelector(".status-area .input-name")?.getAttribute("title") === name
        )
          at.summary = performance.now();
      };
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    }, path.basename(capture));
    const before = mem.page();
    mem.resetPeak();
    const wall0 = performance.now();
    await page.getByLabel("Open batch file").setInputFiles(capture);
    await page.waitForFunction(() => window.__benchCapture.firstRow !== null && window.__benchCapture.summary !== null, null, {
      timeout: 10 * 60_000,
      polling: 100,
    });
    const wallMs = performance.now() - wall0;
    const at = await page.evaluate(() => window.__benchCapture);
    const rows = await page.getByRole("grid", { name: "Messages", exact: true }).getAttribute("aria-rowcount");
    const opened = mem.page();
    const ratio = (bytes) => `${(bytes / traffic.captureBytes).toFixed(2)} × the file`;
    console.log(
      `messages    first row of the Messages table ${fmtMs(at.firstRow - at.change)} after the input's change event; summary ${fmtMs(at.summary - at.change)} ` +
        `(${fmtMs(wallMs)} from setInputFiles, as the bench saw it); aria-rowcount ${rows}`,
    );
    console.log(
      `renderer    peak RSS ${fmtMiB(opened.hwm)} = ${ratio(opened.hwm)} while opening (${fmtMiB(before.rss)} before the file); allocated (RssAnon) peak ${fmtMiB(mem.anonPeak())}`,
    );
    console.log(
      `            ${(traffic.captureBytes / 1e6 / ((at.summary - at.change) / 1e3)).toFixed(0)} MB/s of capture to the summary; the machine may be shared: compare with \`npm run bench -- --capture\``,
    );
    if (pageErrors.length) console.log(`page errors ${pageErrors.join(" | ")}`);
  } finally {
    mem.stop();
    await browser.close();
    preview.child.kill();
  }
}
