/** What a page keeps of a partition's list (listedPerFile), on real partition folders of the public container corpus. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { listedPerFile, openPartition, type PartitionSource } from "./index.ts";

const PARTITIONS = path.resolve(import.meta.dirname, "../../../test/fixtures/corpus-containers/partitions");

function sources(dir: string): PartitionSource[] {
  return readdirSync(path.join(PARTITIONS, dir)).map((name) => {
    const file = path.join(PARTITIONS, dir, name);
    return { name, size: statSync(file).size, read: () => Promise.resolve(new Uint8Array(readFileSync(file))) };
  });
}

// Each of these has a file with two findings.
test.each(["index-faults", "torn-tail", "name-and-orphan"])(
  "%s: each file keeps its first findings in order, the summary still counts them all",
  async (dir) => {
    const whole = await openPartition(sources(dir));
    const files = [...new Set(whole.diagnostics.map((d) => d.file))];
    expect(whole.diagnostics.length).toBeGreaterThan(0);
    const one = listedPerFile(whole, 1);
    expect(one.diagnostics.length).toBeLessThan(whole.diagnostics.length);
    expect(one.summary).toEqual(whole.summary);
    expect(one.diagnostics).toEqual(files.map((f) => whole.diagnostics.find((d) => d.file === f)));
    // A cap no file reaches keeps the very result.
    expect(listedPerFile(whole, whole.diagnostics.length)).toBe(whole);
  },
);
