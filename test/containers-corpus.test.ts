/**
 * The container corpus (test/fixtures/corpus-containers, a copy of shared/corpus-containers) through the
 * REAL command line: both check.py scripts, each vector auto-detected as its kind, each partition's
 * files, errors and recovery verdicts; and auto-detect never turns a plain batch of the batch corpus into anything else.
 */
import { execFile, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { detectFormat } from "../src/core/containers/index.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = join(ROOT, "test/fixtures/corpus-containers");
const BATCH_CORPUS = join(ROOT, "test/fixtures/corpus");
const BIN = join(ROOT, "bin/iggy-batch.mjs");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
function run(cmd: string, args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd: ROOT, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      done({ code: err ? (typeof err.code === "number" ? err.code : null) : 0, stdout, stderr });
    });
  });
}
const inspect = (path: string, ...args: string[]) => run(process.execPath, [BIN, "inspect", path, "--json", ...args]);

const havePython = (() => {
  const p = spawnSync("python3", ["--version"]);
  return !p.error && p.status === 0;
})();
const cmd = `"${process.execPath}" "${BIN}"`;

describe("check.py of the container corpus against the real CLI", () => {
  for (const set of ["vectors", "partitions"]) {
    it.skipIf(!havePython)(
      `${set}: N passed, 0 failed`,
      async () => {
        const r = await run("python3", [join(CORPUS, set, "check.py"), join(CORPUS, set), "--cmd", cmd]);
        const last = r.stdout.trim().split("\n").pop() ?? "";
        expect(last, r.stdout).toMatch(/^\d+ passed, 0 failed$/);
        expect(Number(last.split(" ")[0])).toBeGreaterThan(0);
      },
      120_000,
    );
  }
});

const KIND_FORMAT: Record<string, string> = { batches: "batches", "poll-reply": "poll-reply", "send-messages-body": "send-messages" };
const vectors = JSON.parse(readFileSync(join(CORPUS, "vectors/manifest.json"), "utf8")) as {
  cases: Array<{ file: string; kind: string; batches: Array<{ start: number }> }>;
};

describe("container vectors, auto-detected", () => {
  for (const c of vectors.cases) {
    it(`${c.file} is ${KIND_FORMAT[c.kind]} with no flag, batches where the manifest says, no errors`, async () => {
      const r = await inspect(join(CORPUS, "vectors", c.file));
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.format).toBe(KIND_FORMAT[c.kind]);
      expect(doc.detectedBy).toMatch(/^auto: /);
      expect(doc.batches.map((b: { start: number }) => b.start)).toEqual(c.batches.map((b) => b.start));
      expect(doc.diagnostics.filter((d: { severity: string }) => d.severity !== "info")).toEqual([]);
      if (c.kind !== "batches") expect(doc.container.fields.length).toBeGreaterThan(0);
    });
  }
});

interface PartitionCase {
  dir: string;
  exit: number;
  files: Record<string, number>;
  errors: Array<{ code: string; file: string; start?: number; end?: number }>;
}
const partitions = JSON.parse(readFileSync(join(CORPUS, "partitions/manifest.json"), "utf8")) as { cases: PartitionCase[] };

describe("partition directories through inspect DIR", () => {
  for (const c of partitions.cases) {
    it(`${c.dir}: every file listed with its size, each error in its file, the verdict and exit ${c.exit}`, async () => {
      const r = await inspect(join(CORPUS, "partitions", c.dir));
      expect(r.code).toBe(c.exit);
      const doc = JSON.parse(r.stdout);
      expect(doc.format).toBe("partition");
      expect(Object.fromEntries(doc.files.map((f: { name: string; input: { size: number } }) => [f.name, f.input.size]))).toEqual(c.files);
      const sum = { batches: 0, frames: 0, errors: 0, warnings: 0, infos: 0 };
      for (const f of doc.files) for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += f.summary[k];
      expect(doc.summary).toEqual(sum);
      for (const d of doc.diagnostics) expect(Object.keys(c.files)).toContain(d.file);
      for (const e of c.errors) {
        const hit = doc.diagnostics.find(
          (d: { code: string; file: string; start: number; end: number }) =>
            d.code === e.code && d.file === e.file && (e.start === undefined || (d.start === e.start && d.end === e.end)),
        );
        expect(hit, `${e.code} in ${e.file}`).toBeTruthy();
        // The per-file document holds the same finding.
        expect(doc.files.find((f: { name: string }) => f.name === e.file).diagnostics.some((d: { code: string }) => d.code === e.code)).toBe(true);
      }
      for (const f of doc.files) {
        if (f.name.endsWith(".log")) expect(f.recovery).toMatchObject({ path: expect.stringMatching(/^(index|scan)$/) });
        if (f.name.endsWith(".index")) expect(f.entries).toHaveLength(Math.floor(f.input.size / 24));
      }
      expect(doc.partition.verdict).toBe(c.dir === "chain-gap" || c.dir === "empty-middle" ? "refused" : "ok");
    });
  }

  it("torn-tail: the last segment's recovery keeps 400 of 500 bytes and says why", async () => {
    const doc = JSON.parse((await inspect(join(CORPUS, "partitions/torn-tail"))).stdout);
    const last = doc.files.find((f: { name: string }) => f.name === "00000000000000001973.log");
    expect(last.recovery).toMatchObject({ path: "scan", keptBytes: 400, keptMessages: 2, stopsAt: 400, reason: "header-truncated" });
    expect(
      doc.diagnostics.some(
        (d: { code: string; file: string; start: number; end: number }) =>
          d.code === "recovery-stops" && d.file === last.name && d.start === 400 && d.end === 500,
      ),
    ).toBe(true);
  });

  it("segment-gap: scan recovery stops at the batch that breaks the chain", async () => {
    const doc = JSON.parse((await inspect(join(CORPUS, "partitions/segment-gap"))).stdout);
    expect(doc.files[0].recovery).toMatchObject({ path: "scan", stopsAt: 1016, keptBytes: 1016, reason: "segment-offset-gap" });
  });

  it("healthy: each segment takes the index path and keeps the whole file", async () => {
    const doc = JSON.parse((await inspect(join(CORPUS, "partitions/healthy"))).stdout);
    for (const f of doc.files.filter((x: { name: string }) => x.name.endsWith(".log")))
      expect(f.recovery).toMatchObject({ path: "index", keptBytes: f.input.size, stopsAt: null, reason: null });
    expect(doc.partition.segments.map((s: { startOffset: string; lastOffset: string }) => [s.startOffset, s.lastOffset])).toEqual([
      ["1949", "1962"],
      ["1963", "1972"],
      ["1973", "1974"],
    ]);
  });

  it("the human output names the partition format, each file's format, and the verdict", async () => {
    const r = await run(process.execPath, [BIN, "inspect", join(CORPUS, "partitions/chain-gap")]);
    expect(r.stdout).toMatch(/^.*chain-gap: format: Partition directory \[partition\]/);
    expect(r.stdout).toContain("format: Segment file (.log) [segment] (auto: the file name ends in .log");
    expect(r.stdout).toContain("format: Index file (.index) [index]");
    expect(r.stdout).toMatch(/verdict: server refuses it at boot \(00000000000000001965\.log starts at 1965 .*\); findings: 1 error, 0 warnings/);
  });
});

describe("auto-detect on the batch corpus", () => {
  for (const file of readdirSync(BATCH_CORPUS).filter((f) => f.endsWith(".bin"))) {
    it(`${file} stays batches`, () => {
      const bytes = new Uint8Array(readFileSync(join(BATCH_CORPUS, file)));
      const d = detectFormat(bytes, file);
      expect(d).toMatchObject({ format: "batches", recognized: true });
    });
  }
});
