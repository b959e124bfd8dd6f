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

  /** Reads a u8 at pos. */
  u8(pos: number): number {
    this.assertBounds(pos, 1);
    return this.bytes[pos] as number;
  }

  /** Reads a u16 at pos. */
  u16(pos: number): number {
    this.assertBounds(pos, 2);
    return this.view.getUint16(pos, true);
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

  /** Reads an i8 at pos. */
  i8(pos: number): number {
    this.assertBounds(pos, 1);
    return this.view.getInt8(pos);
  }

  /** Reads an i16 at pos. */
  i16(pos: number): number {
    this.assertBounds(pos, 2);
    return this.view.getInt16(pos, true);
  }

  /** Reads an i32 at pos. */
  i32(pos: number): number {
    this.assertBounds(pos, 4);
    return this.view.getInt32(pos, true);
  }

  /** Reads an i64 at pos as a bigint. */
  i64(pos: number): bigint {
    this.assertBounds(pos, 8);
    return this.view.getBigInt64(pos, true);
  }

  /** Reads an i128 at pos as a bigint (two's complement, low half first). */
  i128(pos: number): bigint {
    return BigInt.asIntN(128, this.u128(pos));
  }

  /** Reads an f32 at pos. */
  f32(pos: number): number {
    this.assertBounds(pos, 4);
    return this.view.getFloat32(pos, true);
  }

  /** Reads an f64 at pos. */
  f64(pos: number): number {
    this.assertBounds(pos, 8);
    return this.view.getFloat64(pos, true);
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
    return nonzeroRuns(this.bytes, start, end);
  }

  private assertBounds(pos: number, size: number): void {
    // A read past the end is a decoder bug (callers check `has` first), never a property of the input.
    if (!this.has(pos, size)) throw new RangeError(`read of ${size} bytes at ${pos} is outside the ${this.length}-byte input`);
  }
}

/**
 * A little-endian u32 at pos of bytes, read byte by byte without a DataView: for the TLV scan, which
 * runs once per frame on a fresh subarray where making a ByteReader would cost more than the read.
 * Like the array it indexes, it does not check bounds (callers check the length first).
 */
export function readU32(bytes: Uint8Array, pos: number): number {
  return (bytes[pos]! | (bytes[pos + 1]! << 8) | (bytes[pos + 2]! << 16)) + bytes[pos + 3]! * 0x1000000;
}

/** The little-endian unsigned integer in bytes[at, at + size) as a bigint, any width; bytes past the end read as 0 (a field cut by the input's end). */
export function readUintLE(bytes: Uint8Array, at: number, size: number): bigint {
  let v = 0n;
  for (let i = size - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[at + i] ?? 0);
  return v;
}

/** Half-open runs of nonzero bytes inside bytes[start, end). */
export function nonzeroRuns(bytes: Uint8Array, start: number, end: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let i = start;
  while (i < end) {
    if (bytes[i] === 0) {
      i++;
      continue;
    }
    const runStart = i;
    while (i < end && bytes[i] !== 0) i++;
    runs.push([runStart, i]);
  }
  return runs;
}
