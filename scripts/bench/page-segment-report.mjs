// The printed lines of the segment run of bench:page (scripts/bench/page-segment.mjs).
import { fmtHeaps } from "./page-browser.mjs";
import { fmtMiB, fmtMs } from "./page-common.mjs";
import { printSustained } from "./page-hexmap.mjs";

/** Prints the segment run's lines from what segmentBench measured (its local values, by name). */
export function printSegmentReport({
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
}) {
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
  printSustained(smallScroll, bigScroll, smallKeys, bigKeys, smallMib, mib, frames);
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
  printAgainstC({ changeAt, done, native, nativeMs, phases, readAlone, wallMs });
  if (pageErrors.length) console.log(`page errors ${pageErrors.join(" | ")}`);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The opening against the C verifier: the whole, its phases, and the File read alone.
function printAgainstC({ changeAt, done, native, nativeMs, phases, readAlone, wallMs }) {
  if (nativeMs.length) {
    const c = median(nativeMs);
    const pageMs = changeAt !== null ? done.at - changeAt : wallMs;
    console.log(
      `vs C        C verifier (scripts/bench/verify.c, libxxhash, whole process) ${fmtMs(c)} (median of ${nativeMs.length}, ${nativeMs.map((m) => m.toFixed(0)).join("/")} ms, run before and after the page) → page to summary ${c > 0 ? `${(pageMs / c).toFixed(1)}x C` : "(C too fast to time)"}`,
    );
  } else console.log(`vs C        skipped: ${native.missing}`);
  if (phases) {
    const c = nativeMs.length ? median(nativeMs) : 0;
    console.log(
      `phases      where the opening's time goes (marks of src/worker/phase-marks.ts; ms${c > 0 ? ", x C" : ""}): ` +
        phases.map(([what, ms]) => `${what} ${fmtMs(ms)}${c > 0 ? ` (${(ms / c).toFixed(1)}x)` : ""}`).join(" · "),
    );
  }
  if (readAlone) {
    const pageMs = changeAt !== null ? done.at - changeAt : wallMs;
    const c = nativeMs.length ? median(nativeMs) : 0;
    const x = (ms) => (c > 0 ? ` = ${(ms / c).toFixed(1)}x C` : "");
    console.log(
      `parts       reading the File alone, nothing else done (blob workers, four streams of BYOB reads into 4 MiB buffers, as the page's walk reads it): ` +
        `1 worker ${fmtMs(readAlone.one)}${x(readAlone.one)}, 2 workers ${fmtMs(readAlone.two)}${x(readAlone.two)}; ` +
        `the rest of the opening (walk, merge, reply, first render): ${fmtMs(pageMs - readAlone.two)}${x(pageMs - readAlone.two)} past the two-worker read`,
    );
  }
}

/** Prints only the opening's lines (BENCH_OPEN_ONLY=1 of page-segment.mjs): the time, the renderer's memory while opening, and against C. */
export function printOpening({ before, changeAt, done, mem, native, nativeMs, openAnon, openPss, opened, phases, plan, readAlone, wallMs, pageErrors }) {
  console.log(`status      ${done.text}`);
  console.log(
    `time        ${fmtMs(wallMs)} from setInputFiles to the summary` +
      (changeAt !== null ? ` (${fmtMs(done.at - changeAt)} in the page, from the input's change event)` : ""),
  );
  const ratio = (b) => `${(b / plan.totalBytes).toFixed(2)} × file`;
  console.log(
    `renderer    opening: peak RSS ${fmtMiB(opened.hwm)} = ${ratio(opened.hwm)} (${fmtMiB(before.rss)} before), grew by ${fmtMiB(opened.hwm - before.rss)}; ` +
      `PSS of all ${mem.count()} renderers peaked at ${fmtMiB(openPss)}; allocated (anonymous) peaked at ${fmtMiB(openAnon)} = ${ratio(openAnon)}`,
  );
  printAgainstC({ changeAt, done, native, nativeMs, phases, readAlone, wallMs });
  if (pageErrors.length) console.log(`page errors ${pageErrors.join(" | ")}`);
}
