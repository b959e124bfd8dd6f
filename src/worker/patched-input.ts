/**
 * The worker's copy of an edited input: the original as sent once, with the current patches
 * written over it. A new patch list first restores the bytes the previous one covered, so each
 * re-check costs the patched bytes, not the input.
 */
import type { Patch } from "../core/edit/edit-overlay.ts";

interface Held {
  readonly key: number;
  readonly bytes: Uint8Array;
  /** What the applied patches replaced, to write back before the next list. */
  restore: Patch[];
}

let held: Held | null = null;

/** The input of `key` with `patches` over its original, or null when this worker has no original for that key (and none is given). */
export function patchedInput(key: number, patches: readonly Patch[], base?: ArrayBuffer): Uint8Array | null {
  if (base) held = { key, bytes: new Uint8Array(base), restore: [] };
  if (!held || held.key !== key) return null;
  const { bytes } = held;
  for (let i = held.restore.length - 1; i >= 0; i--) {
    const r = held.restore[i] as Patch;
    bytes.set(r.bytes, r.start);
  }
  const restore: Patch[] = [];
  for (const p of patches) {
    const end = Math.min(bytes.length, p.start + p.bytes.length);
    if (p.start < 0 || p.start >= end) continue;
    restore.push({ start: p.start, bytes: bytes.slice(p.start, end) });
    bytes.set(p.bytes.subarray(0, end - p.start), p.start);
  }
  held.restore = restore;
  return bytes;
}
