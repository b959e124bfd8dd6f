// Browser, preview server and memory helpers of bench:page: Chromium's args, `vite preview` on a free port,
// the renderers' memory from /proc, long tasks and worker heaps read from the page.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { ROOT, fmtMiB } from "./page-common.mjs";

// Keep in step with CHROMIUM_ARGS in playwright.config.ts: no background traffic, and every host
// but loopback unreachable.
export const CHROMIUM_ARGS = [
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
export function rendererMemory(rootPid) {
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
    /** The page's renderer now, split as the kernel counts it (MiB): anonymous (allocated), file-mapped (Chromium's own files), shared, and its threads. */
    split() {
      const status = read(page().pid, "status");
      const mib = (name) => statusKiB(status, name) / 1024;
      return { anon: mib("RssAnon"), file: mib("RssFile"), shmem: mib("RssShmem"), threads: Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 0) };
    },
    pssPeak: () => pssPeak,
    anonPeak: () => anonPeaks.get(page().pid) ?? 0,
    count: () => rendererPids(rootPid).length,
    stop: () => clearInterval(timer),
  };
}

/** A TCP port nothing listens on right now. */
export function freePort() {
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
export async function startPreview(port) {
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
export function initScript() {
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
export async function longTasksBetween(page, from, to) {
  const tasks = (await page.evaluate(() => window.__benchLongTasks)) ?? null;
  if (!tasks) return null;
  const inside = tasks.filter((t) => t.start >= from && t.start < to);
  return {
    count: inside.filter((t) => t.duration > 50).length,
    longest: inside.reduce((m, t) => Math.max(m, t.duration), 0),
    total: inside.reduce((s, t) => s + t.duration, 0),
  };
}

/** Builds the site (vite build) unless `noBuild`, when dist/ must already be there. */
export function builtSite(noBuild) {
  if (!noBuild) {
    const vite = path.join(ROOT, "node_modules", "vite", "bin", "vite.js");
    const res = spawnSync(process.execPath, [vite, "build", "--logLevel", "error"], { cwd: ROOT, stdio: "inherit" });
    if (res.status !== 0) throw new Error(`vite build exited ${res.status}`);
  } else if (!existsSync(path.join(ROOT, "dist", "index.html"))) {
    throw new Error("dist/ is not built: run without --no-build");
  }
}

/**
 * Every dedicated worker of the browser, attached through one browser-level CDP session: each with its title and
 * `ask(method, params, timeoutMs)` (the reply's result, or null on timeout); `close()` detaches them all.
 */
export async function attachWorkers(browser) {
  const cdp = await browser.newBrowserCDPSession();
  let nextId = 1;
  const workers = [];
  const { targetInfos } = await cdp.send("Target.getTargets");
  for (const t of targetInfos.filter((x) => x.type === "worker")) {
    const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: t.targetId, flatten: false });
    const ask = (method, params = {}, timeoutMs = 10_000) => {
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
      return Promise.race([reply, new Promise((r) => setTimeout(() => r(null), timeoutMs))]);
    };
    workers.push({ title: t.title || t.url, sessionId, ask });
  }
  return {
    workers,
    async close() {
      for (const w of workers) await cdp.send("Target.detachFromTarget", { sessionId: w.sessionId }).catch(() => undefined);
      await cdp.detach().catch(() => undefined);
    },
  };
}

/**
 * Heap use of each dedicated worker of the page (CDP Runtime.getHeapUsage through a browser-level
 * session), after a garbage collection in that worker when `gc`: name → { used, buffers } in bytes.
 * The search worker's array buffers show whether it holds a copy of the input.
 */
export async function workerHeaps(browser, gc) {
  const attached = await attachWorkers(browser);
  const out = {};
  try {
    for (const w of attached.workers) {
      if (gc) await w.ask("HeapProfiler.collectGarbage");
      const heap = await w.ask("Runtime.getHeapUsage");
      if (heap) out[w.title] = { used: heap.usedSize, buffers: heap.backingStorageSize ?? null };
    }
  } finally {
    await attached.close();
  }
  return out;
}

export const fmtHeaps = (heaps) =>
  Object.entries(heaps)
    .map(([name, h]) => `${name} ${fmtMiB(h.used)}${h.buffers !== null ? ` + ${fmtMiB(h.buffers)} array buffers` : ""}`)
    .join(", ") || "none";

/** Opens `file` through "Open batch file" and waits for its summary in the status line. */
export async function openInput(page, file) {
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
export function cpuMs(pid) {
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
