/** A growable list of u32 values in one typed array: the lists a walk notes per batch, millions for single-message batches. */
export class U32List {
  private data = new Uint32Array(16);
  /** Values held. */
  length = 0;

  /** Appends a value. */
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }

  /** Drops the last value (none when empty). */
  pop(): void {
    if (this.length > 0) this.length--;
  }

  /** Value k (undefined past the end). */
  at(k: number): number | undefined {
    return k >= 0 && k < this.length ? this.data[k] : undefined;
  }

  /** The values as an array of their own length. */
  toArray(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}
