// The flags of `npm run bench:page` (scripts/bench-page.mjs): USAGE and their parsing.
import { parseArgs } from "node:util";

/** The text --help prints, and a bad flag value prints to stderr. */
export const USAGE = `usage: npm run bench:page -- [--mib N] [--payload BYTES] [--no-build] [--no-keep] [--headed]

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

/**
 * Parses process.argv: prints USAGE and exits 0 on --help, 2 on a bad value; otherwise the raw flags (opts) and
 * the numbers read from them.
 */
export function parsePageOptions() {
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
  return { opts, mib, payload, perBatch, smallMib, frames };
}
