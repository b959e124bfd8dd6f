/**
 * The wasm kernel against hash-wasm (an independent XXH3 build) over every length 0..4096, random
 * lengths up to 4 MiB, unaligned starts and scattered windows; and the committed build artefacts
 * against a fresh build (where the same clang is installed) and the generated layout header.
 */
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Xxh3 } from "../xxh3.ts";
import { loadHashWasmXxh3 } from "../../../test/reference-walk.ts";
import { compileKernel, createWasmKernel, hasWasmSimd } from "./wasm-kernel.ts";
import { renderKernelLayoutHeader } from "./layout-header.ts";
import { KERNEL_FLAG } from "./abi.ts";
import { FrameFlag } from "../../core/model/model.ts";
import { encodeBatch } from "../../core/walk/encode.ts";

/** xorshift32 bytes: the same every run. */
function seededBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

function seededInts(count: number, max: number, seed: number): number[] {
  const out: number[] = [];
  let x = seed >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out.push(x % (max + 1));
  }
  return out;
}

const reference: Promise<Xxh3> = loadHashWasmXxh3();
const kernelUrl = new URL("./", import.meta.url);

describe("wasm XXH3 kernel", () => {
  it("runs here: this Node has WebAssembly SIMD", () => {
    expect(hasWasmSimd()).toBe(true);
  });

  // Both builds ship: the SIMD one, and the one without SIMD for engines that lack it.
  describe.each([
    ["SIMD", true],
    ["without SIMD", false],
  ])("built %s", (_name, simd) => {
    it("equals hash-wasm on every length 0..4096", async () => {
      const ref = await reference;
      const kernel = await createWasmKernel(await compileKernel(simd));
      const data = seededBytes(4096 + 64, 7);
      const n = 4097;
      const starts = Array.from({ length: n }, () => 3);
      const ends = Array.from({ length: n }, (_, len) => 3 + len);
      const got = new BigUint64Array(n);
      const want = new BigUint64Array(n);
      kernel.hashWindows(data, starts, ends, 0, n, got);
      ref.hashWindows(data, starts, ends, 0, n, want);
      expect(got).toEqual(want);
      for (const len of [0, 1, 16, 128, 129, 240, 241, 1024, 4096]) expect(kernel.hash(data.subarray(0, len))).toBe(ref.hash(data.subarray(0, len)));
    });

    it("equals hash-wasm on random lengths up to 4 MiB (staged and streamed) and unaligned starts", async () => {
      const ref = await reference;
      const kernel = await createWasmKernel(await compileKernel(simd));
      const data = seededBytes((4 << 20) + 32, 11);
      const lengths = [...seededInts(24, 4 << 20, 2025), (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 << 20];
      for (const [k, len] of lengths.entries()) {
        const start = k % 17;
        const window = data.subarray(start, start + len);
        expect(kernel.hash(window), `length ${len} at +${start}`).toBe(ref.hash(window));
      }
    });

    it("equals hash-wasm on scattered, overlapping and out-of-order window lists", async () => {
      const ref = await reference;
      const kernel = await createWasmKernel(await compileKernel(simd));
      const data = seededBytes(3 << 20, 5);
      const n = 20_000;
      const a = seededInts(n, data.length, 99);
      const lens = seededInts(n, 3000, 100);
      const starts = a.map((s, i) => Math.min(s, data.length - (lens[i] as number)));
      const ends = starts.map((s, i) => s + (lens[i] as number));
      const got = new BigUint64Array(n + 5);
      const want = new BigUint64Array(n + 5);
      kernel.hashWindows(data, starts, ends, 5, n, got);
      ref.hashWindows(data, starts, ends, 5, n, want);
      expect(got).toEqual(want);
      expect(got[4]).toBe(0n);
    });
  });

  it("verify_frames counts the frames whose stored checksum differs", async () => {
    const kernel = await createWasmKernel();
    const batch = encodeBatch(kernel, { messages: [{ payload: new Uint8Array([1, 2, 3]) }, { payload: new Uint8Array(300) }, { payload: new Uint8Array(0) }] });
    const memory = new WebAssembly.Memory({ initial: 32 });
    const ex = new WebAssembly.Instance(await compileKernel(), { env: { memory } }).exports as Record<string, unknown>;
    const verify = ex.verify_frames as (d: number, s: number, e: number, n: number) => number;
    const at = 1 << 20;
    const view = new Uint8Array(memory.buffer);
    view.set(batch, at);
    const starts = [256, 256 + 51, 256 + 51 + 348];
    const ends = [256 + 51, 256 + 51 + 348, batch.length];
    new Uint32Array(memory.buffer, at - 64, 3).set(starts);
    new Uint32Array(memory.buffer, at - 32, 3).set(ends);
    expect(verify(at, at - 64, at - 32, 3)).toBe(0);
    view[at + 256 + 51 + 48 + 7]! ^= 1; // a payload byte of frame 1
    expect(verify(at, at - 64, at - 32, 3)).toBe(1);
  });

  it("writes the model's frame flags with the model's bits", () => {
    expect(KERNEL_FLAG.frameChecksumMismatch).toBe(FrameFlag.checksumMismatch);
    expect(KERNEL_FLAG.frameReservedNonzero).toBe(FrameFlag.reservedNonzero);
    expect(KERNEL_FLAG.frameUserHeadersMalformed).toBe(FrameFlag.userHeadersMalformed);
    expect(KERNEL_FLAG.frameOffsetDeltaNotIndex).toBe(FrameFlag.offsetDeltaNotIndex);
  });
});

describe("kernel build artefacts", () => {
  it("layout.h is what the field table generates (run `npm run kernel:header` after changing the table)", () => {
    expect(readFileSync(new URL("layout.h", kernelUrl), "utf8")).toBe(renderKernelLayoutHeader());
  });

  it("the committed kernel.wasm, kernel-nosimd.wasm and their base64 modules are what scripts/build-kernel.mjs builds", async (ctx) => {
    let version: string;
    try {
      version = execFileSync(process.env.CLANG ?? "clang", ["--version"], { encoding: "utf8" })
        .split("\n")[0]!
        .trim();
    } catch {
      console.warn("kernel rebuild check SKIPPED: no clang on PATH (apt-get install clang lld)");
      ctx.skip();
      return;
    }
    const committedTs = readFileSync(new URL("kernel-wasm.ts", kernelUrl), "utf8");
    if (!committedTs.includes(`Compiled with: ${version} */`)) {
      console.warn(`kernel rebuild check SKIPPED: committed build is from another clang than "${version}"`);
      ctx.skip();
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), "iggy-kernel-"));
    try {
      const { buildKernel } = (await import("../../../scripts/build-kernel.mjs")) as { buildKernel: (out: string) => Record<string, string> };
      buildKernel(dir);
      for (const name of ["kernel.wasm", "kernel-nosimd.wasm", "kernel-wasm.ts", "kernel-nosimd-wasm.ts"]) {
        const fresh = readFileSync(join(dir, name));
        const committed = readFileSync(new URL(name, kernelUrl));
        expect(fresh.equals(committed), `${name} differs from a fresh build: run node scripts/build-kernel.mjs and commit`).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
