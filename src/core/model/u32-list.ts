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

  /** Appends every value of `values` plus `by` (a join's rebased indexes), growing once. */
  pushShifted(values: Uint32Array, by: number): void {
    const n = this.length + values.length;
    if (n > this.data.length) {
      const next = new Uint32Array(Math.max(n, this.data.length * 2));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    if (by === 0) this.data.set(values, this.length);
    else for (let k = 0; k < values.length; k++) this.data[this.length + k] = (values[k] as number) + by;
    this.length = n;
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
