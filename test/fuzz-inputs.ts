/**
 * Seeded mutations of the public corpus for the decoder fuzzers (test/fuzz.test.ts, scripts/fuzz.ts):
 * bit flips, interesting values written over length and count fields, truncation, splices between
 * files, duplicated and deleted runs. The same seed gives the same inputs on every machine.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { prng } from "./helpers.ts";

/** The corpus files' bytes, in name order. */
export function loadCorpus(dir = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures/corpus")): Uint8Array[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith(".bin"))
    .sort()
    .map((n) => new Uint8Array(readFileSync(join(dir, n))));
}

/** One fuzz case: the bytes and where analysis starts (an envelope's length, sometimes). */
export interface FuzzCase {
  readonly bytes: Uint8Array;
  readonly startOffset: number;
}

const U32_VALUES = [0, 1, 7, 47, 48, 49, 255, 256, 257, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];
const U64_VALUES = [0n, 1n, 255n, 256n, 257n, 304n, (1n << 31n) - 1n, 1n << 32n, (1n << 53n) + 1n, 1n << 63n, (1n << 64n) - 1n];

/** Makes cases from the corpus with the PRNG; each call mutates a random corpus file 1–4 times. */
export class Mutator {
  private readonly rand: () => number;

  constructor(
    private readonly corpus: readonly Uint8Array[],
    seed: number,
  ) {
    if (corpus.length === 0) throw new Error("empty corpus");
    this.rand = prng(seed);
  }

  /** The next case. */
  next(): FuzzCase {
    let bytes: Uint8Array = this.pick().slice();
    const steps = 1 + this.int(4);
    for (let i = 0; i < steps; i++) bytes = this.mutate(bytes);
    const r = this.rand();
    const startOffset = r < 0.8 ? 0 : r < 0.9 ? 16 : r < 0.95 ? 256 : this.int(bytes.length + 8);
    return { bytes, startOffset };
  }

  private int(n: number): number {
    return Math.floor(this.rand() * n);
  }

  private pick(): Uint8Array {
    return this.corpus[this.int(this.corpus.length)] as Uint8Array;
  }

  private mutate(b: Uint8Array): Uint8Array {
    const n = b.length;
    const at = this.int(Math.max(1, n));
    switch (this.int(10)) {
      case 0: // flip one bit
        if (n) b[at] = (b[at] as number) ^ (1 << this.int(8));
        return b;
      case 1: // random bytes over a short run
        for (let i = at; i < Math.min(n, at + 1 + this.int(8)); i++) b[i] = this.int(256);
        return b;
      case 2: {
        // an interesting u32 at a 4-aligned position (lengths, counts)
        const p = at & ~3;
        if (p + 4 <= n) new DataView(b.buffer, b.byteOffset).setUint32(p, U32_VALUES[this.int(U32_VALUES.length)] as number, true);
        return b;
      }
      case 3: {
        // an interesting u64 at an 8-aligned position (batch_length, offsets, timestamps)
        const p = at & ~7;
        if (p + 8 <= n) new DataView(b.buffer, b.byteOffset).setBigUint64(p, U64_VALUES[this.int(U64_VALUES.length)] as bigint, true);
        return b;
      }
      case 4: // truncate
        return b.slice(0, this.int(n + 1));
      case 5: {
        // append random bytes or a piece of another file
        const other = this.pick();
        const s = this.int(other.length + 1);
        const tail = this.rand() < 0.5 ? other.subarray(s, s + 1 + this.int(600)) : Uint8Array.from({ length: this.int(300) }, () => this.int(256));
        return join2(b, tail);
      }
      case 6: {
        // delete a run
        const len = 1 + this.int(64);
        return join2(b.subarray(0, at), b.subarray(Math.min(n, at + len)));
      }
      case 7: {
        // duplicate a run in place
        const len = 1 + this.int(320);
        return join2(b.subarray(0, at + len), b.subarray(at));
      }
      case 8: // another whole file after this one (a segment)
        return join2(b, this.pick());
      default: // zero a run (reserved bytes, checksums)
        b.fill(0, at, Math.min(n, at + 1 + this.int(16)));
        return b;
    }
  }
}

function join2(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
