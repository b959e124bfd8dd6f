/**
 * The cutter as properties: messages of any sizes (some past the 1 MiB a buffer is given whole), in a
 * stream cut anywhere and fed to cutters that share one pool of buffers, come out each with its own
 * bytes; a gap inside a message of known size gives that message without bytes and the next one whole.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONSENSUS_HEADER_SIZE } from "../../../format/containers/consensus.ts";
import { CLIENT_COMMANDS, MessageBuffers, MessageCutter, type CutMessage } from "./cutter.ts";

/** A message of `size` bytes: a request header that says its size, then bytes that tell messages apart. */
function message(size: number, seed: number): Uint8Array {
  const m = new Uint8Array(size);
  for (let i = CONSENSUS_HEADER_SIZE; i < size; i++) m[i] = (i * 31 + seed * 17) & 0xff;
  new DataView(m.buffer).setUint32(48, size, true);
  m[60] = 5;
  return m;
}

/** A cutter whose messages are copied out during the sink's call (their bytes are valid only then). */
function cutter(buffers: MessageBuffers) {
  const got: (Omit<CutMessage, "bytes"> & { bytes: Uint8Array | null })[] = [];
  let index = 0;
  const c = new MessageCutter({ start: () => index++, message: (m) => got.push({ ...m, bytes: m.bytes && m.bytes.slice() }) }, CLIENT_COMMANDS, buffers);
  return { c, got };
}

/** Byte equality as one answer (a deep equality of megabytes element by element is slow). */
function same(a: Uint8Array | null, b: Uint8Array): boolean {
  return a !== null && a.length === b.length && Buffer.compare(a, b) === 0;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const sizes = fc.array(fc.oneof(fc.integer({ min: CONSENSUS_HEADER_SIZE, max: 5000 }), fc.integer({ min: (1 << 20) - 100, max: (2 << 20) + 7 })), {
  minLength: 1,
  maxLength: 5,
});

describe("message cutter", () => {
  it("two interleaved streams cut anywhere, sharing one pool of buffers, give every message its own bytes", () => {
    fc.assert(
      fc.property(sizes, sizes, fc.array(fc.integer({ min: 1, max: 70000 }), { minLength: 1, maxLength: 40 }), (a, b, steps) => {
        const buffers = new MessageBuffers();
        const sent = [a.map((s, i) => message(s, i)), b.map((s, i) => message(s, 100 + i))];
        const streams = sent.map(concat);
        const cutters = [cutter(buffers), cutter(buffers)];
        const at = [0, 0];
        // Alternate the two streams, each fed by the next step's length (cycled), so their messages interleave.
        for (let k = 0; at[0]! < streams[0]!.length || at[1]! < streams[1]!.length; k++) {
          const s = k % 2;
          const n = Math.min(steps[k % steps.length]!, streams[s]!.length - at[s]!);
          if (n <= 0) continue;
          cutters[s]!.c.data(at[s]!, streams[s]!.subarray(at[s], at[s]! + n), k, BigInt(k));
          at[s]! += n;
        }
        for (const [s, { c, got }] of cutters.entries()) {
          c.finish();
          expect(got.map((m) => m.bytes?.length ?? null)).toEqual(sent[s]!.map((m) => m.length));
          expect(got.every((m, i) => same(m.bytes, sent[s]![i]!))).toBe(true);
          expect(got.every((m) => m.ended && m.missing === 0 && m.sizeValid)).toBe(true);
        }
      }),
      { numRuns: 25 },
    );
  });

  it("a gap inside a message gives it without bytes, and the message after it whole from a reused buffer", () => {
    const buffers = new MessageBuffers();
    const { c, got } = cutter(buffers);
    const first = message(300_000, 1);
    const second = message(2_000_000, 2);
    const third = message(299_000, 3);
    c.data(0, first, 1, 1n);
    c.data(first.length, second.subarray(0, 70_000), 2, 2n);
    c.gap(1000);
    c.data(first.length + 71_000, second.subarray(71_000), 3, 3n);
    c.data(first.length + second.length, third, 4, 4n);
    c.finish();
    expect(got.map((m) => [m.size, m.missing, m.bytes?.length ?? null])).toEqual([
      [300_000, 0, 300_000],
      [2_000_000, 1000, null],
      [299_000, 0, 299_000],
    ]);
    expect(same(got[0]!.bytes, first)).toBe(true);
    expect(same(got[2]!.bytes, third)).toBe(true);
  });
});
