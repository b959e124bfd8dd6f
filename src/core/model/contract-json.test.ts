/** The JSON document of contracts.md §1, built from analyses of crafted inputs. */
import { describe, expect, it } from "vitest";
import { readFileSync as readFixture } from "node:fs";
import { contractJsonChunks, toContractJson } from "./contract-json.ts";
import { B, F, analyze, concat, getU64, producerBatch, setU32, setU64, stampedBatch } from "../../../test/helpers.ts";

describe("toContractJson", () => {
  it("spells u64 values as decimal strings and checksums and ids as fixed-width lowercase hex", async () => {
    const b = stampedBatch(
      1,
      { partitionId: (1n << 64n) - 1n, baseOffset: (1n << 53n) + 1n, baseTimestamp: 1764420000000000n },
      { messages: [{ payload: "p", id: 0xabcn }] },
    );
    const doc = toContractJson(await analyze(b), b, "cap.bin");
    expect(doc.input).toEqual({ name: "cap.bin", size: b.length });
    expect(doc.batches[0]).toMatchObject({
      index: 0,
      start: 0,
      end: b.length,
      stamped: true,
      header: {
        partitionId: "18446744073709551615",
        baseOffset: "9007199254740993",
        baseTimestamp: "1764420000000000",
        originTimestamp: "1700000000000000",
        batchLength: String(b.length),
        messageCount: 1,
      },
      computedChecksum: getU64(b, B.batchChecksum).toString(16).padStart(16, "0"),
    });
    expect(doc.batches[0]?.header?.batchChecksum).toBe(doc.batches[0]?.computedChecksum);
    expect(doc.batches[0]?.frames?.[0]).toMatchObject({
      index: 0,
      start: 256,
      end: 305,
      id: "00000000000000000000000000000abc",
      payloadLength: 1,
      userHeadersLength: 0,
    });
    expect(doc.batches[0]?.frames?.[0]?.checksum).toMatch(/^[0-9a-f]{16}$/);
    expect(doc).not.toHaveProperty("diagnosticsOmitted");
  });

  it("lists a truncated frame whose header is whole last, with computedChecksum null; not one whose header is cut", async () => {
    const b = producerBatch(2);
    setU32(b, 313 + F.payloadLength, 500);
    const doc = toContractJson(await analyze(b), b, "x");
    const frames = doc.batches[0]?.frames ?? [];
    expect(frames).toHaveLength(2);
    expect(frames[1]).toMatchObject({ index: 1, start: 313, end: 370, payloadLength: 500, computedChecksum: null });
    expect(doc.summary.frames).toBe(1);

    const cut = producerBatch(2).subarray(0, 313 + 20);
    const doc2 = toContractJson(await analyze(cut), cut, "x");
    expect(doc2.batches[0]?.frames).toHaveLength(1);
  });

  it("gives an incomplete header and a too-small batch null checksums, and leaves frames out on request", async () => {
    const tiny = producerBatch(1);
    setU64(tiny, B.batchLength, 10n);
    const input = concat([producerBatch(1), new Uint8Array(40)]);
    const a = toContractJson(await analyze(input), input, "x", false);
    expect(a.batches[1]).toEqual({ index: 1, start: 313, end: 353, stamped: false, header: null, computedChecksum: null });
    expect(a.batches[0]).not.toHaveProperty("frames");
    const t = toContractJson(await analyze(tiny), tiny, "x");
    expect(t.batches[0]).toMatchObject({ computedChecksum: null, frames: [] });
    expect(t.batches[0]?.header?.batchLength).toBe("10");
  });
});

describe("streamed JSON", () => {
  it("is the same document as toContractJson for every corpus file, with and without frames", async () => {
    const dir = new URL("../../../test/fixtures/corpus/", import.meta.url);
    const manifest = JSON.parse(readFixture(new URL("manifest.json", dir), "utf8")) as { cases: { file: string }[] };
    for (const { file } of manifest.cases) {
      const bytes = new Uint8Array(readFixture(new URL(file, dir)));
      const a = await analyze(bytes);
      for (const withFrames of [true, false]) {
        const text = [...contractJsonChunks(a, bytes, file, withFrames)].join("");
        // Each batch's line is the text JSON.stringify gives its document (key order and number spelling included).
        if (!withFrames) for (const batch of toContractJson(a, bytes, file, false).batches) expect(text, file).toContain(`\n    ${JSON.stringify(batch)}`);
        const streamed = JSON.parse(text);
        expect(streamed, file).toEqual(JSON.parse(JSON.stringify(toContractJson(a, bytes, file, withFrames))));
      }
    }
  });
});
