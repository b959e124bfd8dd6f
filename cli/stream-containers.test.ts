/**
 * Segments and partition directories streamed through the kernel print exactly what the whole-file
 * path prints (text, and JSON without frames): every partition of the container corpus, per file and
 * as a directory, and seeded mutations of them (names that mismatch, gaps, torn tails, index faults).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectDirectory, inspectOne } from "./containers.ts";
import { inspectStreamed } from "./inspect-input.ts";
import { prng } from "../test/helpers.ts";

const CORPUS = new URL("../test/fixtures/corpus-containers/partitions/", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "iggy-stream-seg-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Output and status of one inspect run. */
async function run(go: (write: (chunks: Iterable<string>) => Promise<void>) => Promise<number | null>): Promise<{ out: string; status: number | null }> {
  let out = "";
  const status = await go((chunks) => {
    for (const c of chunks) out += c;
    return Promise.resolve();
  });
  return { out, status };
}

/** Every file and the directory itself, streamed and whole, text and JSON without frames; returns the codes seen. */
async function expectSame(dir: string, label: string): Promise<Set<string>> {
  const codes = new Set<string>();
  for (const json of [false, true]) {
    const whole = await run((w) => inspectDirectory(w, dir, json, false, false));
    const streamed = await run((w) => inspectDirectory(w, dir, json, false));
    expect(streamed, `${label}: directory, json ${json}`).toEqual(whole);
    if (json) for (const d of JSON.parse(whole.out).diagnostics as { code: string }[]) codes.add(d.code);
    for (const name of readdirSync(dir).filter((n) => n.endsWith(".log") || n.endsWith(".index"))) {
      const path = join(dir, name);
      const bytes = new Uint8Array(readFileSync(path));
      const ref = await run((w) => inspectOne(w, bytes, path, "auto", json, false));
      const got = await run((w) => inspectStreamed(w, path, "auto", json, false));
      expect(got, `${label}/${name}: json ${json}`).toEqual(ref);
    }
  }
  return codes;
}

describe("streamed segments equal the whole-file path", () => {
  const partitions = readdirSync(CORPUS).filter((n) => statSync(join(CORPUS, n)).isDirectory());

  it("on every partition of the container corpus, per file and as a directory", async () => {
    expect(partitions.length).toBeGreaterThanOrEqual(7);
    const codes = new Set<string>();
    for (const p of partitions) for (const c of await expectSame(join(CORPUS, p), p)) codes.add(c);
    // The corpus reaches the segment rules the streamed path re-implements from headers.
    for (const c of [
      "segment-name-mismatch",
      "segment-offset-gap",
      "recovery-stops",
      "index-entry-misplaced",
      "partition-chain-gap",
      "partition-empty-segment",
    ])
      expect(codes).toContain(c);
    expect(codes).not.toContain("offset-discontinuity");
  });

  it("on seeded mutations: renamed, cut, flipped and spliced segments, corrupted and cut indexes", async () => {
    const rand = prng(20251202);
    const int = (n: number): number => Math.floor(rand() * n);
    const codes = new Set<string>();
    for (let round = 0; round < 40; round++) {
      const from = join(CORPUS, partitions[round % partitions.length] as string);
      const dir = join(work, `round-${round}`);
      mkdirSync(dir);
      for (const n of readdirSync(from)) copyFileSync(join(from, n), join(dir, n));
      const files = readdirSync(dir);
      for (let m = 0, nm = 1 + int(3); m < nm; m++) {
        const name = files[int(files.length)] as string;
        const path = join(dir, name);
        let bytes: Uint8Array = new Uint8Array(readFileSync(path));
        const kind = int(5);
        if (kind === 0 && name.endsWith(".log")) {
          // A name that no longer matches the first base_offset.
          renameSync(path, join(dir, `${String(BigInt(name.slice(0, 20)) + BigInt(1 + int(5))).padStart(20, "0")}.log`));
          files.splice(files.indexOf(name), 1);
          continue;
        }
        if (kind === 1 && bytes.length > 0) bytes = bytes.slice(0, int(bytes.length));
        else if (kind === 2 && bytes.length > 0) bytes[int(bytes.length)] = int(256);
        else if (kind === 3 && name.endsWith(".log") && bytes.length > 600) {
          // Splice out a run of bytes: batches go missing (a gap) or a header lands mid-batch.
          const at = int(bytes.length - 300);
          bytes = new Uint8Array([...bytes.subarray(0, at), ...bytes.subarray(at + 1 + int(400))]);
        } else if (name.endsWith(".index") && bytes.length >= 24) {
          new DataView(bytes.buffer).setBigUint64(24 * int(bytes.length / 24) + 8 * int(3), BigInt(int(5000)), true);
        }
        writeFileSync(path, bytes);
      }
      for (const c of await expectSame(dir, `round ${round}`)) codes.add(c);
    }
    for (const c of [
      "segment-name-mismatch",
      "segment-offset-gap",
      "recovery-stops",
      "index-entry-mismatch",
      "index-entry-misplaced",
      "batch-checksum-mismatch",
    ])
      expect(codes).toContain(c);
  });
});
