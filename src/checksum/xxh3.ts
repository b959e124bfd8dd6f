/**
 * XXH3-64 (seed 0) behind a small batched interface: our own wasm build of xxhash.h (src/checksum/kernel),
 * its SIMD build where the engine has WebAssembly SIMD, else the same C built without it. Callers hand over
 * whole windows, so it costs no call per frame from their side.
 */
import { ByteWriter } from "../format/writer.ts";
import { createWasmKernel, type KernelWalker } from "./kernel/wasm-kernel.ts";

/** Computes XXH3-64 values; all methods are synchronous once loaded. */
export interface Xxh3 {
  /** XXH3-64 of one byte string. */
  hash(data: Uint8Array): bigint;
  /** XXH3-64 of each window [starts[i], ends[i]) of input, for i in [from, to), written to out[i]. */
  hashWindows(input: Uint8Array, starts: ArrayLike<number>, ends: ArrayLike<number>, from: number, to: number, out: BigUint64Array): void;
  /** The batched walk over whole batches: every loaded kernel has it (an XXH3 built elsewhere, as tests use, does not). */
  readonly walker?: KernelWalker;
}

/** A loaded kernel: XXH3 and the batched walk that analyze() runs. */
export type Xxh3Kernel = Xxh3 & { readonly walker: KernelWalker };

let loading: Promise<Xxh3Kernel> | null = null;

/** Loads the WASM kernel (SIMD where the engine has it) once per realm (worker, page or Node) and returns the shared instance. */
export function loadXxh3(): Promise<Xxh3Kernel> {
  loading ??= createWasmKernel();
  return loading;
}

/** The stored (little-endian) bytes of a checksum value, as they appear on the wire. */
export function checksumBytesLE(value: bigint): Uint8Array {
  const w = ByteWriter.alloc(8);
  w.u64(0, value);
  return w.bytes;
}
