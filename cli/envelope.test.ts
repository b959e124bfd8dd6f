/** `--envelope`: a poll reply's 16-byte prefix and a replicated record's 256-byte consensus header are stepped over. */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const BIN = new URL("../bin/iggy-batch.mjs", import.meta.url).pathname;
const SEGMENT = new URL("../test/fixtures/corpus/04-segment-5-stamped.bin", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "iggy-envelope-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ONE = new URL("../test/fixtures/corpus/02-valid-stamped-3frames-userheaders.bin", import.meta.url).pathname;

// The envelopes as the server writes them: a poll reply prefix that agrees with its records, a prepare header that frames its one batch.
function withPrefix(id: "poll-reply" | "replicated-record"): { file: string; source: string; skip: number } {
  const source = id === "poll-reply" ? SEGMENT : ONE;
  const body = readFileSync(source);
  const v = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let prefix: Buffer;
  if (id === "poll-reply") {
    let count = 0;
    for (let p = 0; p < body.length; p += Number(v.getBigUint64(p + 32, true))) count += v.getUint32(p + 48, true);
    prefix = Buffer.alloc(16);
    prefix.writeUInt32LE(Number(v.getBigUint64(0, true)), 0);
    prefix.writeUInt32LE(count, 12);
  } else {
    prefix = Buffer.alloc(256);
    prefix.writeUInt32LE(256 + body.length, 48);
    prefix[60] = 6;
    prefix.writeBigUInt64LE(v.getBigUint64(16, true), 192);
  }
  const file = join(dir, `prefixed-${id}.bin`);
  writeFileSync(file, Buffer.concat([prefix, body]));
  return { file, source, skip: prefix.length };
}
const inspect = (args: string[]) => spawnSync(process.execPath, [BIN, "inspect", ...args, "--json"], { encoding: "utf8" });

describe("iggy-batch --envelope (an alias of --format since containers.md)", () => {
  for (const [id, format] of [
    ["poll-reply", "poll-reply"],
    ["replicated-record", "prepare"],
  ] as const) {
    const { file, source, skip } = withPrefix(id);
    const plain = JSON.parse(execFileSync(process.execPath, [BIN, "inspect", source, "--json"], { encoding: "utf8" }));
    it(`${id}: the batches after ${skip} bytes decode as they do alone, at offsets shifted by ${skip}`, () => {
      const run = inspect([file, "--envelope", id]);
      expect(run.status).toBe(0);
      const doc = JSON.parse(run.stdout);
      expect(doc.format).toBe(format);
      expect(doc.summary).toEqual(plain.summary);
      expect(doc.batches.map((b: { start: number }) => b.start)).toEqual(plain.batches.map((b: { start: number }) => b.start + skip));
      expect(doc.batches.map((b: { header: unknown }) => b.header)).toEqual(plain.batches.map((b: { header: unknown }) => b.header));
      // The alias and auto-detect agree with --format.
      expect(JSON.parse(inspect([file, "--format", format]).stdout).batches).toEqual(doc.batches);
      expect(JSON.parse(inspect([file]).stdout).format).toBe(format);
    });
  }

  it("an unknown envelope is a usage error with nothing on stdout", () => {
    const run = inspect([SEGMENT, "--envelope", "udp"]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("--envelope takes none, poll-reply, replicated-record");
  });
});
