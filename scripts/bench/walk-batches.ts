/**
 * `node bin/run-ts.mjs scripts/bench/walk-batches.ts [--batches 200000] [--runs 7] [--root DIR]`: times analyze()
 * on a segment of single-message stamped batches, where a walk spends its time per batch, not per frame (the
 * clean-batch fast path). --root times another checkout's core (e.g. /work/main) on the same bytes.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type * as Segment from "./segment.ts";

const { values } = parseArgs({
  options: {
    batches: { type: "string", default: "200000" },
    runs: { type: "string", default: "7" },
    root: { type: "string" },
    payload: { type: "string", default: "16" },
  },
});
const root = resolve(values.root ?? resolve(import.meta.dirname, "../.."));
const load = <T>(path: string): Promise<T> => import(pathToFileURL(resolve(root, path)).href) as Promise<T>;

type Analysis = { summary: { batches: number; frames: number; errors: number; warnings: number; infos: number } };
// A checkout from before the core's layer folders keeps analyze.ts directly in src/core.
const analyzePath = existsSync(resolve(root, "src/core/walk/analyze.ts")) ? "src/core/walk/analyze.ts" : "src/core/analyze.ts";
const { analyze } = await load<{ analyze: (b: Uint8Array) => Promise<Analysis> }>(analyzePath);
const { loadXxh3 } = await load<{ loadXxh3: () => Promise<unknown> }>("src/checksum/xxh3.ts");
const { buildSegment, planSegment } = await load<typeof Segment>("scripts/bench/segment.ts");

const batches = Number(values.batches);
const payload = Number(values.payload);
const plan = planSegment(payload, batches * planSegment(payload, 1, 1).batchBytes, 1);
const bytes = buildSegment((await loadXxh3()) as Parameters<typeof buildSegment>[0], plan);
const times: number[] = [];
// CPU time of this process per run: on a machine shared with other work, wall time mostly measures the others.
const cpu: number[] = [];
let summary: Analysis["summary"] | null = null;
for (let run = 0; run <= Number(values.runs); run++) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const a = await analyze(bytes);
  const ms = performance.now() - t0;
  const used = process.cpuUsage(c0);
  if (run > 0) {
    // the first run warms up
    times.push(ms);
    cpu.push((used.user + used.system) / 1000);
  }
  summary = a.summary;
}
times.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
const median = times[times.length >> 1] as number;
console.log(
  `${root}: ${plan.batches} batches of 1 message (${payload} B payload, ${(bytes.length / 2 ** 20).toFixed(1)} MiB): ` +
    `wall median ${median.toFixed(0)} ms (min ${times[0]!.toFixed(0)}, max ${times[times.length - 1]!.toFixed(0)}), ` +
    `CPU median ${cpu[cpu.length >> 1]!.toFixed(0)} ms (min ${cpu[0]!.toFixed(0)}) over ${times.length} runs; ` +
    `summary ${JSON.stringify(summary)}`,
);
