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
//
// This file picks the mode; the modes and their helpers are in scripts/bench/page-*.mjs.
import { captureMain } from "./bench/page-capture.mjs";
import { indexBench } from "./bench/page-index.mjs";
import { parsePageOptions } from "./bench/page-options.mjs";
import { segmentBench } from "./bench/page-segment.mjs";

const cfg = parsePageOptions();
(cfg.opts.capture ? captureMain(cfg.opts) : cfg.opts.index === undefined ? segmentBench(cfg) : indexBench(Number(cfg.opts.index), cfg)).catch((err) => {
  console.error(`bench:page: ${err.stack ?? err}`);
  process.exitCode = 1;
});
