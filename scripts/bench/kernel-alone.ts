/** The kernel walk alone for `npm run bench`: bytes copied into wasm memory untimed, then only the walk calls timed. */
import { readFileSync } from "node:fs";
import { createWasmKernel } from "../../src/checksum/kernel/wasm-kernel.ts";

/** The committed build without -msimd128, to show what SIMD buys. */
export function noSimdModule(): WebAssembly.Module {
  return new WebAssembly.Module(readFileSync(new URL("../../src/checksum/kernel/kernel-nosimd.wasm", import.meta.url)));
}

/** Milliseconds of the kernel walk (no frame columns) over the whole segment, in 4 MiB windows. */
export async function kernelWalkMs(segment: Uint8Array, expectFrames: number, module?: WebAssembly.Module): Promise<() => number> {
  const kernel = await createWasmKernel(module);
  const windowBytes = 4 << 20;
  const area = kernel.inputArea(windowBytes + (2 << 20));
  return () => {
    let ms = 0;
    let frames = 0;
    for (let pos = 0; pos < segment.length;) {
      const have = Math.min(area.length, segment.length - pos);
      area.set(segment.subarray(pos, pos + have));
      const t0 = performance.now();
      const r = kernel.walk(have, pos, false, pos + have === segment.length);
      ms += performance.now() - t0;
      if (r.batches === 0) throw new Error(`kernel walked nothing at ${pos}`);
      if (r.flagged !== 0) throw new Error(`kernel flagged ${r.flagged} frames in the window at ${pos}, the segment has none`);
      frames += r.frames;
      pos += r.consumed;
    }
    if (frames !== expectFrames) throw new Error(`kernel walked ${frames} frames, planned ${expectFrames}`);
    return ms;
  };
}

/** Milliseconds of copying the whole segment into the kernel's input area in 1 MiB windows, as analyze() does for bytes in JS memory. */
export async function copyInMs(segment: Uint8Array): Promise<() => number> {
  const kernel = await createWasmKernel();
  const area = kernel.inputArea(1 << 20);
  return () => {
    const t0 = performance.now();
    for (let pos = 0; pos < segment.length; pos += area.length) area.set(segment.subarray(pos, Math.min(segment.length, pos + area.length)));
    return performance.now() - t0;
  };
}

/**
 * Milliseconds of writing the kept columns of `frames` frames (9 bytes a frame: two u32, one u8) into new
 * memory, after a collection, as every analyze() must for its model: most of it is faulting in fresh pages.
 */
export function freshColumnsMs(frames: number): () => number {
  return () => {
    (globalThis as { gc?: () => void }).gc?.();
    const t0 = performance.now();
    const columns = [new Uint32Array(frames), new Uint32Array(frames), new Uint8Array(frames)];
    for (const column of columns) column.fill(1);
    const ms = performance.now() - t0;
    if (columns.some((column) => column[frames - 1] !== 1)) throw new Error("fresh columns: not written");
    return ms;
  };
}
