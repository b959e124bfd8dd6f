// `npm run bench:page -- --index MIB` (issue #22).
import { closeSync, copyFileSync, ftruncateSync, mkdirSync, openSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findBrowser } from "../find-browser.mjs";
import { builtSite, CHROMIUM_ARGS, fmtHeaps, freePort, rendererMemory, startPreview, workerHeaps } from "./page-browser.mjs";
import { MiB, fmtMiB, fmtMs, segmentFile } from "./page-common.mjs";
import { USAGE } from "./page-options.mjs";

/**
 * `--index MIB` (issue #22): a folder of a 1 MiB segment `.log` and a sparse `.index` of `indexMib` MiB of zeros
 * (made as `truncate -s` does, so it costs no disk), opened in a fresh page as the folder's two files and then as
 * the index alone. Prints, for each, the time from setInputFiles to the summary, the summary, whether the page
 * crashed, and the renderers' peak memory: the highest sum of every renderer process's PSS (sampled every 50 ms)
 * and the page renderer's own VmHWM (the kernel's peak RSS of the process, reset before the file).
 */
export async function indexBench(indexMib, { opts, payload, perBatch }) {
  if (!(indexMib > 0)) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const executablePath = findBrowser();
  if (!executablePath) {
    console.error("bench:page: no Chromium found (see scripts/find-browser.mjs).");
    process.exitCode = 2;
    return;
  }
  const seg = await segmentFile(1, payload, perBatch);
  const dir = path.join(os.tmpdir(), `iggy-bench-page-index-${indexMib}MiB`);
  mkdirSync(dir, { recursive: true });
  const log = path.join(dir, "00000000000000000000.log");
  const index = path.join(dir, "00000000000000000000.index");
  copyFileSync(seg.file, log);
  rmSync(index, { force: true });
  const fd = openSync(index, "w");
  ftruncateSync(fd, indexMib * MiB);
  closeSync(fd);
  console.log(`bench:page --index: ${dir}: a ${fmtMiB(statSync(log).size)} .log (${seg.plan.batches} batches) beside a sparse ${indexMib} MiB .index of zeros`);

  builtSite(opts["no-build"]);
  const preview = await startPreview(await freePort());
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: !opts.headed });
  const mem = rendererMemory(process.pid);
  try {
    for (const [label, files, shownName] of [
      ["folder (.log + .index)", [log, index], "partition (2 files)"],
      ["the .index alone", [index], path.basename(index)],
    ]) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      let crashed = false;
      page.on("crash", () => (crashed = true));
      const pageErrors = [];
      page.on("pageerror", (e) => pageErrors.push(e.message));
      await page.goto(preview.url);
      await page.waitForFunction(() => document.querySelector('header [role="status"]')?.getAttribute("aria-busy") === "false");
      const before = mem.page();
      mem.resetPeak();
      const t0 = performance.now();
      // BENCH_TRACE=1: the page renderer's RSS, split, and the status line every second.
      const trace = process.env.BENCH_TRACE
        ? setInterval(() => {
            const { anon, file, shmem, threads } = mem.split();
            const rss = `${fmtMiB(mem.page().rss)} (anon ${anon.toFixed(0)}, files ${file.toFixed(0)}, shared ${shmem.toFixed(0)} MiB; ${threads} threads)`;
            void page
              .evaluate(() => document.querySelector('header [role="status"]')?.textContent ?? "")
              .then((status) => console.log(`trace ${fmtMs(performance.now() - t0)} rss ${rss} · ${status.slice(0, 60)}`))
              .catch(() => {});
          }, 1000)
        : null;
      await page.getByLabel("Open batch file").setInputFiles(files);
      const shown = await Promise.race([
        page
          .waitForFunction(
            (n) => {
              const status = document.querySelector('header [role="status"]');
              if (status?.getAttribute("aria-busy") !== "false" || document.querySelector(".status-area .input-name")?.getAttribute("title") !== n)
                return false;
              return status.textContent;
            },
            shownName,
            { timeout: 10 * 60_000, polling: 100 },
          )
          .then((h) => h.jsonValue()),
        new Promise((resolve) => page.once("crash", () => resolve(null))),
      ]).catch((err) => `not shown: ${err.message.split("\n")[0]}`);
      const ms = performance.now() - t0;
      if (trace) clearInterval(trace);
      // The peak is read after the load settles: the reply's copies are freed or not by then.
      await new Promise((r) => setTimeout(r, 1000));
      const peak = mem.page();
      const cdp = await context.newCDPSession(page).catch(() => null);
      const main = cdp ? await cdp.send("Runtime.getHeapUsage").catch(() => null) : null;
      const workers = crashed ? {} : await workerHeaps(browser, false);
      console.log(
        `${label.padEnd(24)} ${crashed || shown === null ? "CRASHED" : `summary in ${fmtMs(ms)}: ${shown}`}` +
          `\n${"".padEnd(24)} renderers' PSS summed peaked at ${fmtMiB(mem.pssPeak())}; the page renderer's peak RSS ${fmtMiB(peak.hwm)} (${fmtMiB(before.rss)} before the file, ${fmtMiB(peak.rss)} 1 s after); its anonymous memory peaked at ${fmtMiB(mem.anonPeak())} (${fmtMiB(before.anon)} before)` +
          `\n${"".padEnd(24)} then JS heaps: page ${main ? fmtMiB(main.usedSize) : "-"}${main?.backingStorageSize !== undefined ? ` + ${fmtMiB(main.backingStorageSize)} array buffers` : ""}; workers ${fmtHeaps(workers)}` +
          (pageErrors.length ? `\n${"".padEnd(24)} page errors: ${pageErrors.join(" | ")}` : ""),
      );
      await context.close();
    }
  } finally {
    mem.stop();
    await browser.close();
    preview.child.kill();
    if (opts["no-keep"]) rmSync(dir, { recursive: true, force: true });
  }
}
