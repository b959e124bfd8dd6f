/**
 * The container readers under the fuzzer: for each reader (index, poll, send, consensus, legacy,
 * partition) its seed inputs (the container samples, the golden vectors and the partition fixtures),
 * one mutated case at a time (test/fuzz-inputs.ts's Mutator), decoded by the real reader and checked
 * against the invariants analyze() has (core/walk/analysis-invariants.ts, container mode) plus the
 * container's own: fields, recovery, entries and legacy messages inside the input, the format asked
 * for, and the JSON document written without a throw. Used by scripts/fuzz.ts and test/reader-fuzz.test.ts.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Xxh3 } from "../src/checksum/xxh3.ts";
import { analysisViolations } from "../src/core/walk/analysis-invariants.ts";
import { CONTAINER_SAMPLES, type SampleFile } from "../src/core/samples/container-samples.ts";
import {
  openInputWith,
  openPartition,
  openedJsonChunks,
  partitionJson,
  type FormatName,
  type OpenedInput,
  type PartitionSource,
} from "../src/core/containers/index.ts";
import { prng } from "./helpers.ts";
import { Mutator } from "./fuzz-inputs.ts";

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures/corpus-containers");

/** The readers `npm run fuzz -- --reader NAME` takes (analyze is scripts/fuzz.ts's own). */
export const READERS = ["index", "poll", "send", "consensus", "legacy", "partition"] as const;
export type ReaderName = (typeof READERS)[number];

/** The sentences an opened file of `size` bytes, read as `format`, breaks (empty when sound). */
export function openedViolations(o: OpenedInput, size: number, format: FormatName): string[] {
  const out = analysisViolations(o.analysis, size, 0, true);
  const inside = (what: string, start: number, end: number) => {
    if (!(Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start <= end && end <= size))
      out.push(`${what} ${start}..${end} outside 0..${size}`);
  };
  if (o.format !== format) out.push(`format ${o.format}, asked for ${format}`);
  if (typeof o.detectedBy !== "string" || o.detectedBy === "") out.push("no detectedBy sentence");
  if (o.container) {
    inside("container", o.container.start, o.container.end);
    for (const f of o.container.fields) {
      inside(`field ${f.name}`, f.start, f.end);
      if (typeof f.value !== "string") out.push(`field ${f.name} value is a ${typeof f.value}`);
    }
  }
  const r = o.recovery;
  if (r) {
    if (!(r.keptBytes >= 0 && r.keptBytes <= size)) out.push(`recovery keeps ${r.keptBytes} of ${size} bytes`);
    if (r.stopsAt !== null && !(r.stopsAt >= 0 && r.stopsAt <= size)) out.push(`recovery stops at ${r.stopsAt} of ${size}`);
    if (!(r.keptMessages >= 0)) out.push(`recovery keeps ${r.keptMessages} messages`);
  }
  if (o.entries && o.entries.length !== Math.floor(size / 24)) out.push(`${o.entries.length} index entries in ${size} bytes`);
  if (o.legacy) {
    let prevEnd = 0;
    for (const m of o.legacy.messages) {
      inside(`legacy message ${m.index}`, m.start, m.end);
      if (m.start < prevEnd) out.push(`legacy message ${m.index} starts at ${m.start}, before ${prevEnd}`);
      prevEnd = m.end;
    }
    for (const run of o.legacy.runs)
      if (!(run.first >= 0 && run.count >= 0 && run.first + run.count <= o.legacy.messages.length))
        out.push(`legacy run ${run.first}+${run.count} of ${o.legacy.messages.length} messages`);
  }
  return out;
}

/** Writes the JSON document (without frames, then with) and parses it: a throw or bad JSON is a violation. */
function jsonViolations(o: OpenedInput, bytes: Uint8Array, withFrames: boolean): string[] {
  let text = "";
  for (const chunk of openedJsonChunks(o, bytes, "fuzz.bin", withFrames)) text += chunk;
  try {
    JSON.parse(text);
    return [];
  } catch (err) {
    return [`the JSON document does not parse: ${(err as Error).message}`];
  }
}

/** One case's description and what it broke. */
export interface ReaderCase {
  readonly what: string;
  readonly size: number;
  readonly problems: string[];
  /** The input when it is one small file (to reproduce). */
  readonly bytes?: Uint8Array;
}

const samplesOf = (xxh: Xxh3, formats: readonly FormatName[]): SampleFile[][] =>
  CONTAINER_SAMPLES.filter((s) => formats.includes(s.format)).map((s) => s.build(xxh));

function vector(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES, "vectors", name)));
}

/** Every partition fixture directory's files. */
function partitionFixtures(): SampleFile[][] {
  const root = join(FIXTURES, "partitions");
  return readdirSync(root)
    .filter((d) => statSync(join(root, d)).isDirectory())
    .sort()
    .map((d) =>
      readdirSync(join(root, d))
        .sort()
        .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(root, d, name))) })),
    );
}

/**
 * The fuzzer of one reader: `next()` makes, decodes and checks one case (a partition is async).
 * The same seed gives the same cases on every machine.
 */
export function readerFuzzer(reader: ReaderName, xxh: Xxh3, seed: number): { next(i: number): ReaderCase | Promise<ReaderCase>; seeds: number } {
  const rand = prng(seed ^ 0x5eed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const single = (formats: readonly FormatName[], seeds: Uint8Array[], companions?: (bytes: Uint8Array) => { name: string; bytes: Uint8Array } | undefined) => {
    const mutator = new Mutator(seeds, seed);
    return {
      seeds: seeds.length,
      next(i: number): ReaderCase {
        const { bytes } = mutator.next();
        const format = pick(formats);
        const companion = companions?.(bytes);
        const name = format === "index" ? "00000000000000000000.index" : "fuzz.bin";
        const what = `case ${i}: ${format}${companion ? ` with ${companion.name}` : ""}, ${bytes.length} B`;
        try {
          const o = openInputWith(xxh, bytes, { name, format, companion });
          const problems = openedViolations(o, bytes.length, format);
          // The JSON writer now and then: it reads every field the decode made.
          if (problems.length === 0 && i % 8 === 0) for (const p of jsonViolations(o, bytes, i % 16 === 0)) problems.push(p);
          return { what, size: bytes.length, problems, bytes };
        } catch (err) {
          return { what, size: bytes.length, problems: [`threw ${(err as Error).stack ?? String(err)}`], bytes };
        }
      },
    };
  };
  switch (reader) {
    case "index": {
      const pairs = [...samplesOf(xxh, ["index"]), ...partitionFixtures()].flatMap((files) =>
        files
          .filter((f) => f.name.endsWith(".index"))
          .map((index) => ({ index: index.bytes, log: files.find((f) => f.name === index.name.replace(/\.index$/, ".log")) })),
      );
      const logs = pairs.flatMap((p) => (p.log ? [p.log] : []));
      const logMutator = new Mutator(
        logs.map((l) => l.bytes),
        seed + 1,
      );
      return single(
        ["index"],
        pairs.map((p) => p.index),
        () => {
          const r = rand();
          // Beside a real log, a mutated one, or none.
          if (r < 0.4) return { name: "00000000000000000000.log", bytes: pick(logs).bytes };
          if (r < 0.7) return { name: "00000000000000000000.log", bytes: logMutator.next().bytes };
          return undefined;
        },
      );
    }
    case "poll":
      return single(["poll-reply"], [...samplesOf(xxh, ["poll-reply"]).map((f) => f[0]!.bytes), vector("golden-poll-body.bin")]);
    case "send":
      return single(["send-messages"], [...samplesOf(xxh, ["send-messages"]).map((f) => f[0]!.bytes), vector("golden-send-messages-body.bin")]);
    case "consensus":
      return single(
        ["request", "reply", "prepare"],
        samplesOf(xxh, ["request", "reply", "prepare"]).map((f) => f[0]!.bytes),
      );
    case "legacy":
      return single(
        ["legacy-messages"],
        samplesOf(xxh, ["legacy-messages"]).map((f) => f[0]!.bytes),
      );
    case "partition":
      return partitionFuzzer(xxh, seed, rand);
  }
}

/** Partition directories: a file's bytes mutated, files renamed, dropped, duplicated or added; each file then checked as it is opened. */
function partitionFuzzer(xxh: Xxh3, seed: number, rand: () => number): { next(i: number): Promise<ReaderCase>; seeds: number } {
  const dirs = [...samplesOf(xxh, ["partition"]), ...partitionFixtures()];
  const allBytes = dirs.flatMap((d) => d.map((f) => f.bytes));
  const mutator = new Mutator(allBytes, seed);
  const int = (n: number) => Math.floor(rand() * n);
  const nameOf = (start: bigint, ext: string) => `${start.toString().padStart(20, "0")}.${ext}`;
  return {
    seeds: dirs.length,
    async next(i: number): Promise<ReaderCase> {
      const files = dirs[int(dirs.length)]!.map((f) => ({ ...f }));
      const steps = 1 + int(3);
      for (let s = 0; s < steps; s++) {
        const k = int(files.length);
        const f = files[k];
        const r = rand();
        if (!f || r < 0.5) {
          // A file's bytes from the mutator (any seed file, mutated), under this file's name.
          if (f) files[k] = { name: f.name, bytes: mutator.next().bytes };
        } else if (r < 0.65) {
          const m = /^(\d+)\.(log|index)$/.exec(f.name);
          const start = m ? BigInt(m[1]!) : 0n;
          const moved = [0n, start + 1n, start - 1n > 0n ? start - 1n : 0n, 18446744073709551615n, 99999999999999999999n][int(5)]!;
          files[k] = { name: nameOf(moved, m?.[2] ?? "log"), bytes: f.bytes };
        } else if (r < 0.75) files.splice(k, 1);
        else if (r < 0.85) files.push({ name: f.name.replace(/\.(log|index)$/, ".$1.staging"), bytes: f.bytes });
        else if (r < 0.95) files.push({ name: nameOf(BigInt(int(5000)), rand() < 0.5 ? "log" : "index"), bytes: mutator.next().bytes });
        else files.push({ name: "notes.txt", bytes: f.bytes });
      }
      // Names are unique in a directory.
      const seen = new Set<string>();
      const unique = files.filter((f) => !seen.has(f.name) && seen.add(f.name));
      const size = unique.reduce((n, f) => n + f.bytes.length, 0);
      const what = `case ${i}: partition of ${unique.map((f) => `${f.name} (${f.bytes.length} B)`).join(", ")}`;
      const problems: string[] = [];
      try {
        const sources: PartitionSource[] = unique.map((f) => ({ name: f.name, size: f.bytes.length, read: () => Promise.resolve(f.bytes) }));
        const sizes = new Map(unique.map((f) => [f.name, f.bytes.length]));
        const summed = { batches: 0, frames: 0, errors: 0, warnings: 0, infos: 0 };
        const result = await openPartition(sources, {
          xxh3: xxh,
          onFile: (name, opened) => {
            const fileSize = sizes.get(name) ?? -1;
            for (const p of openedViolations(opened, fileSize, opened.format === "index" ? "index" : "segment")) problems.push(`${name}: ${p}`);
            for (const k of Object.keys(summed) as (keyof typeof summed)[]) summed[k] += opened.analysis.summary[k];
          },
        });
        // Findings about the directory itself (partition-no-segments) name it as "." and belong to no file.
        for (const d of result.diagnostics) if (d.file === ".") summed[d.severity === "error" ? "errors" : d.severity === "warning" ? "warnings" : "infos"]++;
        for (const k of Object.keys(summed) as (keyof typeof summed)[])
          if (result.summary[k] !== summed[k]) problems.push(`partition summary ${k} ${result.summary[k]}, files sum to ${summed[k]}`);
        if (result.files.length !== unique.length) problems.push(`${result.files.length} files listed of ${unique.length}`);
        for (const d of result.diagnostics) {
          if (d.file === ".") {
            if (d.code !== "partition-no-segments") problems.push(`${d.code} names the directory, not a file`);
            continue;
          }
          const fileSize = sizes.get(d.file);
          if (fileSize === undefined) problems.push(`a diagnostic names file ${d.file}, not in the directory`);
          else if (!(0 <= d.start && d.start <= d.end && d.end <= fileSize)) problems.push(`${d.file}: ${d.code} ${d.start}..${d.end} outside 0..${fileSize}`);
        }
        for (let k = 1; k < result.segments.length; k++)
          if (result.segments[k]!.startOffset < result.segments[k - 1]!.startOffset) problems.push(`segments out of start-offset order at ${k}`);
        if (result.verdict !== "ok" && result.verdict !== "refused") problems.push(`verdict ${String(result.verdict)}`);
        let text = "";
        for (const chunk of partitionJson.close(result, 0)) text += chunk;
        if (!text.includes('"partition"')) problems.push("the partition document has no partition object");
      } catch (err) {
        problems.push(`threw ${(err as Error).stack ?? String(err)}`);
      }
      return { what, size, problems };
    },
  };
}
