/**
 * How `inspect DIR` scales with the number of segments: makes N small chained segments (one batch of one
 * message each) in a temporary directory and times `iggy-batch inspect DIR` in text and with --json.
 * Usage: node bin/run-ts.mjs scripts/bench-partition.ts [N ...]   (default 1000 2500 5000)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { encodeBatch, stampBatch } from "../src/core/walk/encode.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";

const BIN = new URL("../bin/iggy-batch.mjs", import.meta.url).pathname;
const counts = process.argv.slice(2).map(Number);
const xxh = await loadXxh3();

/** N segments 00000000000000000000.log, 00000000000000000001.log, … each one stamped batch whose base_offset is its name. */
function makePartition(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), `iggy-batch-${n}-segments-`));
  const batch = encodeBatch(xxh, { originTimestamp: 1n, messages: [{ payload: "hello" }] });
  for (let i = 0; i < n; i++) {
    const stamped = stampBatch(xxh, batch, { partitionId: 1n, baseOffset: BigInt(i), baseTimestamp: 1_700_000_000_000_000n + BigInt(i) });
    writeFileSync(join(dir, `${String(i).padStart(20, "0")}.log`), stamped);
  }
  return dir;
}

function time(args: string[]): { ms: number; status: number | null } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "inherit"], maxBuffer: 1 << 30 });
  return { ms: performance.now() - t0, status: r.status };
}

console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
for (const n of counts.length ? counts : [1000, 2500, 5000]) {
  const dir = makePartition(n);
  try {
    const text = time(["inspect", dir]);
    const json = time(["inspect", dir, "--json"]);
    console.log(
      `${String(n).padStart(6)} segments: text ${(text.ms / 1000).toFixed(2)} s (exit ${text.status}), --json ${(json.ms / 1000).toFixed(2)} s (exit ${json.status})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
