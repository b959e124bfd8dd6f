/**
 * Editing through the overlay, in Node (the large-input re-check runs on the worker client's
 * main-thread fallback here): edits cost what they change, the original is never touched, undo
 * holds small changes, and the download is pieces of the original around the edits.
 */
import { memoryBytes } from "../../lib/input-bytes.ts";
import { describe, expect, it } from "vitest";
import { loadXxh3 } from "../../checksum/xxh3.ts";
import { analyzeWith } from "../../core/walk/analyze.ts";
import { encodeBatch } from "../../core/walk/encode.ts";
import { documentStore, nextInputId } from "../state/app-state.ts";
import { reopenInWorker } from "./loading.ts";
import { startEditing, editByte, editedParts, editStore, hasUnsavedEdits, INLINE_RECHECK_LIMIT, latestBytes, redo, revertToOriginal, undo } from "./editing.ts";

const xxh = await loadXxh3();
startEditing(reopenInWorker);
const batch = encodeBatch(xxh, { originTimestamp: 1n, messages: [{ payload: "x", id: 1n }] });

function segment(minBytes: number): Uint8Array {
  const n = Math.ceil(minBytes / batch.length);
  const out = new Uint8Array(n * batch.length);
  for (let i = 0; i < n; i++) out.set(batch, i * batch.length);
  return out;
}

function open(bytes: Uint8Array): void {
  documentStore.set({
    input: { opened: nextInputId(), name: "t.bin", bytes, source: memoryBytes(bytes), analysis: analyzeWith(xxh, bytes), ranOn: "main-thread" },
    loading: null,
    error: null,
  });
}

// Errors once the re-check has landed, and whether the page shows `bytes` (compared by identity: a failing
// comparison of 17 MiB arrays would be printed in full).
async function settled(bytes: Uint8Array): Promise<{ errors: number; shows: boolean }> {
  for (let i = 0; i < 1000 && documentStore.get().loading !== null; i++) await new Promise((r) => setTimeout(r, 10));
  const input = documentStore.get().input!;
  return { errors: input.analysis.summary.errors, shows: input.bytes === bytes };
}
const same = (a: Uint8Array | null, b: Uint8Array) => a === b;

const parkedBytes = (parts: Uint8Array[], original: Uint8Array) => parts.filter((p) => p.buffer !== original.buffer).reduce((n, p) => n + p.length, 0);

describe("editing a large input", () => {
  it("patches one working copy in place, re-checks every change, never touches the original, and undo holds no copies", async () => {
    const original = segment(INLINE_RECHECK_LIMIT + (1 << 20));
    open(original);
    await new Promise((r) => setTimeout(r, 0));
    expect(hasUnsavedEdits()).toBe(false);

    editByte(100, 0xab); // batch 0's reserved bytes
    const working = latestBytes()!;
    expect(same(working, original)).toBe(false);
    expect(working[100]).toBe(0xab);
    expect(await settled(working)).toEqual({ errors: 1, shows: true });

    // Every further keystroke, undo and redo patches the same buffer: no copy of the input per edit.
    editByte(batch.length + 100, 0xcd);
    expect(same(latestBytes(), working)).toBe(true);
    expect(await settled(working)).toEqual({ errors: 2, shows: true });
    undo();
    expect(same(latestBytes(), working)).toBe(true);
    expect(working[batch.length + 100]).toBe(0);
    expect(await settled(working)).toEqual({ errors: 1, shows: true });
    redo();
    expect(await settled(working)).toEqual({ errors: 2, shows: true });
    expect(hasUnsavedEdits()).toBe(true);

    // The original is as loaded; the history holds no input-sized array; the download is pieces of the original.
    expect(original[100]).toBe(0);
    expect(original[batch.length + 100]).toBe(0);
    const state = editStore.get();
    expect(Object.values(state).filter((v) => v instanceof Uint8Array && v !== original).length).toBe(0);
    expect(state.index).toBe(2);
    const parts = editedParts();
    expect(parts.reduce((n, p) => n + p.length, 0)).toBe(original.length);
    expect(parkedBytes(parts, original)).toBe(2);

    revertToOriginal();
    expect(await settled(working)).toEqual({ errors: 0, shows: true });
    expect(Buffer.compare(working, original)).toBe(0);
    expect(editStore.get().labels.at(-1)).toBe("revert to original");
  });
});

describe("editing a small input", () => {
  it("re-checks on the page at once; undo returns to the very bytes loaded", () => {
    const original = segment(5000);
    open(original);
    editByte(100, 1);
    expect(documentStore.get().input!.analysis.summary.errors).toBe(1);
    expect(documentStore.get().input!.bytes![100]).toBe(1);
    expect(original[100]).toBe(0);
    expect(parkedBytes(editedParts(), original)).toBe(1);
    undo();
    expect(same(documentStore.get().input!.bytes, original)).toBe(true);
    expect(documentStore.get().input!.analysis.summary.errors).toBe(0);
    expect(hasUnsavedEdits()).toBe(false);
  });

  it("a newly loaded input starts a new history", () => {
    open(segment(1000));
    editByte(3, 9);
    expect(editStore.get().index).toBe(1);
    const next = segment(2000);
    open(next);
    expect(editStore.get()).toMatchObject({ index: 0, steps: 0 });
    expect(same(editStore.get().original, next)).toBe(true);
    expect(hasUnsavedEdits()).toBe(false);
  });
});
