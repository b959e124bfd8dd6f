/**
 * Every container diagnostic fires on its sample (and only what the spec makes unavoidable comes with
 * it), and stays silent on the good sample of the same format: the near miss. Detection names each sample's format.
 */
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { CAPTURE_DIAGNOSTIC_CODES, DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode } from "../../format/diagnostics.ts";
import { CONTAINER_SAMPLES, type ContainerSample } from "./container-samples.ts";
import { detectFormat, openInputWith, openPartition, type PartitionSource } from "../containers/index.ts";

const xxh = await loadXxh3();

/** Opens a sample as a user would: a partition as a directory, a file with its companion beside it. */
export async function openSample(s: ContainerSample): Promise<Diagnostic[]> {
  const files = s.build(xxh);
  if (s.format === "partition") {
    const sources: PartitionSource[] = files.map((f) => ({ name: f.name, size: f.bytes.length, read: () => Promise.resolve(f.bytes) }));
    return (await openPartition(sources, { xxh3: xxh })).diagnostics;
  }
  const [main, companion] = files;
  return openInputWith(xxh, main!.bytes, { name: main!.name, format: s.forced ? s.format : "auto", companion }).analysis.diagnostics;
}

// Findings a sample may carry beside the one it shows, where the spec makes them follow.
const COLLATERAL: Partial<Record<DiagnosticCode, DiagnosticCode[]>> = {
  "recovery-stops": ["header-truncated"],
  "consensus-command-unexpected": [],
  "send-metadata-invalid": ["send-batch-not-at-end"],
};
const ALWAYS_ALLOWED: DiagnosticCode[] = ["recovery-stops"];

// Capture codes are shown by the capture tests (containers/capture/), not by container samples.
const CONTAINER_CODES = DIAGNOSTIC_CODES.slice(DIAGNOSTIC_CODES.indexOf("segment-name-mismatch")).filter((c) => !CAPTURE_DIAGNOSTIC_CODES.includes(c));

describe("container samples", () => {
  it("show every container diagnostic code", () => {
    const shown = new Set(CONTAINER_SAMPLES.map((s) => s.shows).filter(Boolean));
    expect(CONTAINER_CODES.filter((c) => !shown.has(c))).toEqual([]);
  });

  for (const s of CONTAINER_SAMPLES) {
    it(`${s.id}: ${s.shows ? `shows ${s.shows}` : "opens clean"}${s.forced ? ` (forced ${s.format})` : `, detected as ${s.format}`}`, async () => {
      const files = s.build(xxh);
      if (!s.forced && s.format !== "partition") expect(detectFormat(files[0]!.bytes, files[0]!.name).format).toBe(s.format);
      const diags = await openSample(s);
      const codes = new Set(diags.map((d) => d.code));
      if (!s.shows) {
        expect(diags.filter((d) => d.severity !== "info")).toEqual([]);
        return;
      }
      expect(codes.has(s.shows)).toBe(true);
      const allowed = new Set([s.shows, ...ALWAYS_ALLOWED, ...(COLLATERAL[s.shows] ?? [])]);
      expect(diags.filter((d) => d.severity !== "info" && !allowed.has(d.code)).map((d) => d.code)).toEqual([]);
      for (const d of diags) expect(d.end).toBeGreaterThanOrEqual(d.start);
      expect(s.note.length).toBeGreaterThan(20);
    });
  }

  // The near miss: the good sample of each broken sample's format, one step away, does not show its code.
  for (const s of CONTAINER_SAMPLES.filter((x) => x.shows)) {
    const good = CONTAINER_SAMPLES.find((g) => !g.shows && g.format === s.format) ?? CONTAINER_SAMPLES.find((g) => g.id === "segment")!;
    it(`near miss: ${good.id} does not show ${s.shows}`, async () => {
      const diags = await openSample({ ...good, forced: s.forced && s.format === good.format });
      expect(diags.map((d) => d.code)).not.toContain(s.shows);
    });
  }
});

describe("poll records of another partition", () => {
  it("are a warning, not an error: Iggy's decoders accept them and upstream's own test replies carry them (containers.md)", () => {
    const s = CONTAINER_SAMPLES.find((x) => x.id === "poll-partition-mismatch")!;
    const [file] = s.build(xxh);
    const a = openInputWith(xxh, file!.bytes, { name: file!.name, format: "poll-reply" }).analysis;
    const found = a.diagnostics.filter((d) => d.code === "poll-partition-mismatch");
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((d) => d.severity === "warning")).toBe(true);
    expect(a.summary.errors).toBe(0);
  });
});
