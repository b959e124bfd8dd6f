// Where the page's opening goes: worker CPU profiles (--profile), the phase marks, and the File read alone.
import path from "node:path";
import { fmtMs } from "./page-common.mjs";
import { attachWorkers } from "./page-browser.mjs";

/**
 * Starts the CPU profiler (100 µs samples) in every worker of the browser; stop() ends them and returns, per worker
 * that did anything, its top 15 functions by self time as printable lines.
 */
export async function startWorkerProfiles(browser) {
  const attached = await attachWorkers(browser);
  for (const w of attached.workers) {
    await w.ask("Profiler.enable");
    await w.ask("Profiler.setSamplingInterval", { interval: 100 });
    await w.ask("Profiler.start");
  }
  return {
    async stop() {
      const lines = [];
      for (const { title, ask } of attached.workers) {
        const got = await ask("Profiler.stop", {}, 60_000);
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
      }
      await attached.close();
      return lines;
    },
  };
}

/** What each step of the open just made took, from the page's change event to the summary: [label, ms][], or null. */
export async function openPhases(browser, page, changeAt, summaryAt) {
  const read = () => {
    const marks = {};
    for (const m of performance.getEntriesByType("mark")) if (m.name.startsWith("iggy:")) marks[m.name.slice(5)] = performance.timeOrigin + m.startTime;
    return JSON.stringify(marks);
  };
  const pageMarks = JSON.parse(await page.evaluate(read));
  const origin = await page.evaluate(() => performance.timeOrigin);
  let workerMarks = null;
  const attached = await attachWorkers(browser);
  try {
    for (const w of attached.workers) {
      const got = await w.ask("Runtime.evaluate", { expression: `(${read.toString()})()`, returnByValue: true }, 5000);
      const marks = got?.result?.value ? JSON.parse(got.result.value) : {};
      if (marks.request && (!workerMarks || marks.request > workerMarks.request)) workerMarks = marks;
    }
  } finally {
    await attached.close();
  }
  if (!workerMarks || !pageMarks.result || changeAt === null) return null;
  const at = { change: origin + changeAt, ...workerMarks, ...pageMarks, summary: origin + summaryAt };
  const steps = [
    ["change → worker has the request", "change", "request"],
    ["→ walk starts (range workers' kernel compiled)", "request", "walk-start"],
    ["read + walk", "walk-start", "read-walked"],
    ["merge", "read-walked", "merged"],
    ["segment recovery, detection", "merged", "opened"],
    // A file below the on-demand size is read whole and decoded in memory: no walk marks.
    ...(at["walk-start"] === undefined ? [["read whole + decode in memory", "request", "opened"]] : []),
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
export async function fileReadAlone(page, path) {
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
