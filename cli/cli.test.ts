/**
 * `iggy-batch inspect` as a user runs it: the real bin/iggy-batch.mjs in a child process
 * (contracts.md §1): exit statuses, stdout/stderr discipline, stdin, --no-frames and the
 * human report. Every run starts up front, a few at a time, so the file stays quick.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliRun as Run } from "./spawn-cli.test-util.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = join(ROOT, "test/fixtures/corpus");
const VALID = join(CORPUS, "04-segment-5-stamped.bin"); // 5 stamped batches, no findings
const BROKEN = join(CORPUS, "19-segment-4-batch2-bad-frame.bin"); // 4 batches, one frame-checksum-mismatch
const WARN = join(CORPUS, "14-offset-delta-not-index.bin"); // a warning only

const cli = runCli;

const tmp = mkdtempSync(join(tmpdir(), "iggy-batch-cli-"));
const EMPTY = join(tmp, "empty.bin");
writeFileSync(EMPTY, new Uint8Array(0));

const RUNS = {
  valid: ["inspect", VALID, "--json"],
  validText: ["inspect", VALID],
  broken: ["inspect", BROKEN, "--json"],
  brokenText: ["inspect", BROKEN],
  warn: ["inspect", WARN, "--json"],
  noFrames: ["inspect", "--no-frames", BROKEN, "--json"],
  empty: ["inspect", EMPTY, "--json"],
  missing: ["inspect", join(tmp, "no-such-file.bin"), "--json"],
  missingText: ["inspect", join(tmp, "no-such-file.bin")],
  directory: ["inspect", tmp, "--json"],
  unknownOption: ["inspect", VALID, "--json", "--bogus"],
  twoFiles: ["inspect", VALID, BROKEN, "--json"],
  noFile: ["inspect", "--json"],
  unknownCommand: ["frobnicate", VALID],
  nothing: [],
} satisfies Record<string, string[]>;

const runs = {} as Record<keyof typeof RUNS | "stdin" | "stdinText", Run>;

beforeAll(async () => {
  const jobs: Array<[keyof typeof runs, () => Promise<Run>]> = [
    ...Object.entries(RUNS).map(([k, args]) => [k as keyof typeof runs, () => cli(args)] as [keyof typeof runs, () => Promise<Run>]),
    ["stdin", () => cli(["inspect", "-", "--json"], readFileSync(BROKEN))],
    ["stdinText", () => cli(["inspect", "-"], readFileSync(VALID))],
  ];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const [key, job] = jobs[next++] as [keyof typeof runs, () => Promise<Run>];
      runs[key] = await job();
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}, 120_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("exit status", () => {
  it("is 0 without errors (warnings allowed), 1 with an error", () => {
    expect(runs.valid.code).toBe(0);
    expect(JSON.parse(runs.valid.stdout).summary).toMatchObject({ batches: 5, errors: 0, warnings: 0 });
    expect(runs.warn.code).toBe(0);
    expect(JSON.parse(runs.warn.stdout).summary).toMatchObject({ errors: 0, warnings: 1 });
    expect(runs.broken.code).toBe(1);
    expect(JSON.parse(runs.broken.stdout).summary).toMatchObject({ batches: 4, errors: 1 });
    expect(runs.brokenText.code).toBe(1);
    expect(runs.validText.code).toBe(0);
    for (const r of [runs.valid, runs.warn, runs.broken, runs.validText, runs.brokenText]) expect(r.stderr).toBe("");
  });

  it("reads a directory as a partition (contracts.md §1.1): one JSON document with files[], exit 0 with no segments", () => {
    expect(runs.directory.code).toBe(0);
    const doc = JSON.parse(runs.directory.stdout);
    expect(doc.format).toBe("partition");
    // The temporary directory holds only empty.bin: listed and skipped as foreign.
    expect(doc.files).toEqual([
      { name: "empty.bin", size: 0, skipped: "its name is not a segment's or an index's: digits, then .log or .index (as 00000000000000000000.log)" },
    ]);
    expect(doc.partition.verdict).toBe("ok");
  });

  it("is 0 for an empty file: no batches, no diagnostics", () => {
    expect(runs.empty.code).toBe(0);
    const doc = JSON.parse(runs.empty.stdout);
    expect(doc).toEqual({
      format: "batches",
      detectedBy: expect.stringContaining("shorter than a batch header"),
      input: { name: "empty.bin", size: 0 },
      summary: { batches: 0, frames: 0, errors: 0, warnings: 0, infos: 0 },
      batches: [],
      diagnostics: [],
      container: null,
      recovery: null,
    });
  });

  it.each([
    ["a missing file", "missing", /cannot read .*no-such-file\.bin/],
    ["a missing file (human output)", "missingText", /cannot read .*no-such-file\.bin/],
    ["an unknown option", "unknownOption", /unknown option --bogus/],
    ["two files", "twoFiles", /exactly one/],
    ["no file", "noFile", /exactly one/],
    ["an unknown command", "unknownCommand", /unknown command frobnicate/],
    ["no arguments", "nothing", /usage/],
  ] as const)("is 2 for %s, with a message on stderr and nothing on stdout", (_what, key, message) => {
    const r = runs[key];
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
  });
});

describe("--json", () => {
  it("prints exactly one JSON document with the contract's shape", () => {
    const doc = JSON.parse(runs.broken.stdout);
    // contracts.md §1 keys, plus §1.1's format, detectedBy, container and recovery.
    expect(Object.keys(doc).sort()).toEqual(["batches", "container", "detectedBy", "diagnostics", "format", "input", "recovery", "summary"]);
    expect(doc.format).toBe("batches");
    expect(doc.input).toEqual({ name: "19-segment-4-batch2-bad-frame.bin", size: readFileSync(BROKEN).length });
    const b = doc.batches[1];
    expect(Object.keys(b).sort()).toEqual(["computedChecksum", "end", "frames", "header", "index", "stamped", "start"]);
    expect(Object.keys(b.header).sort()).toEqual([
      "baseOffset",
      "baseTimestamp",
      "batchChecksum",
      "batchLength",
      "messageCount",
      "originTimestamp",
      "partitionId",
    ]);
    for (const k of ["partitionId", "baseOffset", "baseTimestamp", "originTimestamp", "batchLength"]) expect(b.header[k]).toMatch(/^\d+$/);
    expect(b.header.batchChecksum).toMatch(/^[0-9a-f]{16}$/);
    expect(Object.keys(b.frames[0]).sort()).toEqual([
      "checksum",
      "computedChecksum",
      "end",
      "id",
      "index",
      "offsetDelta",
      "payloadLength",
      "start",
      "timestampDelta",
      "userHeadersLength",
    ]);
    expect(b.frames[0].id).toMatch(/^[0-9a-f]{32}$/);
    expect(doc.diagnostics).toHaveLength(1);
    expect(Object.keys(doc.diagnostics[0]).sort()).toEqual(["batch", "code", "end", "frame", "message", "severity", "start"]);
    expect(doc.diagnostics[0]).toMatchObject({ code: "frame-checksum-mismatch", severity: "error", batch: 1, frame: 0 });
  });

  it("--no-frames leaves out every batch's frames and nothing else", () => {
    const full = JSON.parse(runs.broken.stdout);
    const lean = JSON.parse(runs.noFrames.stdout);
    expect(runs.noFrames.code).toBe(1);
    expect(lean.batches).toHaveLength(4);
    for (const b of lean.batches) expect(b).not.toHaveProperty("frames");
    for (const b of full.batches) delete b.frames;
    expect(lean).toEqual(full);
  });

  it("reads standard input for -, named -", () => {
    expect(runs.stdin.code).toBe(1);
    expect(runs.stdin.stderr).toBe("");
    const fromStdin = JSON.parse(runs.stdin.stdout);
    const fromFile = JSON.parse(runs.broken.stdout);
    expect(fromStdin.input).toEqual({ name: "-", size: fromFile.input.size });
    expect({ ...fromStdin, input: null }).toEqual({ ...fromFile, input: null });
  });
});

describe("human output", () => {
  const hex = (n: number): string => "0x" + n.toString(16).padStart(8, "0");

  it("lists one line per batch, with its start in hex and its verdict", () => {
    const doc = JSON.parse(runs.broken.stdout);
    const lines = runs.brokenText.stdout.split("\n");
    const rows = lines.filter((l) => /^\s*\d+\s+0x[0-9a-f]{8}\s/.test(l));
    expect(rows).toHaveLength(doc.batches.length);
    rows.forEach((row, i) => {
      const b = doc.batches[i];
      const cells = row.trim().split(/\s+/);
      expect(cells[0]).toBe(String(i));
      expect(cells[1]).toBe(hex(b.start));
      expect(cells).toContain(String(b.end - b.start));
      expect(cells).toContain(b.header.batchChecksum);
      expect(row).toMatch(i === 1 ? /FAIL/ : /ok$/);
    });
    expect(lines[0]).toMatch(/^format: Batches \[batches\] \(auto: 4 batch headers step by batch_length/);
    expect(lines[1]).toMatch(/^19-segment-4-batch2-bad-frame\.bin: 2493 bytes · 4 batches · 12 frames · 1 error · 0 warnings/);
    expect(runs.brokenText.stdout).toMatch(/verdict: FAIL/);
  });

  it("lists each diagnostic with its severity, hex byte range and code", () => {
    const doc = JSON.parse(runs.broken.stdout);
    const d = doc.diagnostics[0];
    const line = runs.brokenText.stdout.split("\n").find((l) => l.includes(d.code));
    expect(line).toBeDefined();
    expect(line).toContain("error");
    expect(line).toContain(`${hex(d.start)}..${hex(d.end)}`);
  });

  it("has no diagnostics section and an ok verdict for a clean segment, from stdin too", () => {
    const rows = runs.validText.stdout.split("\n").filter((l) => /^\s*\d+\s+0x[0-9a-f]{8}\s/.test(l));
    expect(rows).toHaveLength(5);
    expect(runs.validText.stdout).not.toMatch(/diagnostics:/);
    expect(runs.validText.stdout).toMatch(/verdict: ok/);
    expect(runs.stdinText.code).toBe(0);
    expect(runs.stdinText.stdout.replace("\n-: ", "\n04-segment-5-stamped.bin: ")).toBe(runs.validText.stdout);
  });
});
