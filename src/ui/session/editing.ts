/**
 * Live editing: every edit makes new bytes, re-checks them at once and pushes them on an undo history.
 * The original input stays untouched as history[0].
 */
import { analyzeWith } from "../../core/analyze.ts";
import { loadXxh3, type Xxh3 } from "../../checksum/xxh3.ts";
import { writeField, type ChecksumChange } from "../../core/edit.ts";
import type { FieldSpec } from "../../format/fields.ts";
import { createStore } from "../state/store.ts";
import { documentStore } from "../state/app-state.ts";
import { reanalyzeInWorker } from "./loading.ts";

/** Undo history of the loaded input and what the last edit did. */
export interface EditState {
  /** history[0] is the input as loaded; history[index] is what is shown. */
  readonly history: readonly Uint8Array[];
  readonly labels: readonly string[];
  readonly index: number;
  /** What the last "recompute checksums" changed, for the page to list. */
  readonly lastChanges: readonly ChecksumChange[] | null;
  /** Milliseconds the last re-check took. */
  readonly lastRecheckMs: number | null;
}

/** Edit history; reset when a new input is loaded. */
export const editStore = createStore<EditState>({ history: [], labels: [], index: 0, lastChanges: null, lastRecheckMs: null });

/** Whether typing hex digits in the hex map overwrites bytes. */
export const editModeStore = createStore<boolean>(false);

let xxh: Xxh3 | null = null;
let started = false;

/** The XXH3 kernel once loaded (edits need it synchronously). */
export function kernel(): Xxh3 | null {
  return xxh;
}

/** Starts editing once: loads the XXH3 kernel and keeps the history in step with the document (a newly loaded input starts a new history). */
export function startEditing(): void {
  if (started) return;
  started = true;
  void loadXxh3().then((k) => { xxh = k; });
  documentStore.subscribe(() => {
    const input = documentStore.get().input;
    const e = editStore.get();
    if (input && !e.history.includes(input.bytes)) {
      editStore.set({ history: [input.bytes], labels: ["as loaded"], index: 0, lastChanges: null, lastRecheckMs: null });
    }
  });
}

/** Undo history kept at most, in bytes of copies (the original always stays). */
export const HISTORY_BYTES = 1 << 30;

/** Inputs above this are re-checked in the worker after an edit, so the page never freezes. */
export const INLINE_RECHECK_LIMIT = 16 << 20;

function show(bytes: Uint8Array): number | null {
  const input = documentStore.get().input;
  if (!input || !xxh) return null;
  if (bytes.length > INLINE_RECHECK_LIMIT) {
    void reanalyzeInWorker(bytes).then((analysis) => {
      const now = documentStore.get().input;
      if (analysis && now) documentStore.set((s) => ({ ...s, input: { ...now, bytes, analysis } }));
    });
    return null;
  }
  const t0 = performance.now();
  const analysis = analyzeWith(xxh, bytes, { startOffset: input.startOffset ?? 0 });
  const ms = performance.now() - t0;
  documentStore.set((s) => ({ ...s, input: { ...input, bytes, analysis } }));
  return ms;
}

/** Replaces the shown bytes with an edited copy, re-checks at once, and records it for undo. */
export function commitEdit(bytes: Uint8Array, label: string, changes: readonly ChecksumChange[] | null = null): void {
  const e = editStore.get();
  const history = [...e.history.slice(0, e.index + 1), bytes];
  const labels = [...e.labels.slice(0, e.index + 1), label];
  // Each entry is a whole copy: past HISTORY_BYTES the oldest edits (never the original) are dropped.
  let total = history.reduce((n, h) => n + h.length, 0);
  while (total > HISTORY_BYTES && history.length > 2) {
    total -= (history[1] as Uint8Array).length;
    history.splice(1, 1);
    labels.splice(1, 1);
  }
  editStore.set({ history, labels, index: history.length - 1, lastChanges: changes, lastRecheckMs: null });
  const ms = show(bytes);
  editStore.set((s) => ({ ...s, lastRecheckMs: ms }));
}

/** The latest bytes: the history's current entry (a large input's re-check may still be running), else the shown input. */
export function latestBytes(): Uint8Array | null {
  const e = editStore.get();
  return e.history[e.index] ?? documentStore.get().input?.bytes ?? null;
}

/** Writes a new value into one header field of the latest bytes and records it for undo. */
export function applyFieldEdit(base: number, spec: FieldSpec, value: bigint | Uint8Array, label: string): void {
  const current = latestBytes();
  if (!current) return;
  commitEdit(writeField(current, base, spec, value), label);
}

/** Overwrites one byte. */
export function editByte(offset: number, value: number): void {
  // The history's current entry, not the shown input: a large input's re-check may still be running.
  const e = editStore.get();
  const current = e.history[e.index];
  if (!current || offset < 0 || offset >= current.length) return;
  const bytes = current.slice();
  bytes[offset] = value & 0xff;
  commitEdit(bytes, `byte 0x${offset.toString(16)} = ${(value & 0xff).toString(16).padStart(2, "0")}`);
}

/** Steps back one edit. */
export function undo(): void {
  const e = editStore.get();
  if (e.index === 0) return;
  editStore.set({ ...e, index: e.index - 1, lastChanges: null });
  show(e.history[e.index - 1] as Uint8Array);
}

/** Steps forward one edit. */
export function redo(): void {
  const e = editStore.get();
  if (e.index >= e.history.length - 1) return;
  editStore.set({ ...e, index: e.index + 1, lastChanges: null });
  show(e.history[e.index + 1] as Uint8Array);
}

/** The input as loaded, before any edit. */
export function originalBytes(): Uint8Array | null {
  return editStore.get().history[0] ?? null;
}
