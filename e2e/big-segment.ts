/**
 * Large segment files for the browser tests, built in Node with the project's encoder
 * (scripts/bench/segment.ts) and cached in the OS temp dir, so a re-run does not rebuild them.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { buildSegment, planSegment, type SegmentPlan } from "../scripts/bench/segment.ts";

/** A segment file of about `mib` MiB of stamped batches with 100-byte payloads, and its plan. */
export async function bigSegment(mib: number): Promise<{ file: string; plan: SegmentPlan }> {
  const plan = planSegment(100, mib << 20);
  const file = path.join(os.tmpdir(), `iggy-e2e-${mib}MiB-00000000000000000000.log`);
  if (!existsSync(file) || statSync(file).size !== plan.totalBytes) writeFileSync(file, buildSegment(await loadXxh3(), plan));
  return { file, plan };
}

/**
 * A partition folder of one segment of `batches` single-message batches (a producer that sends one
 * message at a time) and its `.index` with an entry per batch; returns the folder and the batch starts.
 */
export async function singleMessagePartition(batches: number): Promise<{ dir: string; starts: number[] }> {
  const plan = planSegment(100, batches * (256 + 48 + 100), 1);
  const dir = path.join(os.tmpdir(), `iggy-e2e-single-${batches}`);
  mkdirSync(dir, { recursive: true });
  const log = buildSegment(await loadXxh3(), plan);
  const index = new Uint8Array(plan.batches * 24);
  const view = new DataView(index.buffer);
  const starts: number[] = [];
  for (let b = 0; b < plan.batches; b++) {
    const at = b * plan.batchBytes;
    starts.push(at);
    view.setBigUint64(b * 24, new DataView(log.buffer).getBigUint64(at + 8, true), true);
    view.setBigUint64(b * 24 + 8, new DataView(log.buffer).getBigUint64(at + 16, true), true);
    view.setBigUint64(b * 24 + 16, BigInt(at), true);
  }
  writeFileSync(path.join(dir, "00000000000000000000.log"), log);
  writeFileSync(path.join(dir, "00000000000000000000.index"), index);
  return { dir, starts };
}
