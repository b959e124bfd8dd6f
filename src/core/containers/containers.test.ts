/** The container layer's rules one by one: the changed batch rules, recovery paths, partition listing, index cross-checks, legacy conversion. */
import { describe, expect, it } from "vitest";
import { concat, encodeBatch, stampBatch } from "../walk/encode.ts";
import { analyzeWith } from "../walk/analyze.ts";
import { containerFieldAt, detectFormat, legacyToSegment, openInputWith, openPartition, type PartitionSource } from "./index.ts";
import { CONTAINER_SAMPLES } from "../samples/container-samples.ts";
import { xxh } from "../../../test/helpers.ts";
import { legacyDumpOf } from "./legacy-dump.test-util.ts";

const sample = (id: string) => CONTAINER_SAMPLES.find((s) => s.id === id)!.build(xxh);
const T = 1_764_500_000_000_000n;
const stamped = (offset: bigint, n: number, ts = T) =>
  stampBatch(xxh, encodeBatch(xxh, { originTimestamp: ts - 10n, messages: Array.from({ length: n }, (_, i) => ({ payload: `m${i}` })) }), {
    partitionId: 1n,
    baseOffset: offset,
    baseTimestamp: ts,
  });
const codes = (o: { analysis: { diagnostics: { code: string }[] } }) => o.analysis.diagnostics.map((d) => d.code);
const u64 = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return b;
};

describe("the batch rules containers change", () => {
  const gap = concat([stamped(10n, 2), stamped(20n, 2, T + 1n)]);
  it("in a segment the offset chain is segment-offset-gap (an error) instead of offset-discontinuity", () => {
    expect(codes(openInputWith(xxh, gap, { name: "00000000000000000010.log" }))).toEqual(expect.arrayContaining(["segment-offset-gap"]));
    expect(codes(openInputWith(xxh, gap, { name: "00000000000000000010.log" }))).not.toContain("offset-discontinuity");
    // Near miss: as plain batches the same bytes keep the batch rule.
    expect(codes(openInputWith(xxh, gap, { format: "batches" }))).toEqual(["offset-discontinuity"]);
  });
  it("in a poll reply origin-not-earliest is not raised for stamped records, but is for producer ones", () => {
    const tail = stampBatch(xxh, encodeBatch(xxh, { originTimestamp: T, messages: [{ payload: "a", timestampDelta: 5 }] }), {
      partitionId: 3n,
      baseOffset: 1n,
      baseTimestamp: T,
    });
    const body = concat([Uint8Array.of(3, 0, 0, 0), u64(0n), Uint8Array.of(1, 0, 0, 0), tail]);
    expect(codes(openInputWith(xxh, body, { format: "poll-reply" }))).toEqual([]);
    expect(codes(openInputWith(xxh, body.subarray(16), { format: "batches" }))).toEqual(["origin-not-earliest"]);
    const producer = encodeBatch(xxh, { originTimestamp: T, messages: [{ payload: "a", timestampDelta: 5 }] });
    const pbody = concat([Uint8Array.of(0, 0, 0, 0), u64(0n), Uint8Array.of(1, 0, 0, 0), producer]);
    expect(codes(openInputWith(xxh, pbody, { format: "poll-reply" }))).toContain("origin-not-earliest");
  });
  it("in a SendMessages body an empty batch is send-count-mismatch, not empty-batch", () => {
    const [file] = sample("send-empty-batch");
    expect(codes(openInputWith(xxh, file!.bytes, { format: "send-messages" }))).toEqual(["send-count-mismatch"]);
    expect(codes(openInputWith(xxh, encodeBatch(xxh, { messages: [] })))).toEqual(["empty-batch"]);
  });
  it("analyze() keeps every finding without the hook", () => {
    expect(analyzeWith(xxh, gap).diagnostics.map((d) => d.code)).toEqual(["offset-discontinuity"]);
    expect(analyzeWith(xxh, gap, { dropFinding: (c) => c === "offset-discontinuity" }).summary.warnings).toBe(0);
  });
});

describe("recovery verdict", () => {
  it("index path: from the last entry, headers only; a checksum fault before it is kept", () => {
    const a = stamped(0n, 2);
    const broken = a.slice();
    broken[300]! ^= 1;
    const b = stamped(2n, 1, T + 1n);
    const log = concat([broken, b]);
    const index = concat([u64(2n), u64(T + 1n), u64(BigInt(broken.length))]);
    const o = openInputWith(xxh, log, { name: "00000000000000000000.log", companion: { name: "00000000000000000000.index", bytes: index } });
    expect(o.recovery).toMatchObject({ path: "index", keptBytes: log.length, keptMessages: 3, stopsAt: null, lastOffset: 2n });
    // Without the index, the scan stops at the broken batch and keeps nothing.
    const scan = openInputWith(xxh, log, { name: "00000000000000000000.log" });
    expect(scan.recovery).toMatchObject({ path: "scan", keptBytes: 0, stopsAt: 0, reason: "frame-checksum-mismatch" });
    expect(codes(scan)).toContain("recovery-stops");
  });
  it("index path refuses the boot when the last entry points past the log", () => {
    const log = stamped(0n, 2);
    const index = concat([u64(0n), u64(T), u64(BigInt(log.length + 100))]);
    const o = openInputWith(xxh, log, { name: "00000000000000000000.log", companion: { name: "x.index", bytes: index } });
    expect(o.recovery).toMatchObject({ path: "index", keptBytes: 0, stopsAt: 0, reason: "index-entry-misplaced" });
    expect(o.recovery!.sentence).toMatch(/refuses to boot/);
  });
  it("a segment whose name disagrees recovers as empty without an index", () => {
    const [file] = sample("segment-name-mismatch");
    const o = openInputWith(xxh, file!.bytes, { name: file!.name });
    expect(o.recovery).toMatchObject({ path: "scan", keptBytes: 0, keptMessages: 0, reason: "segment-name-mismatch" });
    expect(o.recovery!.sentence).toMatch(/recovers the segment as empty/);
  });
});

describe("partition directory", () => {
  it("lists foreign, scratch, huge and unreadable files as skipped and goes on", async () => {
    const good = sample("partition");
    const sources: PartitionSource[] = [
      ...good.map((f) => ({ name: f.name, size: f.bytes.length, read: () => Promise.resolve(f.bytes) })),
      { name: "notes.txt", size: 5, read: () => Promise.resolve(new Uint8Array(5)) },
      { name: "00000000000000000009.log.staging", size: 1, read: () => Promise.resolve(new Uint8Array(1)) },
      { name: "00000000000000000100.log", size: 10_000, read: () => Promise.reject(new Error("read error")) },
      { name: "00000000000000000200.log", size: 5_000_000, read: () => Promise.reject(new Error("must not be read")) },
    ];
    const r = await openPartition(sources, { xxh3: xxh, maxFileBytes: 1_000_000 });
    const skipped = Object.fromEntries(r.files.filter((f) => f.skipped).map((f) => [f.name, f.skipped]));
    expect(skipped).toEqual({
      // Names a real segment name, never the spec's template.
      "notes.txt": expect.stringMatching(/^not a segment: .*\b\d{20}\.log\b/),
      "00000000000000000009.log.staging": "a .staging scratch file (deleted at boot)",
      "00000000000000000100.log": "unreadable: read error",
      "00000000000000000200.log": "5000000 bytes, over the 1000000-byte limit of one read",
    });
    expect(r.segments.map((s) => s.name)).toEqual(good.filter((f) => f.name.endsWith(".log")).map((f) => f.name));
    expect(r.summary.errors).toBe(0);
  });
  it("reads one segment at a time: a file is read only after the previous segment's callback", async () => {
    const files = sample("partition");
    const events: string[] = [];
    const sources = files.map((f) => ({
      name: f.name,
      size: f.bytes.length,
      read: () => {
        events.push(`read ${f.name}`);
        return Promise.resolve(f.bytes);
      },
    }));
    await openPartition(sources, {
      xxh3: xxh,
      onFile: (name) => {
        events.push(`done ${name}`);
      },
    });
    // Each segment pair is read (index first, then log), decoded and handed on before the next is read.
    expect(events).toEqual([
      "read 00000000000000000000.index",
      "read 00000000000000000000.log",
      "done 00000000000000000000.log",
      "done 00000000000000000000.index",
      "read 00000000000000000004.index",
      "read 00000000000000000004.log",
      "done 00000000000000000004.log",
      "done 00000000000000000004.index",
    ]);
  });
  it("each diagnostic names its file; the verdict refuses a gap", async () => {
    const files = sample("partition-chain-gap");
    const r = await openPartition(
      files.map((f) => ({ name: f.name, size: f.bytes.length, read: () => Promise.resolve(f.bytes) })),
      { xxh3: xxh },
    );
    expect(r.verdict).toBe("refused");
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: "partition-chain-gap", file: "00000000000000000006.log", start: 8, end: 16 })]);
  });
});

describe("index file alone and with its log", () => {
  it("decodes entries and finds the container field at a byte", () => {
    const [idx, log] = sample("index");
    const o = openInputWith(xxh, idx!.bytes, { name: idx!.name, companion: log });
    expect([...o.entries!].map((e) => [e.offset, e.position])).toEqual([
      [1000n, 0n],
      [1005n, positionOfThird(log!.bytes)],
    ]);
    expect(codes(o)).toEqual([]);
    expect(containerFieldAt(o, idx!.bytes, 40)).toMatchObject({ kind: "index.position", name: "entries[1].position", start: 40, end: 48 });
    expect(containerFieldAt(o, idx!.bytes, 48)).toBeNull();
    const torn = concat([idx!.bytes, new Uint8Array(5)]);
    expect(containerFieldAt(openInputWith(xxh, torn, { name: idx!.name }), torn, 50)).toMatchObject({ kind: "index.trailing", start: 48, end: 53 });
  });
});

function positionOfThird(log: Uint8Array): bigint {
  const v = new DataView(log.buffer, log.byteOffset, log.byteLength);
  const first = v.getBigUint64(32, true);
  return first + v.getBigUint64(Number(first) + 32, true);
}

describe("legacy messages", () => {
  it("converts to a stamped segment that opens clean, one batch per run", () => {
    const [dump] = sample("legacy-messages");
    const o = openInputWith(xxh, dump!.bytes, { name: dump!.name });
    expect(o.legacy!.messages.every((m) => m.check === "verified")).toBe(true);
    expect(containerFieldAt(o, dump!.bytes, 32)).toMatchObject({ kind: "legacy.timestamp", start: 32, end: 40 });
    expect(containerFieldAt(o, dump!.bytes, 64)).toMatchObject({ kind: "legacy.payload", start: 64 });
    expect(containerFieldAt(o, dump!.bytes, o.legacy!.messages[1]!.start + 24)).toMatchObject({
      kind: "legacy.offset",
      value: String(o.legacy!.messages[1]!.offset),
    });
    const seg = legacyToSegment(xxh, dump!.bytes, o.legacy!, 3n);
    const back = openInputWith(xxh, seg, { name: "00000000000000000700.log" });
    expect(back.analysis.diagnostics).toEqual([]);
    expect(back.analysis.batches.map((b) => b.header!.messageCount)).toEqual(o.legacy!.runs.map((r) => r.count));
  });
  it("a stored checksum that disagrees with its rebuilt frame is a frame-checksum-mismatch, a run that cannot be rebuilt is not", () => {
    const [dump] = sample("legacy-messages");
    const bad = dump!.bytes.slice();
    const second = 64 + new DataView(bad.buffer).getUint32(52, true) + new DataView(bad.buffer).getUint32(48, true);
    bad[second + 64]! ^= 1; // a payload byte of message 1, whose run is checkable from message 0
    expect(codes(openInputWith(xxh, bad, { name: "d.bin" }))).toEqual(["frame-checksum-mismatch"]);
    const [tail] = sample("legacy-unverifiable");
    expect(codes(openInputWith(xxh, tail!.bytes, { name: "d.bin" }))).toEqual(["legacy-unverifiable"]);
  });
});

describe("detection", () => {
  it("forcing a format always wins and says so", () => {
    const [file] = sample("poll-reply-body");
    expect(openInputWith(xxh, file!.bytes, { format: "batches" }).detectedBy).toMatch(/^forced/);
    expect(detectFormat(file!.bytes).format).toBe("poll-reply");
  });
  it("a 16-byte resync sentinel is a poll reply; 16 zero bytes are not", () => {
    const sentinel = concat([Uint8Array.of(255, 255, 255, 255), new Uint8Array(12)]);
    expect(detectFormat(sentinel).format).toBe("poll-reply");
    expect(codes(openInputWith(xxh, sentinel))).toEqual([]);
    expect(detectFormat(new Uint8Array(16))).toMatchObject({ format: "batches", recognized: true });
  });
});

describe("partition refusals", () => {
  it("an index pointing past its log refuses the boot, and is not called an empty segment", async () => {
    const log0 = stamped(0n, 2);
    const log2 = stamped(2n, 1, T + 1n);
    const badIndex = concat([u64(0n), u64(T), u64(BigInt(log0.length + 50))]);
    const files = [
      { name: "00000000000000000000.log", bytes: log0 },
      { name: "00000000000000000000.index", bytes: badIndex },
      { name: "00000000000000000002.log", bytes: log2 },
    ];
    const r = await openPartition(
      files.map((f) => ({ name: f.name, size: f.bytes.length, read: () => Promise.resolve(f.bytes) })),
      { xxh3: xxh },
    );
    expect(r.verdict).toBe("refused");
    expect(r.sentence).toMatch(/00000000000000000000\.log: the last index entry's position \d+ starts no whole batch/);
    expect(r.diagnostics.map((d) => [d.code, d.file])).toEqual(
      expect.arrayContaining([
        ["index-entry-misplaced", "00000000000000000000.index"],
        ["recovery-stops", "00000000000000000000.log"],
      ]),
    );
    expect(r.diagnostics.map((d) => d.code)).not.toContain("partition-empty-segment");
  });
});

describe("hex map kinds", () => {
  it("container fields colour the bytes batches leave unattributed, and only those", async () => {
    const { fillKinds, KIND_CODE } = await import("../view/byte-map.ts");
    const { overlayContainerKinds } = await import("../view/byte-kinds.ts");
    const { ALL_BYTE_KINDS } = await import("../../format/fields.ts");
    const [file] = sample("request");
    const o = openInputWith(xxh, file!.bytes, { name: file!.name });
    const out = new Uint8Array(file!.bytes.length);
    fillKinds(o.analysis, file!.bytes, 0, out.length, out, new Uint8Array(out.length));
    overlayContainerKinds(o, file!.bytes, 0, out.length, out);
    const kindAt = (i: number) => ALL_BYTE_KINDS[out[i]!];
    expect(kindAt(48)).toBe("consensus.size");
    expect(kindAt(60)).toBe("consensus.command");
    expect(kindAt(256)).toBe("send.metadata_length");
    const batchStart = o.analysis.batches.start(0);
    expect(kindAt(batchStart)).toBe("batch.partition_id");
    expect(kindAt(batchStart - 1)).toBe("send.messages_count");
    expect([...out].filter((c) => c === KIND_CODE.unattributed)).toEqual([]);
  });
});

describe("legacy runs", () => {
  it("two batches stamped in the same microsecond split into two checked runs, not a mismatch", () => {
    const a = stamped(10n, 2, T);
    const b = stampBatch(xxh, encodeBatch(xxh, { originTimestamp: T - 5n, messages: [{ payload: "x" }, { payload: "y", timestampDelta: 3 }] }), {
      partitionId: 1n,
      baseOffset: 12n,
      baseTimestamp: T,
    });
    const dump = legacyDumpOf([a, b]);
    const o = openInputWith(xxh, dump, { name: "d.bin" });
    expect(codes(o)).toEqual([]);
    expect(o.legacy!.runs.map((r) => [r.first, r.count, r.checkable])).toEqual([
      [0, 2, true],
      [2, 2, true],
    ]);
    // Converted back, each run is its batch again, byte for byte.
    expect(legacyToSegment(xxh, dump, o.legacy!, 1n)).toEqual(concat([a, b]));
  });
});
