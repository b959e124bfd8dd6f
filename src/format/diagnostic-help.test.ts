/** Every code has help: the rule, what the server does, likely causes, upstream paths and a spec that lives in the repository. */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CAPTURE_DIAGNOSTIC_CODES, DIAGNOSTIC_CODES } from "./diagnostics.ts";
import { DIAGNOSTIC_HELP, helpLines, isDiagnosticCode } from "./diagnostic-help.ts";

const OWN_CODES = new Set(["partition-no-segments", "legacy-unverifiable"]);
const ROOT = path.resolve(import.meta.dirname, "../..");

describe("diagnostic help", () => {
  it.each(DIAGNOSTIC_CODES)("%s: rule, server, causes, upstream path and spec", (code) => {
    const h = DIAGNOSTIC_HELP[code];
    for (const text of [h.rule, h.server, h.causes]) expect(text.length).toBeGreaterThan(15);
    // A capture file's own codes (pcap, link layers, TCP) have no Iggy source: they say so as "none (why)".
    if (CAPTURE_DIAGNOSTIC_CODES.includes(code) && h.upstream.startsWith("none ")) expect(h.upstream).toMatch(/^none \(.+\)$/);
    else for (const p of h.upstream.split(/,\s*(?=core\/|foreign\/)/)) expect(p).toMatch(/^(core|foreign)\/[\w/]+\.(rs|ts)( \([\w:, ]+\))?$/);
    expect(existsSync(path.join(ROOT, h.spec))).toBe(true);
    // The spec it points to defines the code (but for this project's own codes, which the code table defines).
    if (!OWN_CODES.has(code)) expect(readFileSync(path.join(ROOT, h.spec), "utf8")).toContain(code);
    expect(helpLines(code)[0]).toMatch(new RegExp(`^${code} \\((error|warning|info)\\): `));
    expect(isDiagnosticCode(code)).toBe(true);
  });
  it("does not take other words for codes", () => {
    expect(isDiagnosticCode("toString")).toBe(false);
    expect(isDiagnosticCode("frame-checksum")).toBe(false);
  });
});
