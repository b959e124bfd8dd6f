import { describe, expect, it, onTestFinished } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { buildFromSpec, BuildSpecError, newUuidV7Bytes } from "../edit/build-spec.ts";
import { frameDetail } from "./frame-view.ts";
import { wholeWindow } from "../../lib/input-bytes.ts";
import { diffBatches } from "./diff.ts";
import { encodeBatch, stampBatch } from "../walk/encode.ts";

const xxh = await loadXxh3();
const env = { nowMillis: () => 1_764_420_000_123, randomBytes: (n: number) => new Uint8Array(n).fill(0xab) };
const spec = {
  partitionId: 3,
  baseOffset: "100",
  baseTimestamp: "1764420000000000",
  originTimestamp: "1764419999000000",
  messages: [
    {
      payload: "hello iggy",
      userHeaders: [
        { key: "content-type", kind: "string", value: "text/plain" },
        { key: "seq", kind: "u64", value: 42 },
      ],
    },
    { payload: { json: { a: 1 } }, id: "74f75857-fc08-46ee-9129-f0ee7cb845ee", timestampDelta: 1500 },
    { payload: { hex: "00ff10" }, id: "0x7", userHeaders: { hex: "c0ffee" } },
  ],
};

describe("build spec", () => {
  it("builds a stamped batch with the given values", () => {
    const bytes = buildFromSpec(xxh, spec, env);
    const a = analyzeWith(xxh, bytes);
    expect(a.diagnostics.map((d) => d.code)).toEqual(["user-headers-malformed"]);
    expect(a.batches.at(0)!.header).toMatchObject({ partitionId: 3n, baseOffset: 100n, messageCount: 3 });
    const f0 = frameDetail(a, wholeWindow(bytes), 0);
    expect(f0.id.version).toBe(7);
    expect(f0.id.unixMillis).toBe(1_764_420_000_123);
    expect(f0.userHeaders.decoded).toMatchObject({
      ok: true,
      headers: [
        { key: { text: "content-type" }, value: { text: "text/plain" } },
        { key: { text: "seq" }, value: { kindName: "u64", text: "42" } },
      ],
    });
    const f1 = frameDetail(a, wholeWindow(bytes), 1);
    expect(f1.id.uuid).toBe("74f75857-fc08-46ee-9129-f0ee7cb845ee");
    expect(new TextDecoder().decode(bytes.subarray(f1.payload.start, f1.payload.end))).toBe('{"a":1}');
    expect(frameDetail(a, wholeWindow(bytes), 2).id.value).toBe(7n);
  });

  it("rejects bad values with a path", () => {
    expect(() => buildFromSpec(xxh, { messages: [{ payload: { hex: "abc" } }] }, env)).toThrow(
      new BuildSpecError("batches[0].messages[0].payload.hex: not an even number of hex digits"),
    );
    expect(() => buildFromSpec(xxh, { baseOffset: "-1", messages: [] }, env)).toThrow(/batches\[0\]\.baseOffset/);
    expect(() => buildFromSpec(xxh, { messages: [{ payload: "x", userHeaders: [{ key: "k", kind: "nope", value: 1 }] }] }, env)).toThrow(/unknown kind/);
    expect(() => buildFromSpec(xxh, { messages: [{ payload: "x", userHeaders: [{ key: "k", kind: "u8", value: 256 }] }] }, env)).toThrow(
      new BuildSpecError("batches[0].messages[0].userHeaders[0]: 256 does not fit u8"),
    );
    expect(() => buildFromSpec(xxh, { messages: [{ payload: "x", userHeaders: [{ key: "k", kind: "i32", value: "12a" }] }] }, env)).toThrow(
      /userHeaders\[0\]: "12a" is not an integer/,
    );
    expect(() => buildFromSpec(xxh, { messages: [{ payload: "x", userHeaders: [{ key: "k", kind: "bool", value: "maybe" }] }] }, env)).toThrow(
      /a bool is true or false/,
    );
  });

  it("reads bool headers given as strings the way they read", () => {
    const bytes = buildFromSpec(
      xxh,
      {
        messages: [
          {
            payload: "x",
            userHeaders: [
              { key: "a", kind: "bool", value: "false" },
              { key: "b", kind: "bool", value: "true" },
            ],
          },
        ],
      },
      env,
    );
    const a = analyzeWith(xxh, bytes);
    expect(frameDetail(a, wholeWindow(bytes), 0).userHeaders.decoded).toMatchObject({
      ok: true,
      headers: [{ value: { text: "false" } }, { value: { text: "true" } }],
    });
  });

  it("makes RFC 9562 v7 UUIDs", () => {
    const b = newUuidV7Bytes(env);
    expect(b[6]! >> 4).toBe(7);
    expect(b[8]! >> 6).toBe(2);
  });

  it("iggy-batch build then iggy-batch inspect gives no diagnostics", () => {
    const dir = mkdtempSync(join(tmpdir(), "iggy-build-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const specFile = join(dir, "spec.json");
    const out = join(dir, "out.bin");
    writeFileSync(
      specFile,
      JSON.stringify({
        batches: [
          { messages: [{ payload: "one", userHeaders: [{ key: "k", kind: "bool", value: true }] }, { payload: { json: [1, 2] } }] },
          { partitionId: 1, baseOffset: 0, baseTimestamp: 10, messages: [{ payload: "two" }] },
        ],
      }),
    );
    const bin = new URL("../../../bin/iggy-batch.mjs", import.meta.url).pathname;
    execFileSync(process.execPath, [bin, "build", specFile, "-o", out], { stdio: "pipe" });
    expect(readFileSync(out).length).toBeGreaterThan(512);
    const json = JSON.parse(execFileSync(process.execPath, [bin, "inspect", out, "--json"], { encoding: "utf8" }));
    expect(json.summary).toEqual({ batches: 2, frames: 3, errors: 0, warnings: 0, infos: 0 });
    expect(json.diagnostics).toEqual([]);
  });
});

describe("batch diff", () => {
  it("shows exactly what stamping changed", () => {
    const producer = encodeBatch(xxh, { originTimestamp: 1000n, messages: [{ payload: "a" }, { payload: "b" }] });
    const stamped = stampBatch(xxh, producer, { partitionId: 3n, baseOffset: 100n, baseTimestamp: 5000n });
    const rows = diffBatches(
      { bytes: producer, analysis: analyzeWith(xxh, producer), batch: 0 },
      { bytes: stamped, analysis: analyzeWith(xxh, stamped), batch: 0 },
    );
    expect(rows.filter((r) => !r.same).map((r) => [r.scope, r.field, r.left, r.right])).toEqual([
      ["batch", "partition_id", "0", "3"],
      ["batch", "base_offset", "0", "100"],
      ["batch", "base_timestamp", "0", "5000"],
      ["batch", "batch_checksum", rows.find((r) => r.field === "batch_checksum")!.left, rows.find((r) => r.field === "batch_checksum")!.right],
    ]);
    // The 7 header fields, then the payload and the user headers, each with its byte diff.
    expect(
      rows
        .filter((r) => r.scope === "frame 1")
        .map((r) => r.field)
        .slice(7),
    ).toEqual(["payload", "user headers"]);
  });
});
