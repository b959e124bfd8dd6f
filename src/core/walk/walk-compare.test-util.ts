/**
 * What the walk-comparison tests share: every kernel route (analyze() in the kernel, small windows,
 * without frame columns, ranges merged as a worker pool would) checked against the frame-by-frame
 * reference walk (test/reference-walk.ts, hash-wasm), and a generator of seeded random, mutated and cut segments.
 */
import { expect } from "vitest";
import { analyzeWith, type AnalyzeOptions } from "./analyze.ts";
import { analyzeSource, memorySource, type RangePlan } from "./stream-analyze.ts";
import { RangeCutter } from "./range-cuts.ts";
import { walkRange } from "./range-walk.ts";
import { mergeRanges } from "./range-merge.ts";
import { shiftRangeBatches } from "./range-shift.ts";
import { contractJsonChunks } from "../model/contract-json.ts";
import { encodeBatch, stampBatch, type MessageSpec } from "./encode.ts";
import type { Analysis } from "../model/model.ts";
import { DIAGNOSTIC_CODES } from "../../format/diagnostics.ts";
import { referenceAnalyze, referenceXxh3 } from "../../../test/reference-walk.ts";
import { createWasmKernel } from "../../checksum/kernel/wasm-kernel.ts";
import { concat } from "../../../test/helpers.ts";
import { SAMPLES } from "../samples/samples.ts";

/** The reference walk's XXH3 (hash-wasm, not our kernel). */
export const reference = referenceXxh3;
/** Our wasm kernel. */
export const kernel = await createWasmKernel();
/** The public corpus, as the unit tests see it. */
export const CORPUS = new URL("../../../test/fixtures/corpus/", import.meta.url);
// The samples menu holds one input per code (samples.test.ts): mixed into the random rounds, a new code
// with its sample is walked both ways without a line here.
export const SAMPLE_BYTES = SAMPLES.filter((s) => !s.envelope).map((s) => s.build(reference));

/** Everything but the frame columns, for analyses built without them. */
const withoutFrames = ({ frames: _frames, ...rest }: Analysis): Omit<Analysis, "frames"> => rest;

const json = (a: Analysis, bytes: Uint8Array, frames: boolean): string => [...contractJsonChunks(a, bytes, "x", frames)].join("");

/** Asserts every kernel route equals the reference for these bytes and options. */
export function expectSameEverywhere(
  bytes: Uint8Array,
  label: string,
  startOffset = 0,
  maxDiagnostics?: number,
  dropFinding?: AnalyzeOptions["dropFinding"],
): Analysis {
  const options = { startOffset, maxDiagnostics, dropFinding };
  const want = referenceAnalyze(bytes, options);
  expect(analyzeWith(kernel, bytes, options), `${label}: analyze() in the kernel`).toEqual(want);
  expect(analyzeSource(kernel, memorySource(bytes), { ...options, windowBytes: 300 }), `${label}: 300-byte windows`).toEqual(want);
  const lean = analyzeSource(kernel, memorySource(bytes), { ...options, keepFrames: false, windowBytes: 1000 });
  expect(withoutFrames(lean), `${label}: without frame columns`).toEqual(withoutFrames(want));
  expect(json(lean, new Uint8Array(0), false), `${label}: JSON without frames`).toBe(json(want, bytes, false));
  for (const parts of [2, 3, 7]) {
    const source = memorySource(bytes);
    // The pools' cutter, aiming at `parts` ranges of about equal bytes.
    const planRanges = (): RangePlan[] => {
      const cutter = new RangeCutter(source, startOffset, Math.max(1, Math.ceil((bytes.length - startOffset) / parts)));
      const out: RangePlan[] = [];
      for (let r = cutter.next(); r; r = cutter.next()) out.push(r);
      return out;
    };
    const max = maxDiagnostics ?? 200_000;
    const ranges = planRanges().map((p) => walkRange(kernel, source, { ...p, keepFrames: true, maxDiagnostics: max, windowBytes: 512, dropFinding }));
    expect(mergeRanges(bytes.length, ranges, max, dropFinding), `${label}: ${parts} ranges merged`).toEqual(want);
    // As the page's parallel streams walk them: each range from batch 0, renumbered once the batches before it are counted.
    const renumbered = planRanges().map((p) =>
      shiftRangeBatches(walkRange(kernel, source, { ...p, firstBatch: 0, keepFrames: true, maxDiagnostics: max, windowBytes: 512, dropFinding }), p.firstBatch),
    );
    expect(mergeRanges(bytes.length, renumbered, max, dropFinding), `${label}: ${parts} ranges walked from batch 0, renumbered`).toEqual(want);
  }
  return want;
}

// Valid TLV (string key "color" → string "red"; bool; u16), and blocks that break one rule each.
const USER_HEADER_BLOCKS = [
  "0205000000636f6c6f720203000000726564",
  "02010000006b030100000001",
  "02010000006b0a020000003412",
  "ff00",
  "0205000000636f6c6f72",
  "02010000006b030100000002",
  "02010000006b0a0300000034120a",
  "0200000000",
  "0201000000",
].map((hex) => new Uint8Array(hex.match(/../g)!.map((h) => parseInt(h, 16))));

/** The batch decoder's codes: the spec's table lists them before the containers' (diagnostics.ts). */
export const BATCH_CODES = DIAGNOSTIC_CODES.slice(0, DIAGNOSTIC_CODES.indexOf("segment-name-mismatch"));

/** The containers' rules (segment, poll reply, SendMessages) as dropFinding functions. */
export const DROP_RULES: AnalyzeOptions["dropFinding"][] = [
  (code) => code === "offset-discontinuity",
  (code, stamped) => stamped && code === "origin-not-earliest",
  (code) => code === "empty-batch",
];

/** A seeded random segment: stamped and producer batches of several partitions with samples mixed in, then mutated, cut or extended. */
export function randomSegment(int: (n: number) => number): Uint8Array {
  const batches: Uint8Array[] = [];
  const offsets = [0n, 0n, 0n];
  for (let b = 0, nb = 1 + int(6); b < nb; b++) {
    const messages: MessageSpec[] = Array.from({ length: int(5) }, (_, k) => ({
      payload: new Uint8Array(int(3) === 0 ? int(600) : int(40)).map(() => int(256)),
      timestampDelta: int(3) === 0 ? 5 + k : k,
      userHeaders: int(4) === 0 ? USER_HEADER_BLOCKS[int(USER_HEADER_BLOCKS.length)] : undefined,
    }));
    const producer = encodeBatch(reference, { originTimestamp: 1_700_000_000_000_000n, messages });
    const partition = BigInt(int(3));
    const stamped =
      int(4) === 0
        ? producer
        : stampBatch(reference, producer, {
            partitionId: partition,
            baseOffset: offsets[Number(partition)]! + BigInt(int(8) === 0 ? 5 : 0),
            baseTimestamp: 1_800_000_000_000_000n + BigInt(b * 1000 - (int(8) === 0 ? 5000 : 0)),
          });
    offsets[Number(partition)]! += BigInt(messages.length);
    batches.push(stamped);
    if (int(4) === 0) batches.push(SAMPLE_BYTES[int(SAMPLE_BYTES.length)]!);
  }
  let bytes = concat(batches);
  for (let m = 0, nm = int(4); m < nm; m++) {
    const at = int(bytes.length);
    const kind = int(4);
    if (kind === 0) bytes[at] = int(256);
    else if (kind === 1) bytes = bytes.slice(0, at);
    else if (kind === 2 && bytes.length > 40) new DataView(bytes.buffer).setUint32(Math.max(0, at - 4) & ~3, int(3) === 0 ? 0xffffffff : int(1000), true);
    else bytes = concat([bytes, new Uint8Array(int(300)).map(() => int(256))]);
  }
  return bytes;
}
