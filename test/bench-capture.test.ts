/**
 * The traffic `npm run bench -- --capture` times (scripts/bench/capture-traffic.ts): a small one read back
 * through the capture reader finds every request and reply, every batch and message, and nothing to flag;
 * the batches file beside it is those batches end to end.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { analyzeWith } from "../src/core/walk/analyze.ts";
import { openCapture } from "../src/core/containers/capture/index.ts";
import { memorySource } from "../src/core/containers/capture/source.ts";
import { CAPTURE_BATCHES, writeCaptureTraffic } from "../scripts/bench/capture-traffic.ts";

const dir = mkdtempSync(join(tmpdir(), "iggy-bench-capture-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the capture benchmark's traffic", () => {
  it("reads back as the requests, replies, batches and messages it says it wrote", async () => {
    const xxh = await loadXxh3();
    const capturePath = join(dir, "traffic.pcap");
    const batchesPath = join(dir, "batches.bin");
    const traffic = writeCaptureTraffic(xxh, 2 << 20, capturePath, batchesPath);
    expect(traffic.captureBytes).toBe(statSync(capturePath).size);
    expect(traffic.captureBytes).toBeGreaterThanOrEqual(2 << 20);
    expect(traffic.requests).toBeGreaterThanOrEqual(CAPTURE_BATCHES.length);

    const result = openCapture(xxh, memorySource(readFileSync(capturePath)));
    expect(result.connections).toHaveLength(1);
    const messages = result.connections[0]!.messages;
    expect(messages.filter((m) => m.command === 5)).toHaveLength(traffic.requests);
    expect(messages.filter((m) => m.command === 8)).toHaveLength(traffic.requests);
    expect(messages.every((m) => m.complete)).toBe(true);
    expect(result.summary).toMatchObject({ batches: traffic.requests, frames: traffic.messages, errors: 0, warnings: 0 });
    // the segments are 1448 bytes of TCP payload: a 1000-message batch spans about a hundred packets
    expect(result.packets).toBeGreaterThan(traffic.batchBytes / 1448);

    const ends = analyzeWith(xxh, readFileSync(batchesPath));
    expect(ends.summary).toMatchObject({ batches: traffic.requests, frames: traffic.messages, errors: 0 });
    expect(ends.batches.map((b) => Number(b.header?.messageCount))).toEqual(
      Array.from({ length: traffic.requests }, (_, i) => CAPTURE_BATCHES[i % CAPTURE_BATCHES.length]!.messages),
    );
  });
});
