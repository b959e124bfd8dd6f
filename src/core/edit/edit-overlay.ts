/**
 * Edits as an overlay of overwritten ranges over the original bytes, which are never copied or
 * changed: an edit costs what it changes, undo is a list of small changes (each with the bytes it
 * replaced), and the edited input is read through the overlay, materialised only when asked, or
 * handed out as pieces (views of the original between the patches) for a Blob.
 */

/** A run of current bytes that differ (or once differed) from the original, at start. */
export interface Patch {
  readonly start: number;
  readonly bytes: Uint8Array;
}

/** One overwrite of an undoable step: where, what was there, and what was written. */
export interface ByteChange {
  readonly offset: number;
  readonly before: Uint8Array;
  readonly after: Uint8Array;
}

/** One undoable step: its label for the undo list and the overwrites it made. */
export interface EditStep {
  readonly label: string;
  readonly changes: readonly ByteChange[];
}

/** Bytes to write at an offset. */
export interface Write {
  readonly offset: number;
  readonly bytes: Uint8Array;
}

/** The original bytes plus overwritten ranges, with an undo/redo history of small changes. */
export class EditOverlay {
  private patches: Patch[] = [];
  private readonly steps: EditStep[] = [];
  private applied = 0;

  constructor(readonly original: Uint8Array) {}

  /** Input size; overwrites never change it. */
  get size(): number {
    return this.original.length;
  }

  /** Steps applied (0: as loaded). */
  get index(): number {
    return this.applied;
  }

  /** Steps recorded, applied or undone (redo goes up to this). */
  get stepCount(): number {
    return this.steps.length;
  }

  /** Label of step i (0-based). */
  label(i: number): string | undefined {
    return this.steps[i]?.label;
  }

  /** The overwritten runs, sorted and disjoint (views: do not modify). */
  runs(): readonly Patch[] {
    return this.patches;
  }

  /** Bytes the patches and the undo history hold, for the page to show what edits cost. */
  heldBytes(): number {
    let n = 0;
    for (const p of this.patches) n += p.bytes.length;
    for (const s of this.steps) for (const c of s.changes) n += c.before.length + c.after.length;
    return n;
  }

  /** The current byte at i (undefined outside the input). */
  byteAt(i: number): number | undefined {
    if (!(i >= 0 && i < this.size)) return undefined;
    const k = this.patchAtOrBefore(i);
    const p = this.patches[k];
    if (p && i < p.start + p.bytes.length) return p.bytes[i - p.start];
    return this.original[i];
  }

  /** A copy of the current bytes [start, end), clamped to the input. */
  read(start: number, end: number): Uint8Array {
    const s = Math.max(0, Math.min(this.size, start));
    const e = Math.max(s, Math.min(this.size, end));
    const out = this.original.slice(s, e);
    for (let k = Math.max(0, this.patchAtOrBefore(s)); k < this.patches.length; k++) {
      const p = this.patches[k] as Patch;
      if (p.start >= e) break;
      const from = Math.max(s, p.start);
      const to = Math.min(e, p.start + p.bytes.length);
      if (from < to) out.set(p.bytes.subarray(from - p.start, to - p.start), from - s);
    }
    return out;
  }

  /** The whole current input as one new array (the original itself while nothing is patched). */
  materialize(): Uint8Array {
    return this.patches.length === 0 ? this.original : this.read(0, this.size);
  }

  /** The current input as pieces in order, views of the original between the patches (no copy): parts for a Blob. */
  parts(): Uint8Array[] {
    const out: Uint8Array[] = [];
    let at = 0;
    for (const p of this.patches) {
      if (p.start > at) out.push(this.original.subarray(at, p.start));
      out.push(p.bytes);
      at = p.start + p.bytes.length;
    }
    if (at < this.size || out.length === 0) out.push(this.original.subarray(at));
    return out;
  }

  /** Applies writes (clamped to the input) as one undoable step, even an empty one, and drops the redo tail. */
  apply(label: string, writes: readonly Write[]): EditStep {
    const changes: ByteChange[] = [];
    for (const w of writes) {
      const s = Math.max(0, w.offset);
      const e = Math.min(this.size, w.offset + w.bytes.length);
      if (s >= e) continue;
      const after = w.bytes.slice(s - w.offset, e - w.offset);
      changes.push({ offset: s, before: this.read(s, e), after });
      this.overwrite(s, after);
    }
    const step: EditStep = { label, changes };
    this.steps.length = this.applied;
    this.steps.push(step);
    this.applied++;
    return step;
  }

  /**
   * Applies writes as part of the last step (e.g. a byte's low nibble after its high one), relabelled, so
   * one undo takes both back; a new step when there is no last step to extend (none yet, or one undone).
   */
  amend(label: string, writes: readonly Write[]): EditStep {
    const last = this.steps[this.applied - 1];
    if (!last || this.applied !== this.steps.length) return this.apply(label, writes);
    this.steps.pop();
    this.applied--;
    const added = this.apply(label, writes);
    // Undo walks changes backwards, so the earlier change's `before` (the original byte) is written last.
    const step: EditStep = { label, changes: [...last.changes, ...added.changes] };
    this.steps[this.applied - 1] = step;
    return step;
  }

  /** Steps back one edit; returns the step undone, or null at the start. */
  undo(): EditStep | null {
    if (this.applied === 0) return null;
    const step = this.steps[--this.applied] as EditStep;
    for (let i = step.changes.length - 1; i >= 0; i--) {
      const c = step.changes[i] as ByteChange;
      this.overwrite(c.offset, c.before);
    }
    return step;
  }

  /** Steps forward one edit; returns the step redone, or null at the end. */
  redo(): EditStep | null {
    if (this.applied >= this.steps.length) return null;
    const step = this.steps[this.applied++] as EditStep;
    for (const c of step.changes) this.overwrite(c.offset, c.after);
    return step;
  }

  /** The writes that bring the current bytes back to the original (for "revert" as one more undoable step). */
  revertWrites(): Write[] {
    return this.patches.map((p) => ({ offset: p.start, bytes: this.original.subarray(p.start, p.start + p.bytes.length) }));
  }

  /** The writes that turn the current bytes into `next` (same size): one per run of differing bytes. */
  diffWrites(next: Uint8Array): Write[] {
    if (next.length !== this.size) throw new Error(`an edit must keep the size: ${next.length} ≠ ${this.size}`);
    const out: Write[] = [];
    // Compared through the pieces, so the current bytes are never materialised.
    let at = 0;
    for (const piece of this.parts()) {
      let i = 0;
      while (i < piece.length) {
        if (piece[i] === next[at + i]) {
          i++;
          continue;
        }
        const s = i;
        while (i < piece.length && piece[i] !== next[at + i]) i++;
        const last = out[out.length - 1];
        if (last && last.offset + last.bytes.length === at + s) out[out.length - 1] = { offset: last.offset, bytes: next.subarray(last.offset, at + i) };
        else out.push({ offset: at + s, bytes: next.subarray(at + s, at + i) });
      }
      at += piece.length;
    }
    return out;
  }

  // Index of the last patch starting at or before i, or -1.
  private patchAtOrBefore(i: number): number {
    let lo = 0;
    let hi = this.patches.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.patches[mid] as Patch).start <= i) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  // Writes bytes at s into the patch list, merging the patches it overlaps or touches into one run.
  private overwrite(s: number, bytes: Uint8Array): void {
    const e = s + bytes.length;
    let first = this.patchAtOrBefore(s);
    if (first < 0 || (this.patches[first] as Patch).start + (this.patches[first] as Patch).bytes.length < s) first++;
    let last = first;
    while (last < this.patches.length && (this.patches[last] as Patch).start <= e) last++;
    // patches[first, last) overlap or touch [s, e).
    if (first === last) {
      this.patches.splice(first, 0, { start: s, bytes: bytes.slice() });
      return;
    }
    const head = this.patches[first] as Patch;
    const tail = this.patches[last - 1] as Patch;
    const start = Math.min(s, head.start);
    const end = Math.max(e, tail.start + tail.bytes.length);
    // The write and the patches it overlaps or touches cover [start, end) without a gap.
    const merged = new Uint8Array(end - start);
    for (let k = first; k < last; k++) {
      const p = this.patches[k] as Patch;
      merged.set(p.bytes, p.start - start);
    }
    merged.set(bytes, s - start);
    this.patches.splice(first, last - first, { start, bytes: merged });
  }
}
