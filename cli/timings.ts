/**
 * Phase timings of one CLI run, printed to stderr when IGGY_BATCH_TIMINGS=1 (for issue #27's
 * opening breakdown): each mark closes the phase since the previous one, the first since the
 * process started, and records the process's memory at that moment (RSS, V8 heap, wasm and buffers).
 */
import { performance } from "node:perf_hooks";

const enabled = process.env["IGGY_BATCH_TIMINGS"] === "1";
const phases: [string, number, string][] = [];
let last = 0;
let peakRss = 0;

const MiB = 1 << 20;
const mib = (n: number): string => (n / MiB).toFixed(1);

/** The process's memory now: RSS, V8 heap used / total, external (wasm memories, buffers) and array buffers, in MiB. */
function memoryNow(): string {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  return `rss ${mib(m.rss)} heap ${mib(m.heapUsed)}/${mib(m.heapTotal)} external ${mib(m.external)} arrayBuffers ${mib(m.arrayBuffers)} MiB`;
}

/** Ends the running phase under `name` (a no-op unless IGGY_BATCH_TIMINGS=1). */
export function phaseDone(name: string): void {
  if (!enabled) return;
  const now = performance.now();
  phases.push([name, now - last, memoryNow()]);
  last = now;
}

/** Writes the phases recorded so far to stderr, one `name ms (memory)` line each, then a total. */
export function printPhases(): void {
  if (!enabled || phases.length === 0) return;
  const lines = phases.map(([name, ms, memory]) => `iggy-batch timing ${name} ${ms.toFixed(1)} ms (${memory})`);
  lines.push(
    `iggy-batch timing total ${last.toFixed(1)} ms (peak rss at the marks ${mib(peakRss)} MiB; process.resourceUsage ${mib(process.resourceUsage().maxRSS * 1024)} MiB)`,
  );
  process.stderr.write(lines.join("\n") + "\n");
}
