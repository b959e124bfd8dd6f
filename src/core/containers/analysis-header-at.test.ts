import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { SAMPLES } from "../samples/samples.ts";
import { CONTAINER_SAMPLES } from "../samples/container-samples.ts";
import { analysisHeaderAt, memoryHeaderAt, type HeaderAt } from "./walk.ts";
import { recoverSegmentFrom } from "./recovery.ts";
import { IndexEntries } from "./index-entries.ts";
import { segmentDropFinding } from "./segment.ts";

const xxh = await loadXxh3();
const CORPUS = path.resolve(import.meta.dirname, "../../../test/fixtures/corpus");

const INPUTS = [
  ...SAMPLES.map((s) => ({ name: s.id, bytes: s.build(xxh) })),
  ...CONTAINER_SAMPLES.filter((s) => s.format === "segment").flatMap((s) => s.build(xxh).filter((f) => f.name.endsWith(".log"))),
  ...readdirSync(CORPUS)
    .filter((n) => n.endsWith(".bin"))
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(CORPUS, name))) })),
];

describe("analysisHeaderAt", () => {
  it.each(INPUTS.map((i) => [i.name, i] as const))("%s: answers as reading the header would, at every batch start and beyond", (_, { bytes }) => {
    const analysis = analyzeWith(xxh, bytes, { dropFinding: segmentDropFinding });
    const read = memoryHeaderAt(bytes);
    let asked = 0;
    const fromModel = analysisHeaderAt(analysis, (pos, end) => {
      asked++;
      return read(pos, end);
    });
    const positions = [...analysis.batches.map((b) => b.start), ...analysis.batches.map((b) => b.start + 1), 0, bytes.length, bytes.length - 256];
    for (const pos of positions.filter((p) => p >= 0)) expect(fromModel(pos, bytes.length), `at ${pos}`).toEqual(read(pos, bytes.length));
    // A shorter end than the input's is never answered from the model.
    if (bytes.length > 300) expect(fromModel(0, 300)).toEqual(read(0, 300));
    expect(asked).toBeGreaterThan(0);
  });

  it.each(INPUTS.map((i) => [i.name, i] as const))("%s: a recovery scan gives the same verdict, reading only at faults", (_, { bytes }) => {
    const analysis = analyzeWith(xxh, bytes, { dropFinding: segmentDropFinding });
    let reads = 0;
    const counting: HeaderAt = (pos, end) => {
      reads++;
      return memoryHeaderAt(bytes)(pos, end);
    };
    const start = analysis.batches.at(0)?.header?.baseOffset ?? 0n;
    expect(recoverSegmentFrom(analysisHeaderAt(analysis, counting), analysis, start, IndexEntries.EMPTY)).toEqual(
      recoverSegmentFrom(memoryHeaderAt(bytes), analysis, start, IndexEntries.EMPTY),
    );
    const clean = analysis.diagnostics.every((d) => d.severity !== "error");
    if (clean) expect(reads).toBe(0);
  });
});
