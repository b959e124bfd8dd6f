/**
 * `npm run fuzz [-- --count N --seed S --reader NAME]`: mutated inputs through the decoders, each
 * checked against core/walk/analysis-invariants.ts: `analyze` (the batch decoder, mutated corpus files) and
 * every container reader of test/reader-fuzz.ts (index, poll, send, consensus, legacy, partition) and the
 * capture reader (test/fuzz-capture.ts: mutated pcap/pcapng captures), all
 * by default, N inputs each. Prints inputs per second and every failure (with the seed and case number
 * that reproduce it, and the input as base64 when small), and exits 1 on any failure.
 */
import { parseArgs } from "node:util";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { analyzeWith } from "../src/core/walk/analyze.ts";
import { analysisViolations } from "../src/core/walk/analysis-invariants.ts";
import { loadCorpus, Mutator } from "../test/fuzz-inputs.ts";
import { READERS, readerFuzzer, type ReaderCase } from "../test/reader-fuzz.ts";
import { captureFuzzer } from "../test/fuzz-capture.ts";

const NAMES = ["analyze", ...READERS, "capture"] as const;
const USAGE = `usage: npm run fuzz -- [--count N] [--seed S] [--reader ${NAMES.join("|")}]   (defaults: 100000 inputs per reader, seed 1, every reader)`;

type Xxh = Awaited<ReturnType<typeof loadXxh3>>;

/** The analyze() fuzzer's case maker: mutated corpus files, from an envelope's length sometimes. */
function analyzeFuzzer(xxh: Xxh, seed: number): { next(i: number): ReaderCase; seeds: number } {
  const corpus = loadCorpus();
  const mutator = new Mutator(corpus, seed);
  return {
    seeds: corpus.length,
    next(i) {
      const { bytes, startOffset } = mutator.next();
      const what = `case ${i}: ${bytes.length} B from ${startOffset}`;
      try {
        return { what, size: bytes.length, bytes, problems: analysisViolations(analyzeWith(xxh, bytes, { startOffset }), bytes.length, startOffset) };
      } catch (err) {
        return { what, size: bytes.length, bytes, problems: [`threw ${(err as Error).stack ?? String(err)}`] };
      }
    },
  };
}

async function run(name: (typeof NAMES)[number], xxh: Xxh, count: number, seed: number): Promise<number> {
  const fuzzer = name === "analyze" ? analyzeFuzzer(xxh, seed) : name === "capture" ? captureFuzzer(xxh, seed) : readerFuzzer(name, xxh, seed);
  let failures = 0;
  let bytesTotal = 0;
  const t0 = performance.now();
  let nextReport = t0 + 10_000;
  for (let i = 0; i < count; i++) {
    const c = await fuzzer.next(i);
    bytesTotal += c.size;
    if (c.problems.length) {
      failures++;
      if (failures <= 20) {
        console.log(`FAIL ${name} seed ${seed} ${c.what}: ${c.problems.slice(0, 5).join("; ")}`);
        if (c.bytes && c.bytes.length <= 4096) console.log(`  input (base64): ${Buffer.from(c.bytes).toString("base64")}`);
      }
    }
    const now = performance.now();
    if (now >= nextReport) {
      console.log(
        `… ${name}: ${(i + 1).toLocaleString("en-US")} inputs, ${Math.round(((i + 1) * 1000) / (now - t0)).toLocaleString("en-US")}/s, ${failures} failures`,
      );
      nextReport = now + 10_000;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `fuzz ${name}: ${count.toLocaleString("en-US")} inputs (seed ${seed}, ${fuzzer.seeds} seed inputs, ${(bytesTotal / 2 ** 20).toFixed(1)} MiB) in ${seconds.toFixed(1)} s: ` +
      `${Math.round(count / seconds).toLocaleString("en-US")} inputs/s, ${failures} failure${failures === 1 ? "" : "s"}`,
  );
  return failures;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      count: { type: "string", default: "100000" },
      seed: { type: "string", default: "1" },
      reader: { type: "string", multiple: true },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const count = Number(values.count);
  const seed = Number(values.seed);
  const readers = values.reader ?? [...NAMES];
  if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(seed) || readers.some((r) => !(NAMES as readonly string[]).includes(r))) {
    console.error(USAGE);
    return 2;
  }
  const xxh = await loadXxh3();
  let failures = 0;
  for (const r of readers) failures += await run(r as (typeof NAMES)[number], xxh, count, seed);
  return failures ? 1 : 0;
}

process.exitCode = await main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  return 2;
});
