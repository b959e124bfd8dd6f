/**
 * The findings commands as a user runs them, through the real bin/iggy-batch.mjs: `redact` writes a
 * copy that `inspect` judges exactly like the original, `render` writes a well-formed SVG of a range,
 * and `report` adds --redact, --text and --svg.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { allElements, parseXml } from "../test/xml-wellformed.ts";
import { CONTAINER_SAMPLES } from "../src/core/samples/container-samples.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { runCli } from "./spawn-cli.test-util.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BROKEN = join(ROOT, "test/fixtures/corpus/19-segment-4-batch2-bad-frame.bin");
const HEADERS = join(ROOT, "test/fixtures/corpus/02-valid-stamped-3frames-userheaders.bin");
const tmp = mkdtempSync(join(tmpdir(), "iggy-batch-findings-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = runCli;
const diagnosticsOf = (json: string) =>
  (JSON.parse(json) as { diagnostics: Array<{ code: string; severity: string; start: number; end: number }> }).diagnostics.map(
    ({ code, severity, start, end }) => ({ code, severity, start, end }),
  );
const sha = (f: string) => createHash("sha256").update(readFileSync(f)).digest("hex");

describe("iggy-batch redact", () => {
  it.each([
    [BROKEN, []],
    [HEADERS, ["--user-headers", "--ids"]],
  ] as Array<[string, string[]]>)("%s %j: the copy raises the original's diagnostics", async (file, extra) => {
    const out = join(tmp, `redacted-${extra.length}.bin`);
    const run = await cli(["redact", file, "-o", out, ...extra]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/payloads[^;]* replaced; the same \d+ diagnostics? as the original \(SHA-256 [0-9a-f]{64}\)/);
    const [before, after] = await Promise.all([cli(["inspect", file, "--json"]), cli(["inspect", out, "--json"])]);
    expect(after.code).toBe(before.code);
    expect(diagnosticsOf(after.stdout)).toEqual(diagnosticsOf(before.stdout));
    expect(readFileSync(out).includes(Buffer.from("REDACTED"))).toBe(true);
    expect(sha(out)).not.toBe(sha(file));
  });

  it("refuses a legacy dump, whose payloads sit outside batch frames", async () => {
    const legacy = CONTAINER_SAMPLES.find((c) => c.id === "legacy-messages")!.build(await loadXxh3())[0]!;
    const file = join(tmp, legacy.name);
    writeFileSync(file, legacy.bytes);
    const run = await cli(["redact", file, "-o", join(tmp, "legacy-redacted.bin")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("holds legacy messages; convert it first");
    expect(existsSync(join(tmp, "legacy-redacted.bin"))).toBe(false);
  });

  it("redacts a container (a prepare with its consensus header) keeping every finding", async () => {
    const prepare = CONTAINER_SAMPLES.find((c) => c.id === "prepare")!.build(await loadXxh3())[0]!;
    const file = join(tmp, prepare.name);
    writeFileSync(file, prepare.bytes);
    const out = join(tmp, "prepare-redacted.bin");
    const run = await cli(["redact", file, "-o", out, "--ids"]);
    expect(run.code, run.stderr).toBe(0);
    const [before, after] = await Promise.all([cli(["inspect", file, "--json"]), cli(["inspect", out, "--json"])]);
    expect(JSON.parse(after.stdout).format).toBe("prepare");
    expect(diagnosticsOf(after.stdout)).toEqual(diagnosticsOf(before.stdout));
    expect(readFileSync(out).includes(Buffer.from("REDACTED"))).toBe(true);
  });

  it("needs -o", async () => {
    const run = await cli(["redact", BROKEN]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("-o OUT.bin is required");
  });
});

describe("iggy-batch render", () => {
  it("writes a well-formed SVG of the range with its caption and one mark per problem byte", async () => {
    const out = join(tmp, "range.svg");
    const run = await cli(["render", BROKEN, "--range", "0x3a0..0x3c0", "-o", out]);
    expect(run.code, run.stderr).toBe(1);
    const root = parseXml(readFileSync(out, "utf8"));
    const title = allElements(root).find((e) => e.name === "title")!.text;
    expect(title).toContain("19-segment-4-batch2-bad-frame.bin");
    expect(title).toContain("bytes 0x3a0..0x3c0");
    expect(title).toContain(`SHA-256 ${sha(BROKEN)}`);
    expect(title).toContain("verdict FAIL");
    const marks = allElements(root).filter((e) => e.attrs.class?.split(" ").includes("mark"));
    expect(marks.map((m) => Number(m.attrs["data-offset"]))).toEqual([0x3b5, 0x3b6, 0x3b7, 0x3b8, 0x3b9, 0x3ba, 0x3bb, 0x3bc]);
  });

  it("refuses a malformed range", async () => {
    const run = await cli(["render", BROKEN, "--range", "9..3"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--range takes A..B");
    expect(run.stdout).toBe("");
  });
});

describe("iggy-batch report", () => {
  it("--redact reports on a redacted copy and names the original", async () => {
    const run = await cli(["report", BROKEN, "--redact"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`**Redacted copy.** Payloads were replaced`);
    expect(run.stdout).toContain(`| redacted copy of | \`${sha(BROKEN)}\` (payloads) |`);
    expect(run.stdout).toContain("`frame-checksum-mismatch` | 0x3b5..0x3bd");
    expect(run.stdout).not.toContain(`| SHA-256 | \`${sha(BROKEN)}\``);
  });

  it("--text writes plain text", async () => {
    const run = await cli(["report", BROKEN, "--text"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^Iggy batch report: 19-segment-4-batch2-bad-frame\.bin\n=+\n/);
    expect(run.stdout).not.toContain("<details>");
    expect(run.stdout).toContain("frame-checksum-mismatch: batch 1 frame 0");
  });

  it("--svg FILE writes the picture beside the report and links it", async () => {
    const md = join(tmp, "r.md");
    const svg = join(tmp, "pictures", "..", "r.svg");
    const run = await cli(["report", BROKEN, "-o", md, "--svg", svg]);
    expect(run.code, run.stderr).toBe(1);
    expect(existsSync(svg)).toBe(true);
    expect(parseXml(readFileSync(svg, "utf8")).name).toBe("svg");
    expect(readFileSync(md, "utf8")).toMatch(/!\[Hex map of 19-segment-4-batch2-bad-frame\.bin, bytes 0x390\.\.0x[0-9a-f]+, findings marked\]\(<r\.svg>\)/);
  });
});
