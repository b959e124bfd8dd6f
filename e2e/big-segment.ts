/**
 * Large segment files for the browser tests, built in Node with the project's encoder
 * (scripts/bench/segment.ts) and cached in the OS temp dir, so a re-run does not rebuild them.
 */
import { existsSync, statSync, writeFileSync } from "node:fs";
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
