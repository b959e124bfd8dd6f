/**
 * `npm run fuzz [-- --count N --seed S]`: mutated corpus inputs through analyze(), each checked
 * against core/analysis-invariants.ts; prints inputs per second and every failure (with the seed and
 * case number that reproduce it, and the input as base64 when small), and exits 1 on any failure.
 */
import { parseArgs } from "node:util";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { analyzeWith } from "../src/core/analyze.ts";
import { analysisViolations } from "../src/core/analysis-invariants.ts";
import { loadCorpus, Mutator } from "../test/fuzz-inputs.ts";

const USAGE = "usage: npm run fuzz -- [--count N] [--seed S]   (defaults: 100000 inputs, seed 1)";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { count: { type: "string", default: "100000" }, seed: { type: "string", default: "1" }, help: { type: "boolean", short: "h", default: false } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const count = Number(values.count);
  const seed = Number(values.seed);
  if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(seed)) {
    console.error(USAGE);
    return 2;
  }
  const xxh = await loadXxh3();
  const corpus = loadCorpus();
  const mutator = new Mutator(corpus, seed);
  let failures = 0;
  let bytesTotal = 0;
  const t0 = performance.now();
  let nextReport = t0 + 10_000;
  for (let i = 0; i < count; i++) {
    const { bytes, startOffset } = mutator.next();
    bytesTotal += bytes.length;
    let problems: string[];
    try {
      problems = analysisViolations(analyzeWith(xxh, bytes, { startOffset }), bytes.length, startOffset);
    } catch (err) {
      problems = [`threw ${(err as Error).stack ?? String(err)}`];
    }
    if (problems.length) {
      failures++;
      if (failures <= 20) {
        console.log(`FAIL seed ${seed} case ${i}: ${bytes.length} B from ${startOffset}: ${problems.join("; ")}`);
        if (bytes.length <= 4096) console.log(`  input (base64): ${Buffer.from(bytes).toString("base64")}`);
      }
    }
    const now = performance.now();
    if (now >= nextReport) {
      console.log(`… ${(i + 1).toLocaleString("en-US")} inputs, ${Math.round(((i + 1) * 1000) / (now - t0)).toLocaleString("en-US")}/s, ${failures} failures`);
      nextReport = now + 10_000;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `fuzz: ${count.toLocaleString("en-US")} inputs (seed ${seed}, ${corpus.length} corpus files, ${(bytesTotal / 2 ** 20).toFixed(1)} MiB) in ${seconds.toFixed(1)} s: ` +
      `${Math.round(count / seconds).toLocaleString("en-US")} inputs/s, ${failures} failure${failures === 1 ? "" : "s"}`,
  );
  return failures ? 1 : 0;
}

process.exitCode = await main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  return 2;
});
