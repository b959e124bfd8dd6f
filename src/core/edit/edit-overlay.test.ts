import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EditOverlay } from "./edit-overlay.ts";

type Op =
  | { kind: "write"; offset: number; bytes: Uint8Array }
  | { kind: "multi"; writes: { offset: number; bytes: Uint8Array }[] }
  | { kind: "undo" }
  | { kind: "redo" }
  | { kind: "revert" }
  | { kind: "replace"; seed: number };

const SIZE = 97;
const writeArb = fc.record({ offset: fc.integer({ min: -5, max: SIZE + 3 }), bytes: fc.uint8Array({ minLength: 1, maxLength: 12 }) });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: writeArb.map((w) => ({ kind: "write" as const, ...w })) },
  { weight: 1, arbitrary: fc.array(writeArb, { minLength: 1, maxLength: 5 }).map((writes) => ({ kind: "multi" as const, writes })) },
  { weight: 3, arbitrary: fc.constant({ kind: "undo" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "redo" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "revert" as const }) },
  { weight: 1, arbitrary: fc.nat().map((seed) => ({ kind: "replace" as const, seed })) },
);

/** The naive model: a full copy per step. */
class Naive {
  history: Uint8Array[];
  index = 0;
  constructor(original: Uint8Array) {
    this.history = [original.slice()];
  }
  get current(): Uint8Array {
    return this.history[this.index]!;
  }
  commit(next: Uint8Array): void {
    this.history = [...this.history.slice(0, this.index + 1), next];
    this.index++;
  }
  write(writes: { offset: number; bytes: Uint8Array }[]): void {
    const next = this.current.slice();
    for (const w of writes)
      for (let i = 0; i < w.bytes.length; i++) {
        const at = w.offset + i;
        if (at >= 0 && at < next.length) next[at] = w.bytes[i]!;
      }
    this.commit(next);
  }
}

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe("edit overlay", () => {
  it("random edit / undo / redo / revert sequences read exactly like a full copy per step", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: SIZE, maxLength: SIZE }),
        fc.array(opArb, { maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(SIZE), fc.nat(SIZE)), { minLength: 3, maxLength: 3 }),
        (original, ops, probes) => {
          const frozen = original.slice();
          const overlay = new EditOverlay(original);
          const naive = new Naive(original);
          for (const op of ops) {
            if (op.kind === "write") {
              overlay.apply("w", [op]);
              naive.write([op]);
            } else if (op.kind === "multi") {
              overlay.apply("m", op.writes);
              naive.write(op.writes);
            } else if (op.kind === "undo") {
              expect(overlay.undo() !== null).toBe(naive.index > 0);
              if (naive.index > 0) naive.index--;
            } else if (op.kind === "redo") {
              const can = naive.index < naive.history.length - 1;
              expect(overlay.redo() !== null).toBe(can);
              if (can) naive.index++;
            } else if (op.kind === "revert") {
              overlay.apply("revert", overlay.revertWrites());
              naive.commit(frozen.slice());
            } else {
              const next = naive.current.map((b, i) => ((op.seed + i) % 7 === 0 ? (b + 1) & 0xff : b));
              const writes = overlay.diffWrites(next);
              expect(writes.reduce((n, w) => n + w.bytes.length, 0)).toBe(next.filter((b, i) => b !== naive.current[i]).length);
              overlay.apply("replace", writes);
              naive.commit(next);
            }
            const current = naive.current;
            expect(overlay.materialize()).toEqual(current);
            expect(concat(overlay.parts())).toEqual(current);
            expect(overlay.index).toBe(naive.index);
            expect(overlay.stepCount).toBe(naive.history.length - 1);
            for (const [a, b] of probes) {
              expect(overlay.byteAt(a)).toBe(current[a]);
              expect(overlay.read(Math.min(a, b), Math.max(a, b))).toEqual(current.slice(Math.min(a, b), Math.max(a, b)));
            }
            const runs = overlay.runs();
            for (let k = 1; k < runs.length; k++) expect(runs[k]!.start).toBeGreaterThan(runs[k - 1]!.start + runs[k - 1]!.bytes.length);
          }
          // The original is never written.
          expect(original).toEqual(frozen);
        },
      ),
      { numRuns: 300, seed: 10 },
    );
  });

  it("an edit and an undo on a large input hold only the bytes they change", () => {
    const original = new Uint8Array(64 << 20);
    const overlay = new EditOverlay(original);
    overlay.apply("byte", [{ offset: 40 << 20, bytes: Uint8Array.of(0xab) }]);
    expect(overlay.byteAt(40 << 20)).toBe(0xab);
    expect(overlay.heldBytes()).toBeLessThan(16);
    overlay.undo();
    expect(overlay.byteAt(40 << 20)).toBe(0);
    expect(overlay.heldBytes()).toBeLessThan(16);
    expect(original[40 << 20]).toBe(0);
    // The pieces are views of the original around the patch, not copies.
    overlay.redo();
    const parts = overlay.parts();
    expect(parts.map((p) => p.length)).toEqual([40 << 20, 1, (24 << 20) - 1]);
    expect(parts[0]!.buffer).toBe(original.buffer);
  });

  it("typing along a run merges into one patch", () => {
    const overlay = new EditOverlay(new Uint8Array(100));
    for (let i = 10; i < 30; i++) overlay.apply(`b${i}`, [{ offset: i, bytes: Uint8Array.of(i) }]);
    expect(overlay.runs()).toHaveLength(1);
    expect(overlay.runs()[0]!.start).toBe(10);
    expect(overlay.stepCount).toBe(20);
  });

  it("amending the last step makes one undo take back both writes; after an undo it starts a new step", () => {
    const original = Uint8Array.from({ length: 8 }, (_, i) => i);
    const overlay = new EditOverlay(original);
    overlay.apply("high nibble", [{ offset: 3, bytes: Uint8Array.of(0x53) }]);
    overlay.amend("byte 3 = 5a", [{ offset: 3, bytes: Uint8Array.of(0x5a) }]);
    expect(overlay.stepCount).toBe(1);
    expect(overlay.label(0)).toBe("byte 3 = 5a");
    expect(overlay.byteAt(3)).toBe(0x5a);
    overlay.undo();
    expect(overlay.materialize()).toEqual(original);
    overlay.redo();
    expect(overlay.byteAt(3)).toBe(0x5a);
    overlay.undo();
    overlay.amend("after undo", [{ offset: 4, bytes: Uint8Array.of(0xff) }]);
    expect(overlay.stepCount).toBe(1);
    expect(overlay.byteAt(3)).toBe(3);
    expect(overlay.byteAt(4)).toBe(0xff);
  });
});
