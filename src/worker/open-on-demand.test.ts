import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../checksum/xxh3.ts";
import { openInputWith } from "../core/containers/index.ts";
import { CONTAINER_SAMPLES } from "../core/samples/container-samples.ts";
import { SAMPLES } from "../core/samples/samples.ts";
import { memorySource } from "../core/walk/stream-analyze.ts";
import { openSourceOnDemand } from "./open-on-demand.ts";

const xxh = await loadXxh3();

// Every sample file, as a person would drop it: its own name, auto-detected.
const FILES = [
  ...SAMPLES.map((s) => ({ name: `${s.id}.bin`, bytes: s.build(xxh), companion: undefined })),
  ...CONTAINER_SAMPLES.flatMap((s) => {
    const files = s.build(xxh);
    return files.map((f) => {
      const other = files.find((g) => g !== f && g.name.replace(/\.\w+$/, "") === f.name.replace(/\.\w+$/, ""));
      return { name: f.name, bytes: f.bytes, companion: other };
    });
  }),
];

describe("opening on demand", () => {
  it.each(FILES.map((f) => [f.name, f] as const))("%s: streams to what openInput gives, or declines", async (_, f) => {
    const whole = openInputWith(xxh, f.bytes, { name: f.name, format: "auto", companion: f.companion });
    const got = await openSourceOnDemand(memorySource(f.bytes), {
      name: f.name,
      format: "auto",
      companion: f.companion && { name: f.companion.name, input: f.companion.bytes.slice().buffer },
    });
    if (whole.format !== "batches" && whole.format !== "segment") {
      expect(got).toBeNull();
      return;
    }
    // Plain batches that do not tile the input are for the whole-file path (auto-detect weighs every container).
    if (got === null) {
      expect(whole.format).toBe("batches");
      return;
    }
    const { analysis, ...meta } = whole;
    expect(got.meta).toEqual(meta);
    expect(got.analysis.summary).toEqual(analysis.summary);
    expect(got.analysis.diagnostics).toEqual(analysis.diagnostics);
    expect(got.analysis.batches).toEqual(analysis.batches);
    expect(got.analysis.frames).toEqual(analysis.frames);
  });

  it("streams most samples: the path is not skipped", async () => {
    let streamed = 0;
    for (const f of FILES) if (await openSourceOnDemand(memorySource(f.bytes), { name: f.name, format: "auto" })) streamed++;
    expect(streamed).toBeGreaterThanOrEqual(FILES.length / 3);
  });

  it("forced batches stream a file whose headers do not tile it", async () => {
    const bytes = SAMPLES[0]!.build(xxh);
    const cut = bytes.subarray(0, bytes.length - 7);
    const got = await openSourceOnDemand(memorySource(cut), { name: "cut.bin", format: "batches" });
    const whole = openInputWith(xxh, cut, { name: "cut.bin", format: "batches" });
    expect(got?.meta.detectedBy).toBe(whole.detectedBy);
    expect(got?.analysis.diagnostics).toEqual(whole.analysis.diagnostics);
  });
});
