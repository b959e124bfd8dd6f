// The hex map under bench:page: scroll steps, hovers, the sustained scroll and 10 × PageDown, and their printed lines.
import { cpuMs, longTasksBetween } from "./page-browser.mjs";
import { fmtMs } from "./page-common.mjs";

/** Pixels scrollTop advances every animation frame in the sustained scroll. */
const SCROLL_STEPS = [16, 400, 4000];

/**
 * Sustained scroll: for each step, scrollTop advanced by it on every animation frame for `frames` frames
 * (turning back at either end), as a held scroll bar or a fast trackpad does; the frame time is the gap
 * between consecutive animation frames, so a frame the page could not render in time shows as a long one.
 * The script keeps the position itself, so it reads no layout of its own inside the frame.
 */
export async function sustainedScroll(page, frameCount, pid) {
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
export async function tenPageDowns(page) {
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

/** The sustained-scroll and PageDown lines of a small file and the segment (`frames` frames a step). */
export function printSustained(small, big, smallKeys, bigKeys, smallMiB, bigMiB, frames) {
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

/**
 * One hex-map scroll step: `act` (a wheel notch or a key), timed in the page from the input event to the first frame
 * after the last DOM change it caused, pushed onto steps[kind].
 */
export async function scrollStep(page, steps, kind, act) {
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
}

/**
 * The pointer over 12 bytes of the hex map's rows shown, each timed from the move to its tooltip: the points, and the
 * times of those whose tooltip came.
 */
export async function hoverBytes(page) {
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
  return { points, hovers };
}
