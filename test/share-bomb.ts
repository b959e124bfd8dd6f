/**
 * Hostile share links for the tests: a valid link header followed by gigabytes of zeros in a
 * ~1 MB fragment (a deflate bomb), built in milliseconds by repeating one byte-aligned deflate
 * block that encodes 1 MiB of zeros (it holds a literal zero and back-references to it, so it decodes the
 * same wherever it is repeated). Node only (zlib).
 */
import { constants, deflateRawSync } from "node:zlib";
import { SHARE_PREFIX } from "../src/lib/share-codec.ts";

const MiB = 1 << 20;

function base64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A share fragment whose input is `zeroMiB` MiB of zeros, optionally with bytes that are not deflate after them. */
export function shareBombFragment(zeroMiB: number, options: { name?: string; garbageAfter?: boolean } = {}): string {
  const meta = new TextEncoder().encode(JSON.stringify({ n: options.name ?? "bomb", s: null }));
  const head = new Uint8Array(4 + meta.length + MiB);
  new DataView(head.buffer).setUint32(0, meta.length, true);
  head.set(meta, 4);
  // Sync flushes end each part on a byte boundary with a non-final block.
  const first = deflateRawSync(head, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  // A literal zero and back-references at distance 1: valid, and the same 1 MiB, wherever it is repeated.
  const oneMiB = deflateRawSync(new Uint8Array(MiB), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const repeats = Math.max(0, zeroMiB - 1);
  const tail = options.garbageAfter ? Uint8Array.of(0xff, 0xff, 0xff, 0xff) : Uint8Array.of(0x03, 0x00);
  const out = new Uint8Array(first.length + repeats * oneMiB.length + tail.length);
  out.set(first, 0);
  for (let i = 0; i < repeats; i++) out.set(oneMiB, first.length + i * oneMiB.length);
  out.set(tail, out.length - tail.length);
  return SHARE_PREFIX + base64Url(out);
}
