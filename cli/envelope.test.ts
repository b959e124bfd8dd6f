/** `--envelope`: a poll reply's 16-byte prefix and a replicated record's 256-byte consensus header are stepped over. */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const BIN = new URL("../bin/iggy-batch.mjs", import.meta.url).pathname;
const SEGMENT = new URL("../test/fixtures/corpus/04-segment-5-stamped.bin", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "iggy-envelope-"));

function withPrefix(prefixLength: number): string {
  const prefix = new Uint8Array(prefixLength).fill(0x5a);
  const file = join(dir, `prefixed-${prefixLength}.bin`);
  writeFileSync(file, Buffer.concat([prefix, readFileSync(SEGMENT)]));
  return file;
}
const inspect = (args: string[]) => spawnSync(process.execPath, [BIN, "inspect", ...args, "--json"], { encoding: "utf8" });

describe("iggy-batch --envelope", () => {
  const plain = JSON.parse(execFileSync(process.execPath, [BIN, "inspect", SEGMENT, "--json"], { encoding: "utf8" }));

  for (const [id, skip] of [["poll-reply", 16], ["replicated-record", 256]] as const) {
    it(`${id}: the batches after ${skip} bytes decode as they do alone, at offsets shifted by ${skip}`, () => {
      const file = withPrefix(skip);
      expect(inspect([file]).status).toBe(1);
      const run = inspect([file, "--envelope", id]);
      expect(run.status).toBe(0);
      const doc = JSON.parse(run.stdout);
      expect(doc.summary).toEqual(plain.summary);
      expect(doc.batches.map((b: { start: number }) => b.start)).toEqual(plain.batches.map((b: { start: number }) => b.start + skip));
      expect(doc.batches.map((b: { header: unknown }) => b.header)).toEqual(plain.batches.map((b: { header: unknown }) => b.header));
    });
  }

  it("an unknown envelope is a usage error with nothing on stdout", () => {
    const run = inspect([SEGMENT, "--envelope", "udp"]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("--envelope takes none, poll-reply, replicated-record");
  });
});
