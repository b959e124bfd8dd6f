/** One bounds-checked little-endian reader over the input; every read names its absolute position. */
export class ByteReader {
  readonly bytes: Uint8Array;
  readonly length: number;
  private readonly view: DataView;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.length = bytes.length;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** True when [pos, pos + size) lies inside the input. */
  has(pos: number, size: number): boolean {
    return pos >= 0 && size >= 0 && pos + size <= this.length;
  }

  /** Reads a u32 at pos. */
  u32(pos: number): number {
    this.assertBounds(pos, 4);
    return this.view.getUint32(pos, true);
  }

  /** Reads a u64 at pos as a bigint. */
  u64(pos: number): bigint {
    this.assertBounds(pos, 8);
    return this.view.getBigUint64(pos, true);
  }

  /** Reads a u128 at pos as a bigint (low half first on the wire). */
  u128(pos: number): bigint {
    this.assertBounds(pos, 16);
    return (this.view.getBigUint64(pos + 8, true) << 64n) | this.view.getBigUint64(pos, true);
  }

  /** A view (not a copy) of [start, end), clamped to the input. */
  slice(start: number, end: number): Uint8Array {
    return this.bytes.subarray(Math.max(0, start), Math.min(this.length, end));
  }

  /** True when every byte of [start, end) is zero. */
  allZero(start: number, end: number): boolean {
    const b = this.bytes;
    for (let i = start; i < end; i++) if (b[i] !== 0) return false;
    return true;
  }

  /** Half-open runs of nonzero bytes inside [start, end). */
  nonzeroRuns(start: number, end: number): Array<[number, number]> {
    const runs: Array<[number, number]> = [];
    const b = this.bytes;
    let i = start;
    while (i < end) {
      if (b[i] === 0) { i++; continue; }
      const runStart = i;
      while (i < end && b[i] !== 0) i++;
      runs.push([runStart, i]);
    }
    return runs;
  }

  private assertBounds(pos: number, size: number): void {
    // A read past the end is a decoder bug (callers check `has` first), never a property of the input.
    if (!this.has(pos, size)) throw new RangeError(`read of ${size} bytes at ${pos} is outside the ${this.length}-byte input`);
  }
}
