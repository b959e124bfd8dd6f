/** The ByteReader's twin: one bounds-checked little-endian writer into a buffer the caller owns. */
export class ByteWriter {
  readonly bytes: Uint8Array;
  readonly length: number;
  private readonly view: DataView;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.length = bytes.length;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** A writer over a fresh zeroed buffer of `size` bytes. */
  static alloc(size: number): ByteWriter {
    return new ByteWriter(new Uint8Array(size));
  }

  /** True when [pos, pos + size) lies inside the buffer. */
  has(pos: number, size: number): boolean {
    return pos >= 0 && size >= 0 && pos + size <= this.length;
  }

  /** Writes the low 8 bits of value at pos. */
  u8(pos: number, value: number): void {
    this.assertBounds(pos, 1);
    this.view.setUint8(pos, value);
  }

  /** Writes a u16 at pos. */
  u16(pos: number, value: number): void {
    this.assertBounds(pos, 2);
    this.view.setUint16(pos, value, true);
  }

  /** Writes a u32 at pos. */
  u32(pos: number, value: number): void {
    this.assertBounds(pos, 4);
    this.view.setUint32(pos, value, true);
  }

  /** Writes a u64 at pos (taken modulo 2^64). */
  u64(pos: number, value: bigint): void {
    this.assertBounds(pos, 8);
    this.view.setBigUint64(pos, BigInt.asUintN(64, value), true);
  }

  /** Writes a u128 at pos, low half first (taken modulo 2^128). */
  u128(pos: number, value: bigint): void {
    this.assertBounds(pos, 16);
    const v = BigInt.asUintN(128, value);
    this.view.setBigUint64(pos, v & 0xffff_ffff_ffff_ffffn, true);
    this.view.setBigUint64(pos + 8, v >> 64n, true);
  }

  /** Writes an i8 at pos. */
  i8(pos: number, value: number): void {
    this.assertBounds(pos, 1);
    this.view.setInt8(pos, value);
  }

  /** Writes an i16 at pos. */
  i16(pos: number, value: number): void {
    this.assertBounds(pos, 2);
    this.view.setInt16(pos, value, true);
  }

  /** Writes an i32 at pos. */
  i32(pos: number, value: number): void {
    this.assertBounds(pos, 4);
    this.view.setInt32(pos, value, true);
  }

  /** Writes an i64 at pos (taken modulo 2^64, two's complement). */
  i64(pos: number, value: bigint): void {
    this.assertBounds(pos, 8);
    this.view.setBigInt64(pos, BigInt.asIntN(64, value), true);
  }

  /** Writes an f32 at pos. */
  f32(pos: number, value: number): void {
    this.assertBounds(pos, 4);
    this.view.setFloat32(pos, value, true);
  }

  /** Writes an f64 at pos. */
  f64(pos: number, value: number): void {
    this.assertBounds(pos, 8);
    this.view.setFloat64(pos, value, true);
  }

  /** Copies bytes in at pos. */
  set(pos: number, bytes: Uint8Array): void {
    this.assertBounds(pos, bytes.length);
    this.bytes.set(bytes, pos);
  }

  /** Sets every byte of [start, end) to value. */
  fill(value: number, start: number, end: number): void {
    this.bytes.fill(value, start, end);
  }

  private assertBounds(pos: number, size: number): void {
    // Like the reader: writing past the end is a caller bug, never a property of the input.
    if (!this.has(pos, size)) throw new RangeError(`write of ${size} bytes at ${pos} is outside the ${this.length}-byte buffer`);
  }
}
