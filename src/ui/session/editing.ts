/**
 * Live editing: every edit goes into an EditOverlay over the loaded bytes (the original is never
 * copied per edit or changed), is re-checked at once, and undo/redo step through small changes.
 * Inputs up to INLINE_RECHECK_LIMIT are materialised and re-checked on the page; larger ones keep one
 * working copy, patched in place, for the hex map, and are re-checked in a worker that holds the
 * original and receives only the patches (patched-recheck.ts).
 */
import { analyzeWith } from "../../core/walk/analyze.ts";
import { loadXxh3, type Xxh3 } from "../../checksum/xxh3.ts";
import { writeField, type ChecksumChange } from "../../core/edit/edit.ts";
import type { FieldSpec } from "../../format/fields.ts";
import { memoryBytes } from "../../lib/input-bytes.ts";
import { residentBytes } from "./resident.ts";
import { EditOverlay, type EditStep, type Patch, type Write } from "../../core/edit/edit-overlay.ts";
import { createStore } from "../state/store.ts";
import { documentStore } from "../state/app-state.ts";
import { requestPatchedRecheck, resetPatchedRecheck } from "./patched-recheck.ts";
import { sourceOf } from "./input-source.ts";
import type { FormatChoice } from "../../core/containers/index.ts";
import type { Analysis } from "../../core/model/model.ts";
import type { InputMeta } from "../../worker/protocol.ts";
import { bytesToHex, hexOffset } from "../../format/values.ts";

/** Undo history of the loaded input and what the last edit did. */
export interface EditState {
  /** The input as loaded (never modified), or null before any input. */
  readonly original: Uint8Array | null;
  /** labels[0] is "as loaded"; labels[i] names step i. */
  readonly labels: readonly string[];
  /** Steps applied: 0 shows the original. */
  readonly index: number;
  /** Steps recorded (redo goes up to this). */
  readonly steps: number;
  /** What the last "recompute checksums" changed, for the page to list. */
  readonly lastChanges: readonly ChecksumChange[] | null;
  /** Milliseconds the last re-check took. */
  readonly lastRecheckMs: number | null;
}

const EMPTY: EditState = { original: null, labels: [], index: 0, steps: 0, lastChanges: null, lastRecheckMs: null };

/** Edit history; reset when a new input is loaded. */
export const editStore = createStore<EditState>(EMPTY);

/** Whether typing hex digits in the hex map overwrites bytes. */
export const editModeStore = createStore<boolean>(false);

let xxh: Xxh3 | null = null;
let started = false;

/** The XXH3 kernel once loaded (edits need it synchronously). */
export function kernel(): Xxh3 | null {
  return xxh;
}

/** Inputs above this are re-checked in the worker after an edit, so the page never freezes. */
export const INLINE_RECHECK_LIMIT = 16 << 20;

let overlay: EditOverlay | null = null;
// Large inputs: the current bytes, made once at the first edit and patched in place after that.
let working: Uint8Array | null = null;
// The latest edit's bytes (or the input as loaded).
let latest: Uint8Array | null = null;
// Bumped per input, so a late re-check of an earlier input is dropped.
let session = 0;

/** Re-opens bytes as a container format off the main thread (session/loading.ts reopenInWorker, handed in by start.ts). */
export type Reopen = (bytes: Uint8Array, format: FormatChoice, label: string) => Promise<{ analysis: Analysis; meta: InputMeta } | null>;

let reopen: Reopen | null = null;
// The new-input id (LoadedInput.opened) of the input the history belongs to.
let openedId: number | null = null;

/**
 * Starts editing once: loads the XXH3 kernel and keeps the history in step with the document (a
 * newly opened input starts a new history). `reopenInWorker` re-opens an edited container.
 */
export function startEditing(reopenInWorker: Reopen): void {
  reopen = reopenInWorker;
  if (started) return;
  started = true;
  void loadXxh3().then((k) => {
    xxh = k;
  });
  documentStore.subscribe(() => {
    const input = documentStore.get().input;
    if (!input) return;
    if (input.opened === openedId) {
      // The same input read into memory from its File (session/resident.ts): its history starts now.
      if (input.bytes && !overlay) startHistory(input.bytes);
      return;
    }
    openedId = input.opened;
    if (input.bytes) return startHistory(input.bytes);
    // Read on demand: nothing to edit until residentBytes() reads it into memory (the edit controls ask first).
    overlay = null;
    working = latest = null;
    session++;
    resetPatchedRecheck();
    editStore.set(EMPTY);
  });
}

function startHistory(bytes: Uint8Array): void {
  overlay = new EditOverlay(bytes);
  working = null;
  latest = bytes;
  session++;
  resetPatchedRecheck();
  editStore.set({ ...EMPTY, original: bytes, labels: ["as loaded"] });
}

function publish(o: EditOverlay, changes: readonly ChecksumChange[] | null): void {
  const labels = ["as loaded"];
  for (let i = 0; i < o.stepCount; i++) labels.push(o.label(i) ?? "");
  editStore.set({ original: o.original, labels, index: o.index, steps: o.stepCount, lastChanges: changes, lastRecheckMs: null });
}

// Shows the overlay's current bytes after `step` was applied (forward) or undone, and re-checks them.
function show(o: EditOverlay, step: EditStep, forward: boolean): void {
  const input = documentStore.get().input;
  if (!input) return;
  const format = input.meta?.format;
  if (format && format !== "batches") {
    // A container re-opens in the worker (with the companion loading keeps), so its fields and checks follow the edit.
    const bytes = o.index === 0 ? o.original : o.materialize();
    // Not shown yet: until the re-open lands the page keeps the previous bytes.
    latest = bytes;
    void (reopen as Reopen)(bytes, format, "edited bytes").then((r) => {
      const now = documentStore.get().input;
      if (!r || !now || latest !== bytes) return;
      documentStore.set((s) => ({
        ...s,
        input: { ...now, bytes, source: memoryBytes(bytes), analysis: r.analysis, meta: { ...r.meta, detectedBy: now.meta?.detectedBy ?? r.meta.detectedBy } },
      }));
    });
    return;
  }
  if (!input) return;
  if (o.size > INLINE_RECHECK_LIMIT) {
    if (!working) working = o.read(0, o.size);
    else if (forward) for (const c of step.changes) working.set(c.after, c.offset);
    else for (let i = step.changes.length - 1; i >= 0; i--) working.set(step.changes[i]!.before, step.changes[i]!.offset);
    latest = working;
    const mine = session;
    requestPatchedRecheck(() =>
      mine !== session || overlay !== o
        ? null
        : {
            key: mine,
            original: o.original,
            source: sourceOf(o.original),
            patches: [...o.runs()],
            startOffset: documentStore.get().input?.startOffset ?? 0,
            done: (analysis, ms) => {
              const now = documentStore.get().input;
              if (mine !== session || !now) return;
              documentStore.set((s) => ({ ...s, input: { ...now, bytes: working as Uint8Array, source: memoryBytes(working as Uint8Array), analysis } }));
              editStore.set((s) => ({ ...s, lastRecheckMs: ms }));
            },
          },
    );
    return;
  }
  if (!xxh) return;
  const bytes = o.index === 0 ? o.original : o.materialize();
  latest = bytes;
  const t0 = performance.now();
  const analysis = analyzeWith(xxh, bytes, { startOffset: input.startOffset ?? 0 });
  const ms = performance.now() - t0;
  documentStore.set((s) => ({ ...s, input: { ...input, bytes, source: memoryBytes(bytes), analysis } }));
  editStore.set((s) => ({ ...s, lastRecheckMs: ms }));
}

/** Writes bytes over the input as one undoable step and re-checks at once; only the written bytes are kept. */
export function writeBytes(writes: readonly Write[], label: string, changes: readonly ChecksumChange[] | null = null): void {
  const o = overlay;
  if (!o) return;
  const step = o.apply(label, writes);
  publish(o, changes);
  show(o, step, true);
}

/** Replaces the shown bytes with an edited version of the same size, keeping only the bytes that differ. */
export function commitEdit(bytes: Uint8Array, label: string, changes: readonly ChecksumChange[] | null = null): void {
  if (!overlay || bytes.length !== overlay.size) return;
  writeBytes(overlay.diffWrites(bytes), label, changes);
}

/** The latest edit's bytes (a large input's re-check may still be running), else the shown input. */
export function latestBytes(): Uint8Array | null {
  return latest ?? documentStore.get().input?.bytes ?? null;
}

/** Writes a new value into one header field of the latest bytes as one undoable step: only the field's own bytes are copied, never the input. */
export function applyFieldEdit(base: number, spec: FieldSpec, value: bigint | Uint8Array, label: string): void {
  const current = latestBytes();
  if (!current) return;
  const at = base + spec.offset;
  writeBytes([{ offset: at, bytes: writeField(current.slice(at, at + spec.size), -spec.offset, spec, value) }], label);
}

/**
 * applyFieldEdit for the shown input however it is held: an input read on demand is read into
 * memory first (session/resident.ts; the form says so), since an edit needs every byte.
 */
export async function applyFieldEditResident(base: number, spec: FieldSpec, value: bigint | Uint8Array, label: string): Promise<void> {
  const input = documentStore.get().input;
  if (input && !input.bytes && !(await residentBytes(input))) return;
  applyFieldEdit(base, spec, value, label);
}

/** Overwrites one byte; `completes` (a byte's second hex digit) folds it into the edit of its first digit, so a typed byte is one edit. */
export function editByte(offset: number, value: number, completes = false): void {
  const o = overlay;
  if (!o || offset < 0 || offset >= o.size) return;
  const writes = [{ offset, bytes: Uint8Array.of(value & 0xff) }];
  const label = `byte ${hexOffset(offset, 0)} = ${bytesToHex(Uint8Array.of(value & 0xff))}`;
  if (!completes) return writeBytes(writes, label);
  const step = o.amend(label, writes);
  publish(o, null);
  show(o, step, true);
}

/** Steps back one edit. */
export function undo(): void {
  const o = overlay;
  const step = o?.undo();
  if (!o || !step) return;
  publish(o, null);
  show(o, step, false);
}

/** Steps forward one edit. */
export function redo(): void {
  const o = overlay;
  const step = o?.redo();
  if (!o || !step) return;
  publish(o, null);
  show(o, step, true);
}

/** Writes the original bytes back over every edit, as one more undoable step. */
export function revertToOriginal(): void {
  if (overlay) writeBytes(overlay.revertWrites(), "revert to original");
}

/** The input as loaded, before any edit. */
export function originalBytes(): Uint8Array | null {
  return overlay?.original ?? null;
}

/** The edited input as pieces for a Blob: views of the original between the edited runs, no full copy. */
export function editedParts(): Uint8Array[] {
  return overlay?.parts() ?? [];
}

/** The edited runs over the original (sorted, disjoint, a snapshot of the list), empty when unedited: with the original's File, the edited input without a copy. */
export function editedRuns(): Patch[] {
  return [...(overlay?.runs() ?? [])];
}

/** Whether the shown input has edits that leaving or opening another input would lose. */
export function hasUnsavedEdits(): boolean {
  return (overlay?.index ?? 0) > 0;
}
