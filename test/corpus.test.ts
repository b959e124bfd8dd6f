/**
 * The independent corpus (test/fixtures/corpus, a copy of shared/corpus) run through
 * the REAL command line, `node bin/iggy-batch.mjs inspect FILE --json`, judged the way
 * check.py judges it; and check.py itself run once against the same command.
 */
import { execFile, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { SEVERITY_OF } from "../src/format/diagnostics.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = join(ROOT, "test/fixtures/corpus");
const BIN = join(ROOT, "bin/iggy-batch.mjs");

interface Expect {
  code: string;
  severity: string;
  at: number;
}
interface ManifestFrame {
  index: number;
  start: number;
  end: number;
  id: string;
  offsetDelta: number;
  timestampDelta: number;
  payloadLength: number;
  userHeadersLength: number;
  checksum: string;
  computedChecksum: string;
}
interface ManifestBatch {
  start: number;
  stamped?: boolean;
  header?: Record<string, string | number>;
  computedChecksum?: string | null;
  truncatedFrameStart?: number;
  frames: ManifestFrame[];
}
interface Case {
  file: string;
  size: number;
  exit: 0 | 1;
  batches: number;
  frames: number;
  expect: Expect[];
  allow?: string[];
  batchList: ManifestBatch[];
}
interface Manifest {
  format: string;
  severities: Record<string, string>;
  cases: Case[];
}

const manifest = JSON.parse(readFileSync(join(CORPUS, "manifest.json"), "utf8")) as Manifest;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(file: string): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, "inspect", join(CORPUS, file), "--json"], { cwd: ROOT, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : null) : 0;
      done({ code, stdout, stderr });
    });
  });
}

/** Runs tasks with at most `limit` in flight. */
async function pool<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Each expected {code, at} needs its own diagnostic of that code covering `at` (bipartite matching, as check.py does). */
function matchExpect(expect: readonly Expect[], diags: readonly Json[]): { missing: Expect[]; matched: Map<number, number> } {
  const cands = expect.map((e) => diags.flatMap((d, i) => (d.code === e.code && d.start <= e.at && e.at < d.end ? [i] : [])));
  const owner = new Map<number, number>(); // diagnostic → expected
  const take = (ei: number, seen: Set<number>): boolean => {
    for (const di of cands[ei] as number[]) {
      if (seen.has(di)) continue;
      seen.add(di);
      if (!owner.has(di) || take(owner.get(di) as number, seen)) {
        owner.set(di, ei);
        return true;
      }
    }
    return false;
  };
  const missing = expect.filter((_, ei) => !take(ei, new Set()));
  const matched = new Map<number, number>();
  for (const [di, ei] of owner) matched.set(ei, di);
  return { missing, matched };
}

describe("corpus manifest", () => {
  it("is format 2 with the spec's severity table, and every case file is present", () => {
    expect(manifest.format).toBe("iggy-batch-corpus/2");
    // The batch codes keep the spec's severities; container codes (containers.md) come on top.
    for (const [code, severity] of Object.entries(manifest.severities)) expect(SEVERITY_OF[code as keyof typeof SEVERITY_OF]).toBe(severity);
    expect(manifest.cases).toHaveLength(26);
    for (const c of manifest.cases) expect(readFileSync(join(CORPUS, c.file)).length).toBe(c.size);
  });
});

describe("iggy-batch inspect --json on the corpus", () => {
  const runs = new Map<string, Run>();
  beforeAll(async () => {
    const results = await pool(manifest.cases, Math.min(6, Math.max(2, availableParallelism())), (c) => runCli(c.file));
    manifest.cases.forEach((c, i) => runs.set(c.file, results[i] as Run));
  }, 120_000);

  it.each(manifest.cases.map((c) => [c.file, c] as const))("%s", (_file, c) => {
    const run = runs.get(c.file) as Run;
    const out: Json = JSON.parse(run.stdout);
    const diags: Json[] = out.diagnostics;
    const allow = new Set(c.allow ?? []);

    // input and diagnostics: well-formed, severities per the spec, ranges inside the input
    expect(out.input.size).toBe(c.size);
    for (const d of diags) {
      expect(d.severity, d.code).toBe(manifest.severities[d.code]);
      expect(Number.isInteger(d.start) && Number.isInteger(d.end)).toBe(true);
      expect(0 <= d.start && d.start <= d.end && d.end <= c.size, `${d.code} [${d.start},${d.end})`).toBe(true);
    }

    // codes: nothing outside expect ∪ allow; an expected, not-allowed code no more often than expected
    const expectedCodes = new Set(c.expect.map((e) => e.code));
    const unexpected = diags.filter((d) => !expectedCodes.has(d.code) && !allow.has(d.code)).map((d) => `${d.code}@${d.start}`);
    expect(unexpected).toEqual([]);
    for (const code of expectedCodes) {
      if (allow.has(code)) continue;
      expect(diags.filter((d) => d.code === code).length, code).toBeLessThanOrEqual(c.expect.filter((e) => e.code === code).length);
    }
    const { missing, matched } = matchExpect(c.expect, diags);
    expect(missing.map((e) => `${e.code}@${e.at}`)).toEqual([]);
    for (const [ei, di] of matched) expect(diags[di].severity).toBe(c.expect[ei]?.severity);

    // exit status and summary
    const errors = diags.filter((d) => d.severity === "error").length;
    const warnings = diags.filter((d) => d.severity === "warning").length;
    const infos = diags.filter((d) => d.severity === "info").length;
    const allowedError = diags.some((d) => allow.has(d.code) && d.severity === "error");
    expect(run.code).toBe(c.exit === 1 || allowedError ? 1 : 0);
    expect(run.code).toBe(errors > 0 ? 1 : 0);
    expect(run.stderr).toBe("");
    expect(out.summary).toEqual({ batches: c.batches, frames: c.frames, errors, warnings, infos });
    expect(out.batches).toHaveLength(c.batches);

    // batches and frames
    let complete = 0;
    c.batchList.forEach((mb, i) => {
      const ob = out.batches[i];
      expect(ob.index).toBe(i);
      expect(ob.start).toBe(mb.start);
      expect(ob.start <= ob.end && ob.end <= c.size).toBe(true);
      if (mb.stamped !== undefined) expect(ob.stamped).toBe(mb.stamped);
      if (mb.header) expect(ob.header).toEqual(mb.header);
      if ("computedChecksum" in mb) expect(ob.computedChecksum).toBe(mb.computedChecksum);
      expect(Array.isArray(ob.frames)).toBe(true);
      const frames: Json[] = ob.frames;
      const comp = frames.filter((f, j) => {
        if (f.computedChecksum !== null) return true;
        expect(j, "a truncated frame is listed last").toBe(frames.length - 1);
        expect(mb.truncatedFrameStart, "a truncated frame is listed only where one is expected").toBeDefined();
        expect(f.start).toBe(mb.truncatedFrameStart);
        return false;
      });
      complete += comp.length;
      expect(comp).toEqual(mb.frames);
    });
    expect(complete).toBe(c.frames);
  });
});

const python = spawnSync("python3", ["--version"], { encoding: "utf8" });
const havePython = !python.error && python.status === 0;

/** Runs a command to completion, collecting its output (asynchronously, so it overlaps the per-file runs above). */
function run(cmd: string, args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd: ROOT, maxBuffer: 16 << 20, timeout: 150_000 }, (err, stdout, stderr) => {
      done({ code: err ? (typeof err.code === "number" ? err.code : null) : 0, stdout, stderr });
    });
  });
}

// Started when the file loads: check.py runs its 26 cases one after another while the per-file tests run theirs.
const checkPy = havePython ? run("python3", [join(CORPUS, "check.py"), CORPUS, "--cmd", `"${process.execPath}" "${BIN}" inspect`]) : null;

describe("check.py against the real CLI", () => {
  it.skipIf(!havePython)(
    havePython ? "passes all 26 cases" : "passes all 26 cases (SKIPPED: python3 is not installed)",
    async () => {
      const result = (await checkPy) as Run;
      const lines = result.stdout.trim().split("\n");
      expect(lines.slice(0, -1)).toEqual([]); // no FAIL lines
      expect(lines.at(-1)).toBe("26 passed, 0 failed");
      expect(result.code).toBe(0);
    },
    150_000,
  );

  it.skipIf(!havePython)("self-test: the fixture copy matches its manifest (sizes, sha256, field values)", async () => {
    const result = await run("python3", [join(CORPUS, "check.py"), CORPUS, "--self-test"]);
    expect(result.stdout.trim().split("\n").at(-1)).toBe("26 passed, 0 failed");
    expect(result.code).toBe(0);
  });
});
