/** The container commands through the real CLI: inspect FILE per format (JSON §1.1), --format errors, report, convert. */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { CONTAINER_SAMPLES } from "../src/core/samples/container-samples.ts";

const BIN = new URL("../bin/iggy-batch.mjs", import.meta.url).pathname;
import { runCli } from "./spawn-cli.test-util.ts";
const dir = mkdtempSync(join(tmpdir(), "iggy-containers-"));
const xxh = await loadXxh3();
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });

/** Writes a sample's files into a directory of its own and returns the main file's path. */
function place(id: string): string {
  const d = join(dir, id);
  mkdirSync(d, { recursive: true });
  const files = CONTAINER_SAMPLES.find((s) => s.id === id)!.build(xxh);
  for (const f of files) writeFileSync(join(d, f.name), f.bytes);
  return join(d, files[0]!.name);
}

describe("inspect FILE on containers", () => {
  it("a segment beside its index: recovery takes the index path; the JSON carries recovery and no container", () => {
    const doc = JSON.parse(cli("inspect", place("segment"), "--json").stdout);
    expect(doc).toMatchObject({ format: "segment", container: null, recovery: { path: "index", stopsAt: null, reason: null } });
    expect(doc.detectedBy).toMatch(/file name ends in \.log; recovery reads 00000000000000001000\.index/);
  });
  it("an index file: entries as decimal strings, cross-checked against its log", () => {
    const r = cli("inspect", place("index-entry-mismatch"), "--json");
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.format).toBe("index");
    expect(doc.entries[1]).toEqual({ offset: "1003", timestamp: expect.stringMatching(/^\d+$/), position: expect.stringMatching(/^\d+$/) });
    expect(doc.diagnostics.map((d: { code: string; start: number; end: number }) => [d.code, d.start, d.end])).toEqual([["index-entry-mismatch", 24, 32]]);
  });
  it("a consensus request: container fields with name, start, end, value; the batch after the SendMessages metadata", () => {
    const doc = JSON.parse(cli("inspect", place("request"), "--json").stdout);
    expect(doc.format).toBe("request");
    expect(doc.container.fields.find((f: { name: string }) => f.name === "command")).toEqual({ name: "command", start: 60, end: 61, value: "5" });
    expect(doc.container.fields.find((f: { name: string }) => f.name === "stream_id.value")).toMatchObject({ value: '"orders"' });
    expect(doc.batches[0].start).toBe(doc.container.end);
  });
  it("--format forces a format; an unknown name is a usage error", () => {
    const file = place("poll-reply-body");
    expect(JSON.parse(cli("inspect", file, "--json", "--format", "batches").stdout).format).toBe("batches");
    const bad = cli("inspect", file, "--format", "pcap");
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toMatch(/--format takes auto, batches, segment/);
  });
  it("garbage says plainly that it does not look like any Iggy format", () => {
    const r = cli("inspect", place("format-unrecognized"));
    expect(r.status).toBe(1);
    expect(r.stdout.split("\n")[0]).toMatch(/does not look like any Iggy format/);
    expect(r.stdout.match(/^ {2}error /gm)).toHaveLength(1);
  });
});

describe("report and convert", () => {
  it("report names the format, the container fields and the recovery sentence", () => {
    const r = cli("report", place("recovery-stops"));
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("| format | Segment file (.log) (`segment`) |");
    expect(r.stdout).toMatch(/## Recovery\n\nRecovery \(scan path[^\n]*stops at byte \d+/);
    const p = cli("report", place("prepare"));
    expect(p.stdout).toMatch(/## Container fields \(prepare\)[\s\S]*\| timestamp \| 0xc0\.\.0xc8 \| \d+ \|/);
  });
  it("convert writes a valid stamped segment from a legacy dump; inspect finds it clean", () => {
    const out = join(dir, "00000000000000000700.log");
    const r = cli("convert", place("legacy-messages"), "-o", out, "--partition-id", "3");
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/wrote a \d+-byte stamped segment/);
    const doc = JSON.parse(cli("inspect", out, "--json").stdout);
    expect(doc).toMatchObject({ format: "segment", summary: { batches: 2, frames: 5, errors: 0, warnings: 0, infos: 0 } });
    expect(doc.batches.every((b: { header: { partitionId: string } }) => b.header.partitionId === "3")).toBe(true);
    expect(readFileSync(out).length).toBe(doc.input.size);
  });
  it("convert refuses what is not a legacy dump", () => {
    const r = cli("convert", place("poll-reply-body"), "-o", join(dir, "x.log"));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/convert reads legacy messages/);
  });
});

describe("auto-detect never hides a batch's errors (issue 22)", () => {
  it("a 256-byte batch with one nonzero reserved byte reads as batches: 2 errors, exit 1, as forced", () => {
    const h = new Uint8Array(256);
    new DataView(h.buffer).setBigUint64(32, 256n, true);
    h[100] = 7;
    const file = join(dir, "reserved-byte.bin");
    writeFileSync(file, h);
    const auto = cli("inspect", file, "--json");
    const forced = cli("inspect", file, "--json", "--format", "batches");
    expect(auto.status).toBe(1);
    const doc = JSON.parse(auto.stdout);
    expect(doc.format).toBe("batches");
    expect(doc.summary.errors).toBe(2);
    expect(doc.diagnostics).toEqual(JSON.parse(forced.stdout).diagnostics);
  });
});

describe("a partition directory's entries that are no regular files", () => {
  it("a FIFO and a symbolic link loop named like segments are skipped with a clear reason, under their own names", async () => {
    const dir = mkdtempSync(join(tmpdir(), "iggy-batch-notfile-"));
    try {
      execFileSync("mkfifo", [join(dir, "00000000000000000005.log")]);
      symlinkSync("00000000000000000009.index", join(dir, "00000000000000000009.index"));
      const run = await runCli(["inspect", dir, "--json"]);
      const doc = JSON.parse(run.stdout);
      const skipped = Object.fromEntries(doc.files.map((f: { name: string; skipped: string }) => [f.name, f.skipped]));
      expect(skipped["00000000000000000005.log"]).toMatch(/^a FIFO \(named pipe\), not a regular file/);
      expect(skipped["00000000000000000009.index"]).toMatch(/^a symbolic link loop/);
      const text = await runCli(["inspect", dir]);
      expect(text.stdout).toContain("00000000000000000005.log: skipped: a FIFO");
      expect(text.stdout).not.toContain("{start:020}");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
