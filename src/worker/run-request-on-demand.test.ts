/**
 * The worker's on-demand paths on real files, with a FileReaderSync stand-in (Node has none): a
 * File opened on demand replies without bytes and with the analysis the whole-file path gives, and a
 * partition streams each .log instead of reading it (same result, and the whole-file read never runs).
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { FromWorker, ToWorker } from "./protocol.ts";
import { runRequest } from "./run-request.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures");

// A Blob whose bytes a synchronous reader can reach, and which counts reads of it whole into one buffer
// (arrayBuffer() of the file itself, not of a slice); streaming it (stream(), slices) is not such a read.
class HeldBlob extends Blob {
  static wholeReads = 0;
  static streams = 0;
  constructor(
    readonly held: Uint8Array,
    readonly isSlice = false,
  ) {
    super([held as Uint8Array<ArrayBuffer>]);
  }
  override slice(start = 0, end = this.held.length): Blob {
    return new HeldBlob(this.held.subarray(start, Math.min(end, this.held.length)), true);
  }
  override stream(): ReturnType<Blob["stream"]> {
    HeldBlob.streams++;
    return super.stream();
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    if (!this.isSlice) HeldBlob.wholeReads++;
    return super.arrayBuffer();
  }
}

class FakeFileReaderSync {
  readAsArrayBuffer(blob: Blob): ArrayBuffer {
    const held = (blob as HeldBlob).held;
    return held.slice().buffer;
  }
}

async function run(request: ToWorker): Promise<FromWorker[]> {
  const out: FromWorker[] = [];
  await runRequest(request, (m) => out.push(m));
  return out;
}

const withReader = (on: boolean) => {
  (globalThis as { FileReaderSync?: unknown }).FileReaderSync = on ? FakeFileReaderSync : undefined;
};

describe("the worker on demand", () => {
  beforeEach(() => {
    HeldBlob.wholeReads = 0;
  });
  afterEach(() => withReader(false));

  const segment = path.join(FIXTURES, "corpus-containers/partitions/torn-tail");
  const logName = readdirSync(segment).find((n) => n.endsWith(".log"))!;
  const logBytes = new Uint8Array(readFileSync(path.join(segment, logName)));

  test("a segment opened on demand replies without bytes, with the whole-file analysis, never reading it whole", async () => {
    withReader(false);
    const whole = (await run({ type: "analyze", id: 1, input: new HeldBlob(logBytes), format: "auto", name: logName, onDemand: true })).at(-1)!;
    expect(whole).toMatchObject({ type: "result" });
    if (whole.type !== "result") return;
    expect(whole.buffer?.byteLength).toBe(logBytes.length);
    withReader(true);
    HeldBlob.wholeReads = 0;
    const streamed = (await run({ type: "analyze", id: 2, input: new HeldBlob(logBytes), format: "auto", name: logName, onDemand: true })).at(-1)!;
    expect(streamed).toMatchObject({ type: "result", buffer: null });
    if (streamed.type !== "result") return;
    expect(HeldBlob.wholeReads).toBe(0);
    expect(streamed.meta).toEqual(whole.meta);
    expect(streamed.analysis.diagnostics).toEqual(whole.analysis.diagnostics);
    expect(streamed.analysis.frames).toEqual(whole.analysis.frames);
  });

  test("without onDemand the File is read whole as before", async () => {
    withReader(true);
    const reply = (await run({ type: "analyze", id: 3, input: new HeldBlob(logBytes), format: "auto", name: logName })).at(-1)!;
    expect(reply).toMatchObject({ type: "result" });
    if (reply.type === "result") expect(reply.buffer?.byteLength).toBe(logBytes.length);
  });

  const partitions = path.join(FIXTURES, "corpus-containers/partitions");
  const dirs = readdirSync(partitions, { withFileTypes: true }).filter((d) => d.isDirectory());
  test.each(dirs.map((d) => d.name))("partition %s: each .log streams, with the result of reading them whole", async (dir) => {
    const files = () =>
      readdirSync(path.join(partitions, dir))
        .sort()
        .map((name) => ({ name, input: new HeldBlob(new Uint8Array(readFileSync(path.join(partitions, dir, name)))) }));
    withReader(false);
    const whole = (await run({ type: "partition", id: 4, files: files() })).at(-1)!;
    withReader(true);
    HeldBlob.wholeReads = 0;
    const streamed = (await run({ type: "partition", id: 5, files: files() })).at(-1)!;
    expect(streamed.type).toBe("partition-result");
    expect(streamed).toEqual({ ...whole, id: 5 });
    // Only the small .index files (and foreign files) are read whole.
    const logs = files().filter((f) => f.name.endsWith(".log")).length;
    expect(HeldBlob.wholeReads).toBeLessThanOrEqual(files().length - logs);
  });

  test("the segment a partition shows first is not walked again when it is opened, and opens as a fresh walk would", async () => {
    withReader(true);
    const dir = path.join(partitions, "healthy");
    const names = readdirSync(dir).sort();
    const held = new Map(names.map((name) => [name, new HeldBlob(new Uint8Array(readFileSync(path.join(dir, name))))]));
    const partition = (await run({ type: "partition", id: 6, files: names.map((name) => ({ name, input: held.get(name)! })) })).at(-1)!;
    if (partition.type !== "partition-result") throw new Error(`no partition result: ${partition.type}`);
    const first = partition.result.segments[0]!.name;
    const open = (id: number) => run({ type: "analyze", id, input: held.get(first)!, format: "auto", name: first, onDemand: true });
    HeldBlob.streams = 0;
    const handed = (await open(7)).at(-1)!;
    expect(HeldBlob.streams, "no stream of the file read again").toBe(0);
    const fresh = (await open(8)).at(-1)!;
    expect(HeldBlob.streams, "a second open walks it").toBeGreaterThan(0);
    expect(handed).toEqual({ ...fresh, id: 7 });
    // Any other request in between lets the kept walk go: the open walks the file.
    await run({ type: "partition", id: 9, files: names.map((name) => ({ name, input: held.get(name)! })) });
    await run({ type: "analyze", id: 10, input: new Uint8Array(0).buffer, format: "auto", name: "x.bin" });
    HeldBlob.streams = 0;
    await open(11);
    expect(HeldBlob.streams).toBeGreaterThan(0);
  });
  test("a 64 MiB .index of zeros is read in pages, never whole: as the partition's file, alone, and as a segment's companion, with the result of reading it whole", async () => {
    const dir = path.join(partitions, "healthy");
    const log = readdirSync(dir).find((n) => n.endsWith(".log"))!;
    const indexName = log.replace(/\.log$/, ".index");
    const logBlob = new HeldBlob(new Uint8Array(readFileSync(path.join(dir, log))));
    const index = new HeldBlob(new Uint8Array(64 << 20));
    const both = (id: number) =>
      run({
        type: "partition",
        id,
        files: [
          { name: log, input: logBlob },
          { name: indexName, input: index },
        ],
      });
    const alone = (id: number) => run({ type: "analyze", id, input: index, format: "auto", name: indexName, onDemand: true });
    const withCompanion = (id: number) => run({ type: "analyze", id, input: logBlob, format: "auto", name: log, companion: { name: indexName, input: index } });
    withReader(false);
    const whole = [(await both(1)).at(-1)!, (await alone(2)).at(-1)!, (await withCompanion(3)).at(-1)!];
    withReader(true);
    // Reads of the index File itself, whole or as one stream (slices of it are pages).
    let indexReads = 0;
    index.arrayBuffer = () => Promise.reject(new Error(`read whole (${++indexReads})`));
    index.stream = () => {
      throw new Error(`streamed whole (${++indexReads})`);
    };
    const paged = [(await both(1)).at(-1)!, (await alone(2)).at(-1)!, (await withCompanion(3)).at(-1)!];
    expect(indexReads, "the index is never read whole").toBe(0);
    expect(paged[0]).toEqual(whole[0]);
    expect(paged[2]).toEqual(whole[2]);
    // Alone, the index crosses without its bytes and without its entries (the page reads them from the File), else the same.
    const [a, b] = [whole[1]!, paged[1]!];
    if (a.type !== "result" || b.type !== "result") throw new Error(`no results: ${a.type} ${b.type}`);
    expect(b.buffer).toBeNull();
    expect(b.meta?.entries).toBeNull();
    expect(a.meta?.entries?.length).toBe((64 << 20) - ((64 << 20) % 24));
    expect({ ...b.meta, entries: null }).toEqual({ ...a.meta, entries: null });
    expect(b.analysis).toEqual(a.analysis);
    // The cross-check found a finding per entry, capped: the partition's count is every one of them.
    if (paged[0]!.type !== "partition-result") throw new Error("no partition result");
    expect(paged[0]!.result.summary.errors).toBeGreaterThanOrEqual(Math.floor((64 << 20) / 24));
  });
});
