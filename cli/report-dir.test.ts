/**
 * Issue 26 through the real CLI on the corpus partitions: `report DIR` leads with the partition's verdict on
 * both axes, `inspect DIR` names its axes, a directory with no segment is an error, `explain CODE` for every code.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { DIAGNOSTIC_CODES } from "../src/format/diagnostics.ts";
import { DIAGNOSTIC_HELP } from "../src/format/diagnostic-help.ts";
import { decodeShareFragment } from "../src/lib/share-codec.ts";

const BIN = new URL("../bin/iggy-batch.mjs", import.meta.url).pathname;
const PARTITIONS = new URL("../test/fixtures/corpus-containers/partitions/", import.meta.url).pathname;
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
const tmp = mkdtempSync(join(tmpdir(), "iggy-report-dir-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("report DIR", () => {
  it("chain-gap: the report says the server refuses it, lists both segments and the gap in its file, exit 1", () => {
    const r = cli("report", join(PARTITIONS, "chain-gap"));
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("");
    const inspect = JSON.parse(cli("inspect", join(PARTITIONS, "chain-gap"), "--json").stdout);
    expect(r.stdout.split("\n")[2]).toMatch(/^\*\*Server:\*\* The server refuses it at boot: .*\(a gap of 2\)\. \*\*Findings:\*\* 1 error, 0 warnings\.$/);
    expect(r.stdout).not.toMatch(/every check passed|\| verdict \| ok/);
    for (const s of inspect.partition.segments) expect(r.stdout).toContain(`| ${s.name} | ${s.index} | ${s.size} |`);
    for (const d of inspect.diagnostics) expect(r.stdout).toContain(`| ${d.file} | ${d.severity} | \`${d.code}\` |`);
  });

  it("--base-url gives a link that fits a GitHub issue and opens the segment of the finding; --svg is a file to attach", () => {
    const svg = join(tmp, "gap.svg");
    const out = join(tmp, "gap.md");
    const r = cli("report", join(PARTITIONS, "chain-gap"), "--base-url", "https://example.org/iggy/", "--svg", svg, "-o", out);
    expect(r.status).toBe(1);
    const md = readFileSync(out, "utf8");
    const url = /\[open in Iggy Batch Explorer\]\(<([^>]+)>\)/.exec(md)![1]!;
    expect(url.startsWith("https://example.org/iggy/#iggy1.")).toBe(true);
    expect(url.length).toBeLessThanOrEqual(65_536);
    const state = decodeShareFragment(url.slice(url.indexOf("#")))!;
    expect(state.name).toBe("00000000000000001965.log");
    const log = new Uint8Array(readFileSync(join(PARTITIONS, "chain-gap", "00000000000000001965.log")));
    expect(state.bytes).toEqual(log.subarray(state.part!.start, state.part!.end));
    expect(readFileSync(svg, "utf8")).toMatch(/^(<\?xml[^>]*>\s*)?<svg/);
    expect(md).toContain("](<gap.svg>)");
    expect(md).toMatch(/attach gap\.svg to the issue/);
  });

  it("torn-tail, --text: both axes named, the truncated bytes counted, no FAIL beside a load", () => {
    const r = cli("report", join(PARTITIONS, "torn-tail"), "--text");
    expect(r.status).toBe(1);
    const doc = JSON.parse(cli("inspect", join(PARTITIONS, "torn-tail"), "--json").stdout);
    const torn = doc.partition.segments.reduce((n: number, s: { size: number; recovery: { keptBytes: number } }) => n + s.size - s.recovery.keptBytes, 0);
    expect(torn).toBeGreaterThan(0);
    expect(r.stdout).toMatch(new RegExp(`^Server: {3}The server truncates ${torn} bytes at boot: `, "m"));
    expect(r.stdout).toMatch(/^Findings: 1 error, 0 warnings$/m);
    expect(r.stdout).not.toMatch(/FAIL|would load/);
  });

  it("a directory with no segment: partition-no-segments, exit 1, for report and inspect", () => {
    const empty = mkdtempSync(join(tmpdir(), "iggy-no-seg-"));
    onTestFinished(() => rmSync(empty, { recursive: true, force: true }));
    writeFileSync(join(empty, "capture.pcap"), new Uint8Array([0xd4, 0xc3, 0xb2, 0xa1]));
    const i = cli("inspect", empty);
    expect(i.status).toBe(1);
    expect(i.stdout).toMatch(/error +partition-no-segments: /);
    expect(i.stdout).not.toContain("{start:020}");
    expect(i.stdout).toMatch(/\nverdict: server refuses it at boot \(.*no segment.*\); findings: 1 error, 0 warnings\n$/);
    const r = cli("report", empty);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("`partition-no-segments`");
  });
});

describe("inspect DIR verdict", () => {
  it("torn-tail: one verdict line naming both axes; the recovery sentence printed once", () => {
    const r = cli("inspect", join(PARTITIONS, "torn-tail"));
    expect(r.status).toBe(1);
    const verdicts = r.stdout.split("\n").filter((l) => l.startsWith("verdict:"));
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toMatch(/^verdict: server truncates \d+ bytes at boot \(.*\); findings: 1 error, 0 warnings$/);
    expect(r.stdout).not.toMatch(/FAIL|would load/);
    const doc = JSON.parse(cli("inspect", join(PARTITIONS, "torn-tail"), "--json").stdout);
    const stops = doc.diagnostics.find((d: { code: string }) => d.code === "recovery-stops");
    expect(r.stdout.split(stops.message).length - 1).toBe(1);
  });

  it("index-faults: the segment's row counts its index's errors", () => {
    const r = cli("inspect", join(PARTITIONS, "index-faults"));
    const doc = JSON.parse(cli("inspect", join(PARTITIONS, "index-faults"), "--json").stdout);
    const seg = doc.partition.segments[0];
    const indexErrors = doc.diagnostics.filter((d: { file: string; severity: string }) => d.file === seg.index && d.severity === "error").length;
    expect(indexErrors).toBeGreaterThan(0);
    expect(seg.errors).toBe(indexErrors);
    const row = r.stdout.split("\n").find((l) => l.startsWith(`  ${seg.name} `))!;
    expect(row).toMatch(new RegExp(`findings: ${indexErrors} errors?, 0 warnings$`));
  });
});

describe("explain CODE", () => {
  it.each(DIAGNOSTIC_CODES)("%s", (code) => {
    const r = cli("explain", code);
    expect(r.status).toBe(0);
    const h = DIAGNOSTIC_HELP[code];
    expect(r.stdout).toContain(`${code} (`);
    for (const text of [h.rule, h.server, h.causes, h.upstream]) expect(r.stdout).toContain(text);
  });
  it("an unknown code is a usage error listing the codes", () => {
    const r = cli("explain", "no-such-code");
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("frame-checksum-mismatch");
  });
});
