/**
 * Whole-process runs for `npm run bench`: a segment file in /tmp (deleted after), timed with GNU
 * time for the native verifier and `iggy-batch inspect`, interleaved run by run so the ratio holds
 * on a shared machine; optionally another checkout's CLI on the same file for a before/after.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadXxh3 } from "../../src/checksum/xxh3.ts";
import { planSegment, writeSegmentFile } from "./segment.ts";
import { hasGnuTime, timeProcess } from "./native.ts";
import { RangePool } from "../../cli/range-pool.ts";
import { createWasmKernel } from "../../src/checksum/kernel/wasm-kernel.ts";

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), "../../bin/iggy-batch.mjs");
const MiB = 1 << 20;

/** What cliSection runs. */
export interface CliBenchConfig {
  readonly mib: number;
  readonly sizes: readonly number[];
  readonly runs: number;
  readonly native: string | null;
  readonly baselineBin: string | null;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const label = (n: number): string => (n >= 1024 ? `${n / 1024} KiB` : `${n} B`);

/**
 * The file walked by pools of 1 and 2 workers that are already up (no start-up), and by 1 worker with
 * the calling thread walking ranges too (what `inspect` does on 2 cores), interleaved: what all cores give.
 */
async function warmPoolLines(file: string, frames: number, runs: number, cSeconds: number | null): Promise<string[]> {
  const pools = [new RangePool(1), new RangePool(2)];
  const own = await createWasmKernel();
  const modes = [
    { name: "pool of 1 worker already up (in the bench process)", pool: pools[0]!, own: undefined },
    { name: "pool of 2 workers already up (in the bench process)", pool: pools[1]!, own: undefined },
    { name: "1 worker already up + the calling thread", pool: pools[0]!, own },
  ];
  try {
    await Promise.all(pools.map((p) => p.ready()));
    const times = modes.map(() => [] as number[]);
    const options = { startOffset: 0, keepFrames: false, maxDiagnostics: 200_000 };
    for (let r = 0; r <= runs; r++) {
      for (const [i, mode] of modes.entries()) {
        const t0 = performance.now();
        const a = await mode.pool.analyzeFile(file, options, mode.own);
        if (a.summary.frames !== frames || a.summary.errors > 0) throw new Error(`${mode.name}: ${a.summary.frames} frames, ${a.summary.errors} errors`);
        if (r > 0) times[i]!.push((performance.now() - t0) / 1e3); // run 0 warms the kernels up
      }
    }
    const medians = times.map(median);
    const one = medians[0]!;
    return modes.map((mode, i) => {
      const t = medians[i]!;
      const ratio = cSeconds ? `, ${(t / cSeconds).toFixed(2)}x C` : "";
      const speedup = i > 0 ? `, ${(one / t).toFixed(2)}x one worker` : "";
      return `    ${mode.name.padEnd(56)} ${t.toFixed(2)} s (${times[i]!.map((x) => x.toFixed(2)).join(", ")}), ${((t * 1e9) / frames).toFixed(1)} ns/frame${ratio}${speedup}`;
    });
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
}

/** The printed lines of the whole-process comparison. */
export async function cliSection(cfg: CliBenchConfig): Promise<string[]> {
  if (!hasGnuTime()) return ["CLI whole process: skipped, /usr/bin/time (GNU time) is missing"];
  const xxh = await loadXxh3();
  const lines = [
    "",
    `CLI whole process on a ${cfg.mib} MiB segment file in /tmp (GNU time: wall s, CPU s of every thread, peak RSS), runs interleaved, median of ${cfg.runs}:`,
  ];
  for (const payload of cfg.sizes) {
    const plan = planSegment(payload, cfg.mib * MiB);
    const dir = mkdtempSync(join(tmpdir(), "iggy-bench-cli-"));
    const file = join(dir, "segment.bin");
    try {
      writeSegmentFile(xxh, plan, file);
      const variants: Array<{ name: string; cmd: string; args: string[]; env?: NodeJS.ProcessEnv }> = [];
      if (cfg.native) variants.push({ name: "C verifier (verify.c, 4 MiB reads)", cmd: cfg.native, args: [file] });
      variants.push({ name: "iggy-batch --help (start-up alone: the prebuilt bundle, or tsx when it is stale)", cmd: process.execPath, args: [BIN, "--help"] });
      variants.push({ name: "iggy-batch inspect FILE (default threads)", cmd: process.execPath, args: [BIN, "inspect", file] });
      variants.push({
        name: "iggy-batch inspect FILE, IGGY_BATCH_THREADS=2",
        cmd: process.execPath,
        args: [BIN, "inspect", file],
        env: { ...process.env, IGGY_BATCH_THREADS: "2" },
      });
      // Issue #27's target row: the JSON without frames, on every core.
      variants.push({ name: "iggy-batch inspect FILE --json --no-frames", cmd: process.execPath, args: [BIN, "inspect", file, "--json", "--no-frames"] });
      variants.push({
        name: "iggy-batch inspect FILE --json --no-frames, 1 thread",
        cmd: process.execPath,
        args: [BIN, "inspect", file, "--json", "--no-frames"],
        env: { ...process.env, IGGY_BATCH_THREADS: "1" },
      });
      // Timed every run, interleaved with the rows above, so before/after ratios hold on a shared machine.
      if (cfg.baselineBin) variants.push({ name: `baseline ${cfg.baselineBin} inspect FILE`, cmd: process.execPath, args: [cfg.baselineBin, "inspect", file] });
      const times = variants.map(() => [] as number[]);
      const rss = variants.map(() => [] as number[]);
      const cpu = variants.map(() => [] as number[]);
      for (let r = 0; r < cfg.runs; r++) {
        for (const [i, v] of variants.entries()) {
          const t = timeProcess(v.cmd, v.args, v.env);
          if (t.status !== 0) throw new Error(`${v.name} exited ${t.status} on a valid segment`);
          times[i]!.push(t.seconds);
          rss[i]!.push(t.maxRssKiB);
          cpu[i]!.push(t.cpuSeconds);
        }
      }
      const c = cfg.native ? median(times[0]!) : null;
      lines.push(
        `  ${label(payload)} payloads: ${plan.batches.toLocaleString("en-US")} batches, ${plan.frames.toLocaleString("en-US")} frames, ${(plan.totalBytes / MiB).toFixed(0)} MiB`,
      );
      const startup = median(times[cfg.native ? 1 : 0]!);
      for (const [i, v] of variants.entries()) {
        const t = median(times[i]!);
        const net = v.args.includes("inspect") && !v.name.startsWith("baseline") ? `, ${((t - startup) / (c ?? 1)).toFixed(2)}x net of start-up` : "";
        const ratio = c && i > 0 ? ` = ${(t / c).toFixed(2)}x C${net}` : "";
        lines.push(
          `    ${v.name.padEnd(56)} ${t.toFixed(2)} s (${times[i]!.map((x) => x.toFixed(2)).join(", ")}), CPU ${median(cpu[i]!).toFixed(2)} s, peak RSS ${(median(rss[i]!) / 1024).toFixed(0)} MiB${ratio}`,
        );
      }
      for (const line of await warmPoolLines(file, plan.frames, cfg.runs, c)) lines.push(line);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  lines.push(
    "  targets (issue #27): inspect --json --no-frames ≤ 1.5x C at 100 B, ≤ 1.0x at 1 KiB; peak RSS ≤ 64 MiB",
    "  (\"net of start-up\" subtracts the --help row: the decode alone, without Node's and the bundle's start)",
  );
  return lines;
}
