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
//   4. scrolls the hex map to the end, steps it by wheel and by PageDown, hovers 12 bytes, searches the whole input for
//      16 bytes (twice) and jumps to the middle with the Overview, and prints: time from setInputFiles
//      to the summary (and its ratio to the C verifier of scripts/bench/native.ts on the same file, when
//      cc and libxxhash are there), the longest main-thread task and the number of tasks over 50 ms
//      during analysis, the scroll, the steps, the hovers and the search, the scroll-step and hover times, the search and
//      jump times, the JS heap in use, and the renderer's peak RSS (every Chromium renderer process,
//      which holds the page's workers as threads, sampled from /proc every 50 ms) against the file size;
//      then follows the hex map with the tables over 40 scroll steps, selects a batch for the layout diagram
//      and hovers one of its boxes, and compares batches with a second file of the same size (a copy with
//      one byte changed), printing each one's time and longest task, and what each worker holds after the searches;
//   5. sustained scroll (scrollTop advanced every animation frame at 16 / 400 / 4000 px, median and p95 frame
//      time) and 10 × PageDown, of the segment and of a small file (--small-mib, default 4) in the same browser,
//      with their ratio. `--scroll-only` runs just this part.
//
// `--index MIB` measures something else (issue #22): a folder of a small valid segment `.log` beside a sparse
// `.index` of MIB MiB of zeros (`truncate -s`), opened as the folder's two files and then as the index alone,
// each in a fresh page; it prints the time to the summary, the summary, and the renderer's peak memory.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
// For --index (indexBench) only.
import { closeSync, copyFileSync, ftruncateSync, mkdirSync, openSync } from "node:fs";
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
  // One wheel event, one scroll: the step time is not spread over a smooth-scroll animation.
  "--disable-smooth-scrolling",
];

const USAGE = `usage: npm run bench:page -- [--mib N] [--payload BYTES] [--no-build] [--no-keep] [--headed]

  --mib N          segment size in MiB (default 256)
  --payload BYTES  payload size of every message (default 100)
  --per-batch N    messages per batch (default 1000, fewer when a batch would pass 1 MiB); 1 is a producer that sends one at a time
  --no-build       serve dist/ as it is (default: vite build first)
  --no-keep        delete the segment file afterwards (default: keep it in the temp dir for the next run)
  --headed         show the browser window
  --in-memory      read the file into the page whole, as before on-demand bytes (default: a file from 64 MiB on is read on demand)
  --one-thread     on demand, walk the file in the analysis worker alone, with no range workers (a one-core page)
  --profile        also CPU-profile the page's workers that exist before the drop while the file opens, and print
                   their top functions by self time (with --one-thread all of the walk is in one of them)
  --scroll-only    only the sustained scroll and 10 × PageDown, of a small file and the segment in one browser
  --small-mib N    size of that small file in MiB (default 4: read into memory, rows at their natural offsets)
  --frames N       animation frames per sustained-scroll step (default 120)
  --index MIB      only this: a small valid .log beside a sparse .index of MIB MiB of zeros, opened as a folder's two
                   files and as the index alone; time to the summary and the renderers' peak memory
  --capture        instead: open the capture of \`npm run bench -- --capture\` (written once, kept in the temp dir) and time
                   setInputFiles to the Messages table's first row and to the summary, with the renderer's peak RSS (issue #24)
  --capture-size S that capture's size, e.g. 256M or 1G (default 1G)

  BENCH_TRACE=1    also print the page renderer's RSS and the main thread's array buffers every 10 ms while the file opens`;

const { values: opts } = parseArgs({
  options: {
    mib: { type: "string", default: "256" },
    payload: { type: "string", default: "100" },
    "per-batch": { type: "string" },
    "no-build": { type: "boolean", default: false },
    "no-keep": { type: "boolean", default: false },
    headed: { type: "boolean", default: false },
    "in-memory": { type: "boolean", default: false },
    "one-thread": { type: "boolean", default: false },
    "scroll-only": { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    "small-mib": { type: "string", default: "4" },
    frames: { type: "string", default: "120" },
    index: { type: "string" },
    capture: { type: "boolean", default: false },
    "capture-size": { type: "string", default: "1G" },
    help: { type: "boolean", default: false },
  },
});
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
const mib = Number(opts.mib);
const payload = Number(opts.payload);
const perBatch = opts["per-batch"] === undefined ? undefined : Number(opts["per-batch"]);
const smallMib = Number(opts["small-mib"]);
const frames = Number(opts.frames);
if (
  !(smallMib > 0) ||
  !(Number.isInteger(frames) && frames >= 10) ||
  !(mib > 0) ||
  !(payload >= 0) ||
  !Number.isInteger(payload) ||
  (perBatch !== undefined && !(Number.isInteger(perBatch) && perBatch >= 1))
) {
  console.error(USAGE);
  process.exit(2);
}

const fmtMs = (ms) => `${ms.toFixed(0)} ms`;
const fmtMiB = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;

/** Builds the segment with the project's encoder (through tsx, as bin/run-ts.mjs does), or reuses one. */
let tsxRegistered = false;
async function segmentFile(mib) {
  if (!tsxRegistered) {
    const { register } = await import("tsx/esm/api");
    register();
    tsxRegistered = true;
  }
  const { planSegment, buildSegment } = await import(pathToFileURL(path.join(ROOT, "scripts", "bench", "segment.ts")).href);
  const { loadXxh3 } = await import(pathToFileURL(path.join(ROOT, "src", "checksum", "xxh3.ts")).href);
  const plan = planSegment(payload, mib * MiB, perBatch);
  const file = path.join(os.tmpdir(), `iggy-bench-page-${mib}MiB-p${payload}${perBatch === undefined ? "" : `-b${perBatch}`}-00000000000000000000.log`);
  if (existsSync(file) && statSync(file).size === plan.totalBytes) return { file, plan, reused: true, buildMs: 0 };
  const t0 = performance.now();
  const bytes = buildSegment(await loadXxh3(), plan);
  writeFileSync(file, bytes);
  return { file, plan, reused: false, buildMs: performance.now() - t0 };
}

/** The kB value of a `Name:   123 kB` line of /proc/<pid>/status, or 0. */
function statusKiB(status, name) {
  const m = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status);
  return m ? Number(m[1]) : 0;
}

/** Pids of every Chromium renderer process below rootPid (the page and its workers live in these). */
function rendererPids(rootPid) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // The command may hold spaces and parentheses: the ppid is the second field after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // gone already
    }
  }
  const out = [];
  const todo = [rootPid];
  while (todo.length) {
    const pid = todo.pop();
    for (const c of children.get(pid) ?? []) {
      todo.push(c);
      try {
        if (readFileSync(`/proc/${c}/cmdline`, "utf8").includes("--type=renderer")) out.push(c);
      } catch {
        // gone already
      }
    }
  }
  return out;
}

/**
 * The page's renderer memory. The page runs in one renderer process (its workers are threads of it);
 * Chromium keeps a spare renderer or two beside it, so the page's is the one with the largest VmHWM
 * (the kernel's own peak RSS of the process). resetPeak() restarts every renderer's VmHWM
 * (/proc/<pid>/clear_refs 5) so a phase's peak can be read; pssPeak() is the highest sum of the
 * renderers' PSS seen by a 50 ms sampler, as a cross-check that shared pages are not counted twice;
 * anonPeak() is the highest RssAnon the sampler saw in the page's renderer: the memory it allocated,
 * without the pages of Chromium's own files it maps (about 140 MiB of the RSS before any file).
 */
function rendererMemory(rootPid) {
  let pssPeak = 0;
  const anonPeaks = new Map();
  const read = (pid, file) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, "utf8");
    } catch {
      return "";
    }
  };
  let pids = rendererPids(rootPid);
  let scanned = Date.now();
  const timer = setInterval(() => {
    if (Date.now() - scanned > 1000) {
      pids = rendererPids(rootPid);
      scanned = Date.now();
    }
    const sum = pids.reduce((n, pid) => n + statusKiB(read(pid, "smaps_rollup"), "Pss") * 1024, 0);
    pssPeak = Math.max(pssPeak, sum);
    for (const pid of pids) anonPeaks.set(pid, Math.max(anonPeaks.get(pid) ?? 0, statusKiB(read(pid, "status"), "RssAnon") * 1024));
  }, 50);
  const page = () => {
    let best = { pid: 0, hwm: 0, rss: 0, anon: 0 };
    for (const pid of rendererPids(rootPid)) {
      const status = read(pid, "status");
      const hwm = statusKiB(status, "VmHWM") * 1024;
      if (hwm > best.hwm) best = { pid, hwm, rss: statusKiB(status, "VmRSS") * 1024, anon: statusKiB(status, "RssAnon") * 1024 };
    }
    return best;
  };
  return {
    /** The page's renderer now: its pid, peak RSS since the last reset, and RSS. */
    page,
    resetPeak() {
      for (const pid of rendererPids(rootPid)) {
        try {
          writeFileSync(`/proc/${pid}/clear_refs`, "5");
        } catch {
          // not ours to reset (no permission): the peak then runs from the process start
        }
      }
      pssPeak = 0;
      anonPeaks.clear();
    },
    pssPeak: () => pssPeak,
    anonPeak: () => anonPeaks.get(page().pid) ?? 0,
    count: () => rendererPids(rootPid).length,
    stop: () => clearInterval(timer),
  };
}

/** The C verifier of `npm run bench` (scripts/bench/native.ts), or the reason it is missing. */
async function nativeVerifier() {
  const native = await import(pathToFileURL(path.join(ROOT, "scripts", "bench", "native.ts")).href);
  if (!native.hasGnuTime()) return { missing: "no /usr/bin/time" };
  const built = native.buildNativeVerifier();
  return "path" in built ? { path: built.path, time: (file) => native.timeProcess(built.path, [file]).seconds * 1000 } : built;
}

/** A copy of the segment with one payload byte of batch 0 flipped, for Compare batches (built next to it, or reused). */
function otherFile(file, plan) {
  const other = file.replace(/\.log$/, "-other.log");
  if (existsSync(other) && statSync(other).size === plan.totalBytes) return other;
  const bytes = readFileSync(file);
  bytes[256 + 48 + 5] ^= 0xff;
  writeFileSync(other, bytes);
  return other;
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

/**
 * Heap use of each dedicated worker of the page (CDP Runtime.getHeapUsage through a browser-level
 * session), after a garbage collection in that worker when `gc`: name → { used, buffers } in bytes.
 * The search worker's array buffers show whether it holds a copy of the input.
 */
async function workerHeaps(browser, gc) {
  const cdp = await browser.newBrowserCDPSession();
  const out = {};
  try {
    const { targetInfos } = await cdp.send("Target.getTargets");
    for (const t of targetInfos.filter((x) => x.type === "worker")) {
      const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: t.targetId, flatten: false });
      let nextId = 1;
      const ask = async (method) => {
        const id = nextId++;
        const reply = new Promise((resolve) => {
          const onMessage = (e) => {
            if (e.sessionId !== sessionId) return;
            const m = JSON.parse(e.message);
            if (m.id !== id) return;
            cdp.off("Target.receivedMessageFromTarget", onMessage);
            resolve(m.result ?? null);
          };
          cdp.on("Target.receivedMessageFromTarget", onMessage);
        });
        await cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method }) });
        return Promise.race([reply, new Promise((r) => setTimeout(() => r(null), 10_000))]);
      };
      if (gc) await ask("HeapProfiler.collectGarbage");
      const heap = await ask("Runtime.getHeapUsage");
      await cdp.send("Target.detachFromTarget", { sessionId }).catch(() => undefined);
      if (heap) out[t.title || t.url] = { used: heap.usedSize, buffers: heap.backingStorageSize ?? null };
    }
  } finally {
    await cdp.detach().catch(() => undefined);
  }
  return out;
}

const fmtHeaps = (heaps) =>
  Object.entries(heaps)
    .map(([name, h]) => `${name} ${fmtMiB(h.used)}${h.buffers !== null ? ` + ${fmtMiB(h.buffers)} array buffers` : ""}`)
    .join(", ") || "none";

/** Opens `file` through "Open batch file" and waits for its summary in the status line. */
async function openInput(page, file) {
  const name = path.basename(file);
  await page.getByLabel("Open batch file").setInputFiles(file);
  await page.waitForFunction(
    (n) =>
      document.querySelector('header [role="status"]')?.getAttribute("aria-busy") === "false" &&
      document.querySelector(".status-area .input-name")?.getAttribute("title") === n,
    name,
    { timeout: 10 * 60_000, polling: "raf" },
  );
  await page.waitForTimeout(1500);
}

/**
 * CPU time (ms) used so far by process `pid`'s main thread and by all its threads: on a
 * machine shared with other work, the frame time stretches with the load, the CPU a frame costs much less.
 */
function cpuMs(pid) {
  const tick = 10; // USER_HZ is 100 on Linux
  const used = (file) => {
    const stat = readFileSync(file, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * tick;
  };
  try {
    // The renderer's main thread is the thread whose id is the process id.
    return { main: used(`/proc/${pid}/task/${pid}/stat`), all: used(`/proc/${pid}/stat`) };
  } catch {
    return null;
  }
}

/** Pixels scrollTop advances every animation frame in the sustained scroll. */
const SCROLL_STEPS = [16, 400, 4000];

/**
 * Sustained scroll: for each step, scrollTop advanced by it on every animation frame for `frames` frames
 * (turning back at either end), as a held scroll bar or a fast trackpad does; the frame time is the gap
 * between consecutive animation frames, so a frame the page could not render in time shows as a long one.
 * The script keeps the position itself, so it reads no layout of its own inside the frame.
 */
async function sustainedScroll(page, frameCount, pid) {
  const runs = [];
  for (const px of SCROLL_STEPS) {
    const hex = page.getByTestId("hex-scroll");
    await hex.evaluate((el) => (el.scrollTop = 0));
    await page.waitForTimeout(400);
    const cpu0 = cpuMs(pid);
    const run = await hex.evaluate(
      async (el, { px, frameCount }) => {
        const max = el.scrollHeight - el.clientHeight;
        let pos = 0;
        let dir = 1;
        const times = [];
        const from = performance.now();
        await new Promise((resolve) => {
          let prev = null;
          const tick = (t) => {
            if (prev !== null) times.push(t - prev);
            prev = t;
            if (times.length >= frameCount) return resolve();
            if (pos + px * dir > max || pos + px * dir < 0) dir = -dir;
            pos += px * dir;
            el.scrollTop = pos;
            requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        });
        return { times, from, to: performance.now() };
      },
      { px, frameCount },
    );
    const cpu1 = cpuMs(pid);
    const tasks = await longTasksBetween(page, run.from, run.to);
    const sorted = [...run.times].sort((a, b) => a - b);
    runs.push({
      px,
      median: sorted[Math.floor(sorted.length / 2)],
      p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))],
      tasks,
      cpu: cpu0 && cpu1 ? { main: (cpu1.main - cpu0.main) / frameCount, all: (cpu1.all - cpu0.all) / frameCount } : null,
    });
  }
  return runs;
}

/** 10 × PageDown with the hex map focused, as fast as the page takes the keys: first keydown to the frame after the last DOM change. */
async function tenPageDowns(page) {
  const el = page.getByTestId("hex-scroll");
  await el.evaluate((e) => (e.scrollTop = 0));
  await el.focus();
  await page.waitForTimeout(400);
  await page.evaluate(() => {
    const e = document.querySelector('[data-testid="hex-scroll"]');
    const st = { t0: null, painted: null };
    window.__benchKeys = st;
    e.addEventListener("keydown", (ev) => (st.t0 ??= ev.timeStamp), { capture: true, once: true });
    st.observer = new MutationObserver(() =>
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => (st.painted = performance.now());
        ch.port2.postMessage(0);
      }),
    );
    st.observer.observe(e, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  for (let i = 0; i < 10; i++) await page.keyboard.press("PageDown");
  const r = await page.waitForFunction(
    () => {
      const st = window.__benchKeys;
      const now = performance.now();
      if (st.t0 === null || st.painted === null || now - st.painted < 200) return false;
      st.observer.disconnect();
      return { ms: st.painted - st.t0, from: st.t0, to: st.painted };
    },
    null,
    { timeout: 60_000, polling: 20 },
  );
  const got = await r.jsonValue();
  return { ms: got.ms, tasks: await longTasksBetween(page, got.from, got.to) };
}

/** The sustained-scroll and PageDown lines of a small file and the segment. */
function printSustained(small, big, smallKeys, bigKeys, smallMiB, bigMiB) {
  const one = (r) =>
    `${r.px} px ${fmtMs(r.median)} (p95 ${fmtMs(r.p95)}${r.tasks ? `, longest task ${fmtMs(r.tasks.longest)}, ${r.tasks.count} > 50 ms` : ""}${r.cpu ? `; CPU ${r.cpu.main.toFixed(1)} / ${r.cpu.all.toFixed(1)} ms` : ""})`;
  console.log(
    `sustained   scrollTop advanced every frame, ${frames} frames a step: median frame time (p95, longest task; CPU a frame of the renderer's main thread / of all its threads):`,
  );
  console.log(`            ${smallMiB} MiB: ${small.map(one).join(" · ")}`);
  console.log(`            ${bigMiB} MiB: ${big.map(one).join(" · ")}`);
  const ratios = big.map((r, i) => r.median / small[i].median);
  const worst = ratios.indexOf(ratios.reduce((a, b) => Math.max(a, b), -Infinity));
  console.log(
    `            ratio ${bigMiB} MiB / ${smallMiB} MiB per step ${ratios.map((x) => `${x.toFixed(2)}×`).join(" / ")}; worst ${big[worst].px} px: ${fmtMs(big[worst].median)} against ${fmtMs(small[worst].median)}`,
  );
  if (big.every((r, i) => r.cpu && small[i].cpu))
    console.log(
      `            CPU a frame, ratio ${bigMiB} MiB / ${smallMiB} MiB per step: main thread ${big.map((r, i) => `${(r.cpu.main / Math.max(1, small[i].cpu.main)).toFixed(2)}×`).join(" / ")}, renderer ${big.map((r, i) => `${(r.cpu.all / Math.max(1, small[i].cpu.all)).toFixed(2)}×`).join(" / ")}`,
    );
  console.log(
    `PageDown    10 × PageDown ${fmtMs(bigKeys.ms)} on ${bigMiB} MiB (longest task ${bigKeys.tasks ? fmtMs(bigKeys.tasks.longest) : "-"}), ${fmtMs(smallKeys.ms)} on ${smallMiB} MiB (first keydown to the frame after the last DOM change)`,
  );
}

async function main() {
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
  const seg = await segmentFile(mib);
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
      const small = await segmentFile(smallMib);
      await openInput(page, small.file);
      const smallScroll = await sustainedScroll(page, frames, mem.page().pid);
      const smallKeys = await tenPageDowns(page);
      await openInput(page, seg.file);
      const bigScroll = await sustainedScroll(page, frames, mem.page().pid);
      const bigKeys = await tenPageDowns(page);
      printSustained(smallScroll, bigScroll, smallKeys, bigKeys, smallMib, mib);
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
    const step = async (kind, act) => {
      await page.evaluate(() => {
        const el = document.querySelector('[data-testid="hex-scroll"]');
        const st = { t0: null, painted: null, mutations: 0 };
        window.__benchStep = st;
        const onInput = (e) => (st.t0 ??= e.timeStamp);
        el.addEventListener("wheel", onInput, { capture: true, once: true });
        el.addEventListener("keydown", onInput, { capture: true, once: true });
        st.observer = new MutationObserver(() => {
          st.mutations++;
          requestAnimationFrame(() => {
            const ch = new MessageChannel();
            ch.port1.onmessage = () => (st.painted = performance.now());
            ch.port2.postMessage(0);
          });
        });
        st.observer.observe(el, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      await act();
      const r = await page.waitForFunction(
        () => {
          const st = window.__benchStep;
          if (st.t0 === null) return false;
          const now = performance.now();
          // Quiet for 150 ms after the last change, or 3 s after the input (something else keeps changing).
          if ((st.painted === null || now - st.painted < 150) && now - st.t0 < 3000) return false;
          st.observer.disconnect();
          return { ms: (st.painted ?? now) - st.t0, mutations: st.mutations, capped: now - st.t0 >= 3000 };
        },
        null,
        { timeout: 60_000, polling: 20 },
      );
      const got = await r.jsonValue();
      if (process.env.BENCH_DEBUG) console.log(kind, got);
      steps[kind].push(got.ms);
    };
    for (let i = 0; i < 8; i++) await step("wheel", () => page.mouse.wheel(0, 120));
    await page.getByTestId("hex-scroll").focus();
    for (let i = 0; i < 8; i++) await step("key", () => page.keyboard.press("PageDown"));
    const stepEnd = await page.evaluate(() => performance.now());
    const stepTasks = await longTasksBetween(page, stepStart, stepEnd);
    const bigScroll = await sustainedScroll(page, frames, mem.page().pid);
    const bigKeys = await tenPageDowns(page);

    // Hover: the pointer over 12 bytes of the rows shown, each timed from the move to its tooltip.
    const hoverStart = await page.evaluate(() => performance.now());
    const hovers = [];
    // Points over 12 bytes inside the hex map's viewport, picked once (rows re-render under the pointer).
    const points = await page.evaluate(() => {
      const box = document.querySelector('[data-testid="hex-scroll"]').getBoundingClientRect();
      const inside = [...document.querySelectorAll('[data-testid="hex-scroll"] [data-offset]')]
        .map((c) => c.getBoundingClientRect())
        .filter((r) => r.width > 0 && r.top >= box.top + 24 && r.bottom <= box.bottom && r.left >= box.left && r.right <= box.right);
      return Array.from({ length: 12 }, (_, i) => inside[Math.floor(((i + 0.5) * inside.length) / 12)])
        .filter((r) => r !== undefined)
        .map((r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 }));
    });
    let shown = "";
    for (const point of points) {
      const t = performance.now();
      await page.mouse.move(point.x, point.y);
      // The tooltip's text changes once it describes the new byte (each byte sampled is in another row).
      const text = await page
        .waitForFunction(
          (before) => {
            const now = document.querySelector('[role="tooltip"]')?.textContent ?? "";
            return now !== "" && now !== before ? now : false;
          },
          shown,
          { timeout: 10_000, polling: "raf" },
        )
        .then((h) => h.jsonValue())
        .catch(() => null);
      if (text === null) {
        continue;
      }
      shown = text;
      hovers.push(performance.now() - t);
    }
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
      await dialog.getByLabel("Left batch").fill(lastBatch);
      await dialog.getByLabel("Right batch").fill(lastBatch);
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
    const small = await segmentFile(smallMib);
    await openInput(page, small.file);
    const smallScroll = await sustainedScroll(page, frames, mem.page().pid);
    const smallKeys = await tenPageDowns(page);

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
    const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const maxOf = (xs) => xs.reduce((m, x) => Math.max(m, x), -Infinity);
    console.log(
      `scroll step wheel median ${fmtMs(med(steps.wheel))}, max ${fmtMs(maxOf(steps.wheel))}; PageDown median ${fmtMs(med(steps.key))}, max ${fmtMs(maxOf(steps.key))} (${steps.wheel.length}+${steps.key.length} steps, input event to the frame after its last DOM change)` +
        (stepTasks ? `; longest task ${fmtMs(stepTasks.longest)}, ${stepTasks.count} task(s) > 50 ms` : ""),
    );
    printSustained(smallScroll, bigScroll, smallKeys, bigKeys, smallMib, mib);
    console.log(
      `hover       ${hovers.length} of ${points.length} bytes, pointer move to tooltip median ${hovers.length ? fmtMs(med(hovers)) : "-"}, max ${hovers.length ? fmtMs(maxOf(hovers)) : "-"} (from this script, round trips included)` +
        (hoverTasks ? `; longest task ${fmtMs(hoverTasks.longest)}, ${hoverTasks.count} task(s) > 50 ms` : ""),
    );
    console.log(
      `follow      ${follow.steps} scroll steps over the first tenth in ${fmtMs(follow.at - 300 - followStart)}: Frames shows "${follow.count}", the view is in batch ${Math.floor((follow.first + follow.last) / 2 / plan.batchBytes)}` +
        (following ? `; longest task ${fmtMs(following.longest)}, ${following.count} task(s) > 50 ms` : ""),
    );
    console.log(
      `search      ${fmtMs(searchTimes[0])} for a 16-byte pattern over all ${fmtMiB(plan.totalBytes)} (the search worker reads the file in windows, from 64 MiB on as four parts at once), ${fmtMs(searchTimes[1])} again` +
        (searchTasks[0] ? `; longest main-thread task ${fmtMs(searchTasks[0].longest)} then ${fmtMs(searchTasks[1].longest)}` : ""),
    );
    console.log(`workers     after the searches: ${fmtHeaps(afterSearch)}; kept after a GC in each: ${fmtHeaps(keptAfterSearch)} (CDP Runtime.getHeapUsage)`);
    console.log(`overview    one jump to the middle in ${fmtMs(jumpMs)} (click to the rows shown)`);
    console.log(
      `diagram     batch ${diagramBatch} drawn ${fmtMs(diagramMs)} after Enter, one box hovered to its bytes lit in ${fmtMs(boxHoverEnd - boxHoverStart)}` +
        (diagramTasks ? `; longest main-thread task ${fmtMs(diagramTasks.longest)}, ${diagramTasks.count} task(s) > 50 ms` : ""),
    );
    console.log(
      `compare     a second ${fmtMiB(plan.totalBytes)} file decoded and batch 0 diffed in ${fmtMs(compareEnd - compareStart)} (${compareSummary?.trim()}), both sides moved to batch ${lastBatch} in ${fmtMs(switchEnd - compareEnd)}` +
        (compareTasks && switchTasks
          ? `; longest main-thread task ${fmtMs(compareTasks.longest)} then ${fmtMs(switchTasks.longest)}, ${compareTasks.count + switchTasks.count} task(s) > 50 ms`
          : ""),
    );
    if (memory)
      console.log(
        `JS heap     ${fmtMiB(memory.used)} used of ${fmtMiB(memory.total)} (performance.memory, array buffers included; limit ${fmtMiB(memory.limit)})`,
      );
    else console.log("JS heap     performance.memory not available");
    if (heap)
      console.log(
        `            ${fmtMiB(heap.usedSize)} used of ${fmtMiB(heap.totalSize)} (CDP Runtime.getHeapUsage${heap.embedderHeapUsedSize !== undefined ? `; embedder ${fmtMiB(heap.embedderHeapUsedSize)}` : ""}${heap.backingStorageSize !== undefined ? `; array buffers ${fmtMiB(heap.backingStorageSize)}` : ""})`,
      );
    const file = plan.totalBytes;
    const ratio = (b) => `${(b / file).toFixed(2)} × file`;
    console.log(
      `renderer    peak RSS ${fmtMiB(ended.hwm)} = ${ratio(ended.hwm)} from opening the file to the end of the run; opening alone ${fmtMiB(opened.hwm)} = ${ratio(opened.hwm)} ` +
        `(VmHWM of the page's renderer process, workers included; ${fmtMiB(before.rss)} before the file, ${fmtMiB(opened.rss)} 1 s after the summary, ${fmtMiB(ended.rss)} at the end)`,
    );
    console.log(
      `            PSS of all ${mem.count()} renderer processes peaked at ${fmtMiB(openPss)} while opening, ${fmtMiB(allPss)} over the run (sampled every 50 ms)`,
    );
    console.log(
      `            opening grew it by ${fmtMiB(opened.hwm - before.rss)} = ${ratio(opened.hwm - before.rss)} (peak − before); its allocated (anonymous) memory peaked at ${fmtMiB(openAnon)} = ${ratio(openAnon)} while opening (${fmtMiB(before.anon)} before the file; RssAnon, sampled every 50 ms)`,
    );
    if (nativeMs.length) {
      const c = med(nativeMs);
      const pageMs = changeAt !== null ? done.at - changeAt : wallMs;
      console.log(
        `vs C        C verifier (scripts/bench/verify.c, libxxhash, whole process) ${fmtMs(c)} (median of ${nativeMs.length}, ${nativeMs.map((m) => m.toFixed(0)).join("/")} ms, run before and after the page) → page to summary ${c > 0 ? `${(pageMs / c).toFixed(1)}x C` : "(C too fast to time)"}`,
      );
    } else console.log(`vs C        skipped: ${native.missing}`);
    if (phases) {
      const c = nativeMs.length ? med(nativeMs) : 0;
      console.log(
        `phases      where the opening's time goes (marks of src/worker/phase-marks.ts; ms${c > 0 ? ", x C" : ""}): ` +
          phases.map(([what, ms]) => `${what} ${fmtMs(ms)}${c > 0 ? ` (${(ms / c).toFixed(1)}x)` : ""}`).join(" · "),
      );
    }
    if (readAlone) {
      const pageMs = changeAt !== null ? done.at - changeAt : wallMs;
      const c = nativeMs.length ? med(nativeMs) : 0;
      const x = (ms) => (c > 0 ? ` = ${(ms / c).toFixed(1)}x C` : "");
      console.log(
        `parts       reading the File alone, nothing else done (blob workers, four streams of BYOB reads into 4 MiB buffers, as the page's walk reads it): ` +
          `1 worker ${fmtMs(readAlone.one)}${x(readAlone.one)}, 2 workers ${fmtMs(readAlone.two)}${x(readAlone.two)}; ` +
          `the rest of the opening (walk, merge, reply, first render): ${fmtMs(pageMs - readAlone.two)}${x(pageMs - readAlone.two)} past the two-worker read`,
      );
    }
    if (pageErrors.length) console.log(`page errors ${pageErrors.join(" | ")}`);
  } finally {
    mem.stop();
    await browser.close();
    preview.child.kill();
    if (opts["no-keep"]) rmSync(seg.file, { force: true });
  }
}

/**
 * `--index MIB` (issue #22): a folder of a 1 MiB segment `.log` and a sparse `.index` of `indexMib` MiB of zeros
 * (made as `truncate -s` does, so it costs no disk), opened in a fresh page as the folder's two files and then as
 * the index alone. Prints, for each, the time from setInputFiles to the summary, the summary, whether the page
 * crashed, and the renderers' peak memory: the highest sum of every renderer process's PSS (sampled every 50 ms)
 * and the page renderer's own VmHWM (the kernel's peak RSS of the process, reset before the file).
 */
/**
 * Starts the CPU profiler (100 µs samples) in every worker of the browser; stop() ends them and returns, per worker
 * that did anything, its top 15 functions by self time as printable lines.
 */
async function startWorkerProfiles(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const sessions = [];
  let nextId = 1;
  const ask = (sessionId, method, params = {}) => {
    const id = nextId++;
    const reply = new Promise((resolve) => {
      const onMessage = (e) => {
        if (e.sessionId !== sessionId) return;
        const m = JSON.parse(e.message);
        if (m.id !== id) return;
        cdp.off("Target.receivedMessageFromTarget", onMessage);
        resolve(m.result ?? null);
      };
      cdp.on("Target.receivedMessageFromTarget", onMessage);
    });
    void cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) });
    return Promise.race([reply, new Promise((r) => setTimeout(() => r(null), 60_000))]);
  };
  const { targetInfos } = await cdp.send("Target.getTargets");
  for (const t of targetInfos.filter((x) => x.type === "worker")) {
    const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: t.targetId, flatten: false });
    await ask(sessionId, "Profiler.enable");
    await ask(sessionId, "Profiler.setSamplingInterval", { interval: 100 });
    await ask(sessionId, "Profiler.start");
    sessions.push({ sessionId, title: t.title || t.url });
  }
  return {
    async stop() {
      const lines = [];
      for (const { sessionId, title } of sessions) {
        const got = await ask(sessionId, "Profiler.stop");
        const profile = got?.profile;
        if (!profile) continue;
        const ms = new Map();
        const byId = new Map(profile.nodes.map((n) => [n.id, n]));
        let total = 0;
        for (const [k, id] of profile.samples.entries()) {
          const dt = (profile.timeDeltas[k] ?? 0) / 1000;
          const f = byId.get(id)?.callFrame;
          const name = f ? `${f.functionName || "(anonymous)"} ${path.basename(f.url || "")}:${f.lineNumber + 1}:${f.columnNumber + 1}` : "?";
          ms.set(name, (ms.get(name) ?? 0) + dt);
          if (!name.startsWith("(idle)")) total += dt;
        }
        if (total < 50) continue;
        const top = [...ms.entries()]
          .filter(([n]) => !n.startsWith("(idle)"))
          .sort((a, b) => b[1] - a[1])
          .slice(0, 15);
        lines.push(`profile     ${title}: ${fmtMs(total)} busy; by self time: ${top.map(([n, t]) => `${n} ${fmtMs(t)}`).join(" · ")}`);
        await cdp.send("Target.detachFromTarget", { sessionId }).catch(() => undefined);
      }
      await cdp.detach().catch(() => undefined);
      return lines;
    },
  };
}

/** What each step of the open just made took, from the page's change event to the summary: [label, ms][], or null. */
async function openPhases(browser, page, changeAt, summaryAt) {
  const read = () => {
    const marks = {};
    for (const m of performance.getEntriesByType("mark")) if (m.name.startsWith("iggy:")) marks[m.name.slice(5)] = performance.timeOrigin + m.startTime;
    return JSON.stringify(marks);
  };
  const pageMarks = JSON.parse(await page.evaluate(read));
  const origin = await page.evaluate(() => performance.timeOrigin);
  let workerMarks = null;
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send("Target.getTargets");
    for (const t of targetInfos.filter((x) => x.type === "worker")) {
      const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: t.targetId, flatten: false });
      const reply = new Promise((resolve) => {
        const onMessage = (e) => {
          if (e.sessionId !== sessionId) return;
          const m = JSON.parse(e.message);
          if (m.id !== 1) return;
          cdp.off("Target.receivedMessageFromTarget", onMessage);
          resolve(m.result?.result?.value ?? null);
        };
        cdp.on("Target.receivedMessageFromTarget", onMessage);
      });
      const expression = `(${read.toString()})()`;
      await cdp.send("Target.sendMessageToTarget", {
        sessionId,
        message: JSON.stringify({ id: 1, method: "Runtime.evaluate", params: { expression, returnByValue: true } }),
      });
      const got = await Promise.race([reply, new Promise((r) => setTimeout(() => r(null), 5000))]);
      await cdp.send("Target.detachFromTarget", { sessionId }).catch(() => undefined);
      const marks = got ? JSON.parse(got) : {};
      if (marks.request && (!workerMarks || marks.request > workerMarks.request)) workerMarks = marks;
    }
  } finally {
    await cdp.detach().catch(() => undefined);
  }
  if (!workerMarks || !pageMarks.result || changeAt === null) return null;
  const at = { change: origin + changeAt, ...workerMarks, ...pageMarks, summary: origin + summaryAt };
  const steps = [
    ["change → worker has the request", "change", "request"],
    ["→ walk starts (range workers' kernel compiled)", "request", "walk-start"],
    ["read + walk", "walk-start", "read-walked"],
    ["merge", "read-walked", "merged"],
    ["segment recovery, detection", "merged", "opened"],
    ["packing + posting the reply", "opened", "posted"],
    ["→ page has the reply", "posted", "result"],
    ["page takes it in", "result", "shown"],
    ["→ summary shown (render)", "shown", "summary"],
  ];
  return steps.filter(([, from, to]) => at[from] !== undefined && at[to] !== undefined).map(([label, from, to]) => [label, at[to] - at[from]]);
}

/**
 * The platform's share of opening (issue #27): the opened File read whole as the page's walk reads it (four streams
 * of its quarters, BYOB reads into reused 4 MiB buffers) in blob workers that do nothing else, by one worker and by
 * two (two streams each), in ms (best of two); null if unavailable.
 */
async function fileReadAlone(page, path) {
  // The app empties its own file input once it has the File: this one is the bench's.
  await page.evaluate(() => {
    const input = Object.assign(document.createElement("input"), { type: "file", id: "bench-read-alone", hidden: true });
    document.body.append(input);
  });
  await page.setInputFiles("#bench-read-alone", path);
  return page
    .evaluate(async () => {
      const input = document.getElementById("bench-read-alone");
      const file = input?.files?.[0];
      input?.remove();
      if (!file) return null;
      const code = `onmessage = async (e) => {
        const { file, parts } = e.data;
        const t0 = performance.now();
        await Promise.all(parts.map(async ([from, to]) => {
          const reader = file.slice(from, to).stream().getReader({ mode: "byob" });
          let buffer = new ArrayBuffer(4 << 20);
          for (;;) { const { value, done } = await reader.read(new Uint8Array(buffer)); if (done) break; buffer = value.buffer; }
        }));
        postMessage(performance.now() - t0);
      };`;
      const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
      const quarter = (k) => Math.floor((file.size * k) / 4);
      const parts = [0, 1, 2, 3].map((k) => [quarter(k), quarter(k + 1)]);
      const run = async (workerCount) => {
        const workers = Array.from({ length: workerCount }, () => new Worker(url));
        const t0 = performance.now();
        await Promise.all(
          workers.map(
            (w, k) =>
              new Promise((done) => {
                w.onmessage = () => done();
                w.postMessage({ file, parts: parts.filter((_, p) => p % workerCount === k) });
              }),
          ),
        );
        const ms = performance.now() - t0;
        for (const w of workers) w.terminate();
        return ms;
      };
      const best = async (workerCount) => Math.min(await run(workerCount), await run(workerCount));
      const one = await best(1);
      const two = await best(2);
      URL.revokeObjectURL(url);
      return { one, two };
    })
    .catch(() => null);
}

async function indexBench(indexMib) {
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
  const seg = await segmentFile(1);
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

  if (!opts["no-build"]) {
    const vite = path.join(ROOT, "node_modules", "vite", "bin", "vite.js");
    const res = spawnSync(process.execPath, [vite, "build", "--logLevel", "error"], { cwd: ROOT, stdio: "inherit" });
    if (res.status !== 0) throw new Error(`vite build exited ${res.status}`);
  } else if (!existsSync(path.join(ROOT, "dist", "index.html"))) {
    throw new Error("dist/ is not built: run without --no-build");
  }
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
      // BENCH_TRACE=1: the page renderer's RSS and the status line every second.
      const trace = process.env.BENCH_TRACE
        ? setInterval(() => {
            const rss = fmtMiB(mem.page().rss);
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
          `\n${"".padEnd(24)} renderers' PSS summed peaked at ${fmtMiB(mem.pssPeak())}; the page renderer's peak RSS ${fmtMiB(peak.hwm)} (${fmtMiB(before.rss)} before the file, ${fmtMiB(peak.rss)} 1 s after)` +
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

/**
 * `--capture` (issue #24): the capture of `npm run bench -- --capture` opened through "Open batch file";
 * times setInputFiles (in-page: the input's change event) to the first row of the Messages table and to
 * the summary in the status line, and reads the page renderer's peak RSS over that time.
 */
async function captureMain() {
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
  if (!opts["no-build"]) {
    const vite = path.join(ROOT, "node_modules", "vite", "bin", "vite.js");
    const res = spawnSync(process.execPath, [vite, "build", "--logLevel", "error"], { cwd: ROOT, stdio: "inherit" });
    if (res.status !== 0) throw new Error(`vite build exited ${res.status}`);
  }
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

(opts.capture ? captureMain() : opts.index === undefined ? main() : indexBench(Number(opts.index))).catch((err) => {
  console.error(`bench:page: ${err.stack ?? err}`);
  process.exitCode = 1;
});
