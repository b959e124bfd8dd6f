/** The worker body on real inputs: formats through openInputWith, plain analyses, partitions one file at a time. */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { openInput } from "../core/containers/index.ts";
import type { FromWorker, ToWorker } from "./protocol.ts";
import { runRequest } from "./run-request.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures");
const buf = (file: string) => {
  const b = readFileSync(file);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
};

async function run(request: ToWorker): Promise<FromWorker[]> {
  const out: FromWorker[] = [];
  await runRequest(request, (m) => out.push(m));
  return out;
}

describe("runRequest", () => {
  test("auto-detects a SendMessages body by content and returns what openInput returns", async () => {
    const file = path.join(FIXTURES, "corpus-containers/vectors/golden-send-messages-body.bin");
    const reply = (await run({ type: "analyze", id: 3, input: buf(file), format: "auto", name: "body.bin" })).at(-1)!;
    const expected = await openInput(new Uint8Array(readFileSync(file)), { name: "body.bin" });
    expect(reply.type).toBe("result");
    if (reply.type !== "result") return;
    expect(reply.meta).toMatchObject({ format: "send-messages", detectedBy: expected.detectedBy, container: expected.container });
    expect(reply.analysis.summary).toEqual(expected.analysis.summary);
  });

  test("plain batches auto-detect with progress, and a forced format is honoured", async () => {
    const file = path.join(FIXTURES, "corpus-containers/vectors/golden-produce-batch.bin");
    const auto = await run({ type: "analyze", id: 1, input: buf(file), format: "auto", name: "b.bin" });
    expect(auto.some((m) => m.type === "progress")).toBe(true);
    expect(auto.at(-1)).toMatchObject({ type: "result", meta: { format: "batches" } });
    const forced = (await run({ type: "analyze", id: 2, input: buf(file), format: "poll-reply", name: "b.bin" })).at(-1)!;
    expect(forced).toMatchObject({ type: "result", meta: { format: "poll-reply", detectedBy: expect.stringMatching(/^forced/) } });
  });

  test("without a format it stays the plain analyse of before (meta null)", async () => {
    const file = path.join(FIXTURES, "corpus-containers/vectors/golden-poll-body.bin");
    expect((await run({ type: "analyze", id: 4, input: buf(file), startOffset: 16 })).at(-1)).toMatchObject({ type: "result", meta: null });
  });

  test("a partition reads each file once and reports files done", async () => {
    const dir = path.join(FIXTURES, "corpus-containers/partitions/healthy");
    let reads = 0;
    const files = readdirSync(dir).map((name) => {
      const bytes = readFileSync(path.join(dir, name));
      const blob = new Blob([bytes]);
      const counted = Object.assign(blob, {
        arrayBuffer: () => {
          reads++;
          return Blob.prototype.arrayBuffer.call(blob);
        },
      });
      return { name, input: counted };
    });
    const out = await run({ type: "partition", id: 5, files });
    expect(reads).toBe(files.length);
    expect(out.filter((m) => m.type === "progress").map((m) => (m as { done: number }).done)).toEqual(files.map((_, i) => i + 1));
    const last = out.at(-1)!;
    expect(last.type).toBe("partition-result");
    if (last.type === "partition-result") expect(last.result).toMatchObject({ verdict: "ok", segments: [{}, {}, {}] });
  });
});
