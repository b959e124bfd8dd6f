/**
 * Phase timings of one CLI run, printed to stderr when IGGY_BATCH_TIMINGS=1 (for issue #27's
 * opening breakdown): each mark closes the phase since the previous one, the first since the
 * process started.
 */
import { performance } from "node:perf_hooks";

const enabled = process.env["IGGY_BATCH_TIMINGS"] === "1";
const phases: [string, number][] = [];
let last = 0;

/** Ends the running phase under `name` (a no-op unless IGGY_BATCH_TIMINGS=1). */
export function phaseDone(name: string): void {
  if (!enabled) return;
  const now = performance.now();
  phases.push([name, now - last]);
  last = now;
}

/** Writes the phases recorded so far to stderr, one `name ms` line each, then a total. */
export function printPhases(): void {
  if (!enabled || phases.length === 0) return;
  const lines = phases.map(([name, ms]) => `iggy-batch timing ${name} ${ms.toFixed(1)} ms`);
  lines.push(`iggy-batch timing total ${last.toFixed(1)} ms`);
  process.stderr.write(lines.join("\n") + "\n");
}
