/**
 * iggy-batch behaves like a Unix tool (issue 10): a reader that closes early, endless standard input,
 * --help/--version everywhere, -o, repeated flags, misspelled build keys and hostile file names.
 * Every case runs the real bin/iggy-batch.mjs in a child process, as a user or a script would.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { encodeBatch } from "../src/core/walk/encode.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "bin/iggy-batch.mjs");
const VALID = join(ROOT, "test/fixtures/corpus/04-segment-5-stamped.bin");
const BROKEN = join(ROOT, "test/fixtures/corpus/19-segment-4-batch2-bad-frame.bin");
const tmp = mkdtempSync(join(tmpdir(), "iggy-batch-unix-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
const cli = (args: string[], options: { input?: Uint8Array | string; env?: Record<string, string> } = {}): Run => {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: tmp,
    input: options.input ?? "",
    encoding: "utf8",
    env: { ...process.env, ...options.env },
    maxBuffer: 1 << 28,
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

// One batch of 10,000 frames whose offset deltas are all one too high: 10,000 warnings and no error,
// so the verdict is 0 and every output (JSON, text, report) is far larger than a pipe's buffer.
const xxh = await loadXxh3();
const MANY = join(tmp, "10000-warnings.bin");
writeFileSync(
  MANY,
  encodeBatch(xxh, { messages: Array.from({ length: 10_000 }, (_, i) => ({ payload: `message ${i}`, id: BigInt(i + 1), offsetDelta: i + 1 })) }),
);

/** Runs `iggy-batch ARGS | head -1` in bash; the CLI's own exit status and stderr. */
function piped(args: string[]): Promise<{ code: number; stderr: string; firstLine: string }> {
  const errFile = join(tmp, `stderr-${args.join("-").replace(/\W+/g, "_")}.txt`);
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(" ");
  return new Promise((done, fail) => {
    const child = spawn("bash", ["-c", `timeout 60 ${quoted} 2>'${errFile}' | head -1; echo "status=\${PIPESTATUS[0]}"`], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
    child.on("error", fail);
    child.on("close", () => {
      const status = /status=(\d+)\s*$/.exec(out);
      done({ code: Number(status?.[1] ?? -1), stderr: readFileSync(errFile, "utf8"), firstLine: out.split("\n")[0] ?? "" });
    });
  });
}

describe("a reader that closes the pipe early", () => {
  it("the input really is clean and its outputs are larger than a pipe's buffer", () => {
    const r = cli(["inspect", MANY, "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ frames: 10_000, errors: 0, warnings: 10_000 });
    expect(r.stdout.length).toBeGreaterThan(1 << 20);
  });

  it.each([
    ["inspect --json", ["inspect", MANY, "--json"], "{"],
    ["inspect (text)", ["inspect", MANY], "format: "],
    ["report", ["report", MANY], "# Iggy batch report"],
  ])("%s | head -1 ends quietly with the verdict's status 0", async (_what, args, first) => {
    const r = await piped(args);
    expect(r.firstLine.startsWith(first)).toBe(true);
    expect(r.stderr).toBe("");
    // 0 is the verdict; 141 would be a SIGPIPE death, which the contract also allows.
    expect([0, 141]).toContain(r.code);
  });

  it("keeps status 1 for an input with errors, still without a stack trace", async () => {
    const bad = join(tmp, "10000-warnings-one-error.bin");
    const bytes = readFileSync(MANY);
    bytes[bytes.length - 1]! ^= 0xff; // the last payload byte: one frame checksum no longer matches
    writeFileSync(bad, bytes);
    const r = await piped(["inspect", bad, "--json"]);
    expect(r.stderr).toBe("");
    expect([1, 141]).toContain(r.code);
  });
});

describe("standard input and streams are read up to the input limit", () => {
  const size = statSync(VALID).size;
  const limit = (n: number) => ({ IGGY_BATCH_MAX_INPUT_BYTES: String(n) });

  it("an input of exactly the limit is read; one byte more is refused with exit 2 and nothing on stdout", () => {
    expect(cli(["inspect", "-"], { input: readFileSync(VALID), env: limit(size) }).code).toBe(0);
    const over = cli(["inspect", "-", "--json"], { input: readFileSync(VALID), env: limit(size - 1) });
    expect(over.code).toBe(2);
    expect(over.stdout).toBe("");
    expect(over.stderr).toMatch(/standard input is larger than the \d+-byte input limit/);
  });

  it("endless standard input is refused at the limit, without reading on to the end", async () => {
    // The writer stops by itself after 256 MiB, so a CLI that reads everything fails this test instead of eating the machine.
    const cap = 256 << 20;
    const child = spawn(process.execPath, [BIN, "inspect", "-"], { env: { ...process.env, ...limit(8 << 20) } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    const exited = new Promise<number | null>((done) => child.on("close", done));
    let written = 0;
    let open = true;
    child.stdin.on("error", () => (open = false));
    child.on("exit", () => (open = false));
    const block = new Uint8Array(1 << 20);
    while (open && written < cap) {
      written += block.length;
      if (!child.stdin.write(block))
        await new Promise((go) => {
          child.stdin.once("drain", go);
          child.once("exit", go);
        });
    }
    child.stdin.end();
    expect(await exited).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/standard input is larger than the 8388608-byte input limit/);
    expect(written).toBeLessThan(cap);
  });

  it("a FIFO and a regular file over the limit are refused the same way", async () => {
    const fifo = join(tmp, "fifo");
    execFileSync("mkfifo", [fifo]);
    // Written from a stream so the FIFO ends: a CLI without the limit reads it all and fails the test, but stops.
    const writer = createWriteStream(fifo);
    writer.end(new Uint8Array((1 << 20) + 1));
    const fromFifo = await new Promise<Run>((done) => {
      const child = spawn(process.execPath, [BIN, "inspect", fifo], { env: { ...process.env, ...limit(1 << 20) } });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
      child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
      child.on("close", (code) => done({ code, stdout, stderr }));
    });
    writer.destroy();
    expect(fromFifo.code).toBe(2);
    expect(fromFifo.stderr).toMatch(/fifo is larger than the 1048576-byte input limit/);
    const file = cli(["inspect", VALID], { env: limit(size - 1) });
    expect(file.code).toBe(2);
    expect(file.stderr).toContain(`is ${size} bytes, larger than the ${size - 1}-byte input limit`);
  });
});

describe("--help, --version, -o and flag mistakes", () => {
  it.each([["--help"], ["-h"], ["help"], ["help", "inspect"], ["inspect", "--help"], ["report", "-h"], ["build", "--help"], ["inspect", VALID, "--help"]])(
    "iggy-batch %s prints help on stdout and exits 0",
    (...args) => {
      const r = cli(args);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(/^usage:/);
    },
  );

  it("a command's help lists its own options", () => {
    expect(cli(["inspect", "--help"]).stdout).toMatch(/--no-frames[\s\S]*--envelope NAME[\s\S]*-o, --out OUT/);
    expect(cli(["build", "--help"]).stdout).toMatch(/usage: iggy-batch build SPEC\.json\|- -o OUT\.bin\n/);
  });

  it.each([["--version"], ["inspect", "--version"]])("iggy-batch %s prints the version and exits 0", (...args) => {
    const r = cli(args);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(r).toEqual({ code: 0, stdout: `iggy-batch ${pkg.version}\n`, stderr: "" });
  });

  it("-o writes inspect's JSON and text and the report to the file, and nothing to stdout", () => {
    for (const [args, file] of [
      [["inspect", BROKEN, "--json"], "out.json"],
      [["inspect", BROKEN], "out.txt"],
      [["report", BROKEN], "report.md"],
    ] as const) {
      const direct = cli([...args]);
      const toFile = cli([...args, "-o", file]);
      expect(toFile).toEqual({ code: 1, stdout: "", stderr: "" });
      expect(readFileSync(join(tmp, file), "utf8")).toBe(direct.stdout);
    }
    expect(cli(["inspect", BROKEN, "--json", "--out=-"]).stdout).toBe(cli(["inspect", BROKEN, "--json"]).stdout);
  });

  it.each([
    ["--envelope twice", ["inspect", VALID, "--envelope", "none", "--envelope", "poll-reply"], /--envelope given twice/],
    ["-o and --out", ["report", VALID, "-o", "a.md", "--out", "b.md"], /--out given twice/],
    ["--json twice", ["inspect", VALID, "--json", "--json"], /--json given twice/],
    ["--no-frames without --json", ["inspect", VALID, "--no-frames"], /--no-frames only applies with --json/],
    ["-o without a value", ["inspect", VALID, "-o"], /--out needs OUT/],
    ["-o followed by an option", ["inspect", VALID, "-o", "--json"], /--out needs OUT/],
    ["build without -o", ["build", "spec.json"], /-o OUT\.bin is required/],
    ["an option of another command", ["report", VALID, "--json"], /unknown option --json for report/],
  ])("%s is a usage error: exit 2, nothing on stdout", (_what, args, message) => {
    const r = cli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
  });
});

describe("iggy-batch build refuses keys it does not know", () => {
  it.each([
    ["a misspelled batch key", { partitionID: 3, messages: [{ payload: "x" }] }, /batches\[0\]: unknown key "partitionID" \(did you mean "partitionId"\?\)/],
    ["a message key", { messages: [{ payload: "x", timestamp: 5 }] }, /batches\[0\]\.messages\[0\]: unknown key "timestamp"; expected payload, id/],
    [
      "a user header key",
      { messages: [{ payload: "x", userHeaders: [{ key: "k", kind: "string", value: "v", vlaue: "w" }] }] },
      /userHeaders\[0\]: unknown key "vlaue"/,
    ],
    ["a payload key", { messages: [{ payload: { text: "x" } }] }, /payload: unknown key "text"/],
    ["a top-level key beside batches", { batches: [], comment: "x" }, /spec: unknown key "comment"/],
  ])("%s: exit 2, the key named, nothing written", (_what, spec, message) => {
    const out = join(tmp, "never.bin");
    const r = cli(["build", "-", "-o", out], { input: JSON.stringify(spec) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(() => statSync(out)).toThrow();
  });

  it("a description with only known keys still builds", () => {
    const out = join(tmp, "ok.bin");
    const r = cli(["build", "-", "-o", out], {
      input: JSON.stringify({
        partitionId: 3,
        baseOffset: "1",
        baseTimestamp: 5,
        messages: [{ payload: { hex: "00" }, id: "auto", userHeaders: [{ key: "k", kind: "u8", value: 1 }] }],
      }),
    });
    expect(r.code).toBe(0);
    expect(cli(["inspect", out]).code).toBe(0);
  });
});

describe("text from the input is escaped", () => {
  const hostile = "evil\x1b[2J\x9b31m<img src=x onerror=alert(1)>|`x`\u202e.bin";
  const file = join(tmp, hostile);
  writeFileSync(file, readFileSync(BROKEN));

  it("for the terminal: no control character of a file name reaches stdout or stderr", () => {
    const text = cli(["inspect", file]);
    expect(text.code).toBe(1);
    expect(text.stdout.split("\n")[1]).toMatch(/^evil\\x1b\[2J\\x9b31m<img src=x onerror=alert\(1\)>\|`x`\\u202e\.bin: 2493 bytes/);
    const missing = cli(["inspect", file + "\x07"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("\\x1b[2J\\x9b31m");
    expect(missing.stderr).toContain("\\x07: no such file");
    // eslint-disable-next-line no-control-regex -- the control characters are what the test looks for
    for (const out of [text.stdout, missing.stderr]) expect(out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
  });

  it("for the terminal: a partition directory's file names too", () => {
    const dir = join(tmp, "partition\x1b]0;title\x07");
    mkdirSync(dir);
    writeFileSync(join(dir, hostile), readFileSync(BROKEN));
    const r = cli(["inspect", dir]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("evil\\x1b[2J");
    expect(r.stdout).toContain("partition\\x1b]0;title\\x07");
    // eslint-disable-next-line no-control-regex -- the control characters are what the test looks for
    expect(r.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
  });

  it("for Markdown: the report shows the name as text, with no HTML, no code span and no extra table cell", () => {
    const md = cli(["report", file]).stdout;
    expect(md).not.toContain("<img");
    // eslint-disable-next-line no-control-regex -- as above
    expect(md).not.toMatch(/[\x1b\x9b\u202e]/);
    const inputRow = md.split("\n").find((l) => l.startsWith("| input |")) as string;
    expect(inputRow).toBe("| input | evil\\\\x1b\\[2J\\\\x9b31m&lt;img src=x onerror=alert(1)&gt;\\|\\`x\\`\\\\u202e.bin |");
    expect(md.split("\n")[0]).toBe("# Iggy batch report: evil\\\\x1b\\[2J\\\\x9b31m&lt;img src=x onerror=alert(1)&gt;\\|\\`x\\`\\\\u202e.bin");
  });
});
