/**
 * XXH3-64 (seed 0) behind a small batched interface. The kernel is our own wasm build of xxhash.h
 * (src/checksum/kernel) where the engine has WebAssembly SIMD, else hash-wasm's createXXHash3;
 * callers hand over whole windows, so neither costs a call per frame from their side.
 * Not xxhash-wasm: it has XXH32/XXH64 only.
 */
import { createXXHash3, type IHasher } from "hash-wasm";
import { ByteWriter } from "../format/writer.ts";
import { createWasmKernel, hasWasmSimd, type KernelWalker } from "./kernel/wasm-kernel.ts";

/** Computes XXH3-64 values; all methods are synchronous once loaded. */
export interface Xxh3 {
  /** XXH3-64 of one byte string. */
  hash(data: Uint8Array): bigint;
  /** XXH3-64 of each window [starts[i], ends[i]) of input, for i in [from, to), written to out[i]. */
  hashWindows(input: Uint8Array, starts: ArrayLike<number>, ends: ArrayLike<number>, from: number, to: number, out: BigUint64Array): void;
  /** The batched walk over whole batches (our wasm kernel only; absent on the hash-wasm fallback). */
  readonly walker?: KernelWalker;
}

let loading: Promise<Xxh3> | null = null;

/** Loads the WASM kernel once per realm (worker, page or Node) and returns the shared instance. */
export function loadXxh3(): Promise<Xxh3> {
  loading ??= hasWasmSimd() ? createWasmKernel() : loadHashWasmXxh3();
  return loading;
}

/** hash-wasm's XXH3 behind the same interface: the fallback where WebAssembly SIMD is missing, and the reference in tests. */
export function loadHashWasmXxh3(): Promise<Xxh3> {
  return createXXHash3(0, 0).then(wrapHasher);
}

function wrapHasher(hasher: IHasher): Xxh3 {
  // hash-wasm's digest is the canonical big-endian byte order of the 64-bit value. It is copied into
  // one scratch buffer: touching `.buffer` of each fresh digest made V8 allocate a backing store per
  // frame, which was a quarter of analyze()'s time on small messages (see the bench note).
  const scratch = new Uint8Array(8);
  const scratchView = new DataView(scratch.buffer);
  const digestValue = (): bigint => {
    scratch.set(hasher.digest("binary"));
    return scratchView.getBigUint64(0, false);
  };
  return {
    hash(data) {
      hasher.init();
      hasher.update(data);
      return digestValue();
    },
    hashWindows(input, starts, ends, from, to, out) {
      for (let i = from; i < to; i++) {
        hasher.init();
        hasher.update(input.subarray(starts[i], ends[i]));
        out[i] = digestValue();
      }
    },
  };
}

/** The stored (little-endian) bytes of a checksum value, as they appear on the wire. */
export function checksumBytesLE(value: bigint): Uint8Array {
  const w = ByteWriter.alloc(8);
  w.u64(0, value);
  return w.bytes;
}
