// The segment run of `npm run bench:page` (the default mode, and --scroll-only): steps 1 to 5 of scripts/bench-page.mjs.
import { rmSync } from "node:fs";
import path from "node:path";
import { findBrowser } from "../find-browser.mjs";
import { builtSite, CHROMIUM_ARGS, freePort, initScript, longTasksBetween, openInput, rendererMemory, startPreview, workerHeaps } from "./page-browser.mjs";
import { fmtMiB, fmtMs, nativeVerifier, otherFile, segmentFile } from "./page-common.mjs";
import { hoverBytes, printSustained, scrollStep, sustainedScroll, tenPageDowns } from "./page-hexmap.mjs";
import { fileReadAlone, openPhases, startWorkerProfiles } from "./page-profile.mjs";
import { printOpening, printSegmentReport } from "./page-segment-report.mjs";

/** Runs the segment bench of `cfg` (parsePageOptions()) and prints its lines. */
export async function segmentBench({ opts, mib, payload, perBatch, smallMib, frames }) {
  const executablePath = findBrowser();
  if (!executablePath) {
    console.error("bench:page: no Chromium found (see scripts/find-browser.mjs).");
    process.exitCode = 2;
    return;
  }

  const mode = opts["in-memory"]
    ? "read whole into the page"
    : opts["one-thread"]
      ? "on demand, walked in the analysis worker alone"
      : "default (on demand from 64 MiB, range workers from 128 MiB)";
  console.log(`bench:page: ${mib} MiB segment, ${payload}-byte payloads, ${mode}`);
  const seg = await segmentFile(mib, payload, perBatch);
  const { plan } = seg;
  console.log(`segment     ${seg.file}`);
  console.log(
    `            ${plan.totalBytes.toLocaleString("en-US")} bytes · ${plan.batches.toLocaleString("en-US")} batches · ${plan.frames.toLocaleString("en-US")} frames` +
      (seg.reused ? " (reused)" : ` (built in ${fmtMs(seg.buildMs)})`),
  );

  builtSite(opts["no-build"]);

  // The C verifier on the same file, before and after the page (interleaved, so the ratio holds on a busy machine).
  const native = opts["scroll-only"] ? { missing: "--scroll-only" } : await nativeVerifier();
  const nativeMs = [];
  if (native.time) nativeMs.push(native.time(seg.file), native.time(seg.file));

  const port = await freePort();
  const preview = await startPreview(port);
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: !opts.headed });
  // Playwright starts Chromium as a child of this process: its renderers are our descendants.
  const mem = rendererMemory(process.pid);
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.addInitScript(initScript);
    await page.goto(
      opts["in-memory"] ? `${preview.url}?on-demand-from=${Number.MAX_SAFE_INTEGER}` : opts["one-thread"] ? `${preview.url}?range-workers=0` : preview.url,
    );
    // The first sample, decoded: the page is ready.
    await page.waitForFunction(
      () =>
        document.querySelector('header [role="status"]')?.getAttribute("aria-busy") === "false" &&
        /batch/.test(document.querySelector('header [role="status"]')?.textContent ?? ""),
    );

    if (opts["scroll-only"]) {
      const small = await segmentFile(smallMib, payload, perBatch);
      await openInput(page, small.file);
      const smallScroll = await sustainedScroll(page, frames, mem.page().pid);
      const smallKeys = await tenPageDowns(page);
      await openInput(page, seg.file);
      const bigScroll = await sustainedScroll(page, frames, mem.page().pid);
      const bigKeys = await tenPageDowns(page);
      printSustained(smallScroll, bigScroll, smallKeys, bigKeys, smallMib, mib, frames);
      if (pageErrors.length) console.log(`page errors ${pageErrors.join(" | ")}`);
      return;
    }

    const name = path.basename(seg.file);
    // In-page timestamps: the input's change event, and the moment the summary shows.
    await page.evaluate(() => {
      const input = document.querySelector('input[type="file"]');
      input.addEventListener("change", () => (window.__benchChange = performance.now()), { once: true, capture: true });
    });
    const profiles = opts.profile ? await startWorkerProfiles(browser) : null;
    const before = mem.page();
    mem.resetPeak();
    const t0 = performance.now();
    // BENCH_TRACE=1: the page renderer's RSS and the status line every 100 ms while the file opens.
    let status = "";
    let ab = 0;
    const traceCdp = process.env.BENCH_TRACE ? await context.newCDPSession(page) : null;
    const trace = process.env.BENCH_TRACE
      ? setInterval(() => {
          void page
            .evaluate(() => document.querySelector('header [role="status"]')?.textContent ?? "")
            .then((t) => (status = t))
            .catch(() => {});
          void traceCdp
            .send("Runtime.getHeapUsage")
            .then((h) => (ab = [h.usedSize, h.embedderHeapUsedSize ?? 0, h.backingStorageSize ?? 0]))
            .catch(() => {});
          console.log(
            `trace ${(performance.now() - t0).toFixed(0)} ms rss ${fmtMiB(mem.page().rss)} main heap/embedder/array buffers ${Array.isArray(ab) ? ab.map(fmtMiB).join(" ") : ""} · ${status.slice(0, 40)}`,
          );
        }, 10)
      : null;
    await page.getByLabel("Open batch file").setInputFiles(seg.file);
    const handle = await page.waitForFunction(
      (n) => {
        const status = document.querySelector('header [role="status"]');
        const shown = document.querySelector(".status-area .input-name")?.getAttribute("title");
        if (status?.getAttribute("aria-busy") !== "false" || shown !== n) return false;
        return {
          text: status.textContent,
          at: performance.now(),
          name: [document.querySelector(".status-area .input-name")?.textContent, document.querySelector(".status-area .on-demand-note")?.textContent]
            .filter(Boolean)
            .join(" · "),
        };
      },
      name,
      { timeout: 10 * 60_000, polling: "raf" },
    );
    const wallMs = performance.now() - t0;
    if (trace) setTimeout(() => clearInterval(trace), 1500);
    const done = await handle.jsonValue();
    const changeAt = await page.evaluate(() => window.__benchChange ?? null);
    const analysis = changeAt === null ? null : await longTasksBetween(page, changeAt, done.at);
    // Let the load settle (the reply's copies freed or not) before reading the renderer's size.
    await page.waitForTimeout(1000);
    const opened = mem.page();
    const openPss = mem.pssPeak();
    const openAnon = mem.anonPeak();
    if (profiles) for (const line of await profiles.stop()) console.log(line);
    const phases = await openPhases(browser, page, changeAt, done.at);
    const readAlone = await fileReadAlone(page, seg.file);
    if (process.env.BENCH_OPEN_ONLY) {
      // Only the opening's lines (BENCH_OPEN_ONLY=1): for comparing builds side by side in the same minute.
      if (native.time) nativeMs.push(native.time(seg.file), native.time(seg.file));
      printOpening({ before, changeAt, done, mem, native, nativeMs, openAnon, openPss, opened, phases, plan, readAlone, wallMs, pageErrors });
      return;
    }

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

    // Scroll steps: one wheel notch over the hex map, then one PageDown with the hex map focused, each
    // timed in the page from the input event to the first frame after the last DOM change it caused.
    await page.getByTestId("hex-scroll").evaluate((el) => (el.scrollTop = 0));
    await page.waitForTimeout(300);
    const hexBox = await page.getByTestId("hex-scroll").boundingBox();
    await page.mouse.move(hexBox.x + hexBox.width / 2, hexBox.y + hexBox.height / 2);
    const stepStart = await page.evaluate(() => performance.now());
    const steps = { wheel: [], key: [] };
    const step = (kind, act) => scrollStep(page, steps, kind, act);
    for (let i = 0; i < 8; i++) await step("wheel", () => page.mouse.wheel(0, 120));
    await page.getByTestId("hex-scroll").focus();
    for (let i = 0; i < 8; i++) await step("key", () => page.keyboard.press("PageDown"));
    const stepEnd = await page.evaluate(() => performance.now());
    const stepTasks = await longTasksBetween(page, stepStart, stepEnd);
    const bigScroll = await sustainedScroll(page, frames, mem.page().pid);
    const bigKeys = await tenPageDowns(page);

    // Hover: the pointer over 12 bytes of the rows shown, each timed from the move to its tooltip.
    const hoverStart = await page.evaluate(() => performance.now());
    const { points, hovers } = await hoverBytes(page);
    await page.waitForTimeout(200);
    const hoverTasks = await longTasksBetween(page, hoverStart, await page.evaluate(() => performance.now()));
    // Tables following the hex map: 40 scroll steps, one per frame, across the first tenth of the input
    // (many batches), then which batch the Frames table lists and which the view is in.
    const followStart = await page.evaluate(() => performance.now());
    const follow = await page.getByTestId("hex-scroll").evaluate(async (el) => {
      const steps = 40;
      const top = el.scrollHeight * 0.1;
      for (let i = 0; i <= steps; i++) {
        // The browser's own scroll event, as a wheel or scroll bar would fire it (a dispatched one would add a forced layout).
        el.scrollTop = (top * i) / steps;
        await new Promise((r) => requestAnimationFrame(() => r()));
      }
      await new Promise((r) => setTimeout(r, 300));
      const count =
        [...document.querySelectorAll(".tbl-panel")].find((p) => p.querySelector('[aria-label="Frames"]'))?.querySelector(".tbl-count")?.textContent ?? "";
      const cells = [...el.querySelectorAll("[data-offset]")].map((c) => Number(c.dataset.offset));
      return {
        steps,
        count,
        first: cells.reduce((m, x) => Math.min(m, x), Infinity),
        last: cells.reduce((m, x) => Math.max(m, x), -Infinity),
        at: performance.now(),
      };
    });
    const following = await longTasksBetween(page, followStart, follow.at);

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
    // As left by the searches, then what each worker keeps once its garbage is collected.
    const afterSearch = await workerHeaps(browser, false);
    const keptAfterSearch = await workerHeaps(browser, true);
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
    const ended = mem.page();
    const allPss = mem.pssPeak();
    if (native.time) nativeMs.push(native.time(seg.file), native.time(seg.file));

    // The layout diagram: select a batch three quarters in and wait for its header drawn; then hover one box.
    const diagramBatch = Math.floor((plan.batches * 3) / 4);
    const diagramStart = await page.evaluate(() => performance.now());
    await page.getByLabel("Go to or search").fill(`batch ${diagramBatch}`);
    await page.getByLabel("Go to or search").press("Enter");
    const diagramEnd = await page.waitForFunction(
      (n) =>
        new RegExp(`^Batch ${n} header`).test(document.querySelector('[aria-label="Layout diagram"] figcaption')?.textContent ?? "")
          ? performance.now()
          : false,
      diagramBatch,
      { timeout: 60_000, polling: "raf" },
    );
    const diagramMs = (await diagramEnd.jsonValue()) - diagramStart;
    const boxHoverStart = await page.evaluate(() => performance.now());
    await page.locator('[aria-label="Layout diagram"] [data-field="base_offset"]').first().hover();
    await page.waitForSelector("[data-hover]", { timeout: 60_000 });
    const boxHoverEnd = await page.evaluate(() => performance.now());
    await page.waitForTimeout(300);
    const diagramTasks = await longTasksBetween(page, diagramStart, boxHoverEnd + 300);

    // Compare batches with a second file of the same size (one payload byte differs): open it in the
    // dialog, wait for the diff of batch 0, then move both sides to the last batch.
    const other = otherFile(seg.file, plan);
    const compareStart = await page.evaluate(() => performance.now());
    await page.getByRole("button", { name: "Compare batches" }).click();
    const dialog = page.getByRole("dialog", { name: "Compare batches" });
    await dialog.getByLabel("Compare with a file").setInputFiles(other);
    // A page that refuses the file says so in the same note.
    const otherNote = dialog.getByTestId("diff-other").filter({ hasText: /^Other file:|too large|Could not/ });
    await otherNote.waitFor({ timeout: 10 * 60_000 });
    const noteText = (await otherNote.textContent()) ?? "";
    const refused = /^Other file:/.test(noteText) ? null : noteText;
    if (!refused)
      await dialog
        .getByTestId("diff-summary")
        .filter({ hasText: /fields differ/ })
        .waitFor({ timeout: 60_000 });
    const compareEnd = await page.evaluate(() => performance.now());
    const compareSummary = refused ?? (await dialog.getByTestId("diff-summary").textContent());
    const lastBatch = String(plan.batches - 1);
    if (!refused) {
      // A side picks its batch from a menu, or in a number field past SidePicker's menu limit (a 1 GiB segment).
      for (const side of ["Left batch", "Right batch"]) {
        const picker = dialog.getByLabel(side);
        if ((await picker.evaluate((e) => e.tagName)) === "SELECT") await picker.selectOption(lastBatch);
        else await picker.fill(lastBatch);
      }
      await dialog.getByRole("columnheader", { name: new RegExp(`Right \\(Other file batch ${lastBatch}\\)`) }).waitFor({ timeout: 60_000 });
      await dialog
        .getByTestId("diff-summary")
        .filter({ hasText: /No differences/ })
        .waitFor({ timeout: 60_000 });
    }
    const switchEnd = await page.evaluate(() => performance.now());
    await page.waitForTimeout(300);
    const compareTasks = await longTasksBetween(page, compareStart, compareEnd);
    const switchTasks = await longTasksBetween(page, compareEnd, switchEnd + 300);
    await dialog.getByRole("button", { name: "Close" }).first().click();
    // The same sustained scroll on a small file, in the same browser, for the ratio.
    const small = await segmentFile(smallMib, payload, perBatch);
    await openInput(page, small.file);
    const smallScroll = await sustainedScroll(page, frames, mem.page().pid);
    const smallKeys = await tenPageDowns(page);

    const memory = await page.evaluate(() => {
      const m = performance.memory;
      return m ? { used: m.usedJSHeapSize, total: m.totalJSHeapSize, limit: m.jsHeapSizeLimit } : null;
    });
    const cdp = await context.newCDPSession(page);
    const heap = await cdp.send("Runtime.getHeapUsage").catch(() => null);

    printSegmentReport({
      afterSearch,
      allPss,
      analysis,
      before,
      bigKeys,
      bigScroll,
      boxHoverEnd,
      boxHoverStart,
      changeAt,
      compareEnd,
      compareStart,
      compareSummary,
      compareTasks,
      diagramBatch,
      diagramMs,
      diagramTasks,
      done,
      ended,
      follow,
      followStart,
      following,
      frames,
      heap,
      hoverTasks,
      hovers,
      jumpMs,
      keptAfterSearch,
      last,
      lastBatch,
      mem,
      memory,
      mib,
      native,
      nativeMs,
      openAnon,
      openPss,
      opened,
      pageErrors,
      phases,
      plan,
      points,
      readAlone,
      scrollEnd,
      scrollStart,
      scrolling,
      searchTasks,
      searchTimes,
      smallKeys,
      smallMib,
      smallScroll,
      stepTasks,
      steps,
      switchEnd,
      switchTasks,
      wallMs,
    });
  } finally {
    mem.stop();
    await browser.close();
    preview.child.kill();
    if (opts["no-keep"]) rmSync(seg.file, { force: true });
  }
}
