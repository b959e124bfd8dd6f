/**
 * Where each stretch of a reassembled stream lies in the capture file: one entry per delivered
 * segment, in columns (24 bytes each), so a message's bytes are read back on demand and a byte of a
 * stream names the packet that carried it, without holding the stream.
 */
import type { CaptureSource } from "./source.ts";

/** The file places of one direction's stream, in stream order. */
export class Pieces {
  private offsets = new Float64Array(64);
  private files = new Float64Array(64);
  private lengths = new Uint32Array(64);
  private packets = new Uint32Array(64);
  /** Entries kept. */
  count = 0;

  /** Appends `length` bytes at stream `offset`, read from `fileOffset`, carried by `packet`. */
  push(offset: number, fileOffset: number, length: number, packet: number): void {
    const n = this.count;
    // A stretch that continues the previous one in the stream and in the file joins it (same packet only).
    if (
      n > 0 &&
      this.packets[n - 1] === packet &&
      this.offsets[n - 1]! + this.lengths[n - 1]! === offset &&
      this.files[n - 1]! + this.lengths[n - 1]! === fileOffset
    ) {
      this.lengths[n - 1]! += length;
      return;
    }
    if (n === this.offsets.length) this.grow();
    this.offsets[n] = offset;
    this.files[n] = fileOffset;
    this.lengths[n] = length;
    this.packets[n] = packet;
    this.count = n + 1;
  }

  private grow(): void {
    const size = this.offsets.length * 2;
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    const u32 = (a: Uint32Array) => {
      const b = new Uint32Array(size);
      b.set(a);
      return b;
    };
    this.offsets = f64(this.offsets);
    this.files = f64(this.files);
    this.lengths = u32(this.lengths);
    this.packets = u32(this.packets);
  }

  /** The entry holding stream byte `offset`, or -1 (a gap, or past the end). */
  find(offset: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const start = this.offsets[mid]!;
      if (offset < start) hi = mid - 1;
      else if (offset >= start + this.lengths[mid]!) lo = mid + 1;
      else return mid;
    }
    return -1;
  }

  /** The packet that carried stream byte `offset`, or null. */
  packetAt(offset: number): number | null {
    const i = this.find(offset);
    return i < 0 ? null : this.packets[i]!;
  }

  /**
   * The stream bytes [offset, offset + length) read from the file, with the stretches the capture
   * never saw listed in `missing` (their bytes are left 0 in `bytes` and must not be read as data).
   */
  read(source: CaptureSource, offset: number, length: number): { bytes: Uint8Array; missing: { start: number; end: number }[] } {
    const bytes = new Uint8Array(length);
    const missing: { start: number; end: number }[] = [];
    let at = offset;
    const end = offset + length;
    let i = this.find(at);
    if (i < 0) {
      // Start in a gap: the first entry after it.
      i = 0;
      while (i < this.count && this.offsets[i]! + this.lengths[i]! <= at) i++;
    }
    while (at < end) {
      if (i >= this.count || this.offsets[i]! >= end) {
        missing.push({ start: at - offset, end: length });
        break;
      }
      const start = this.offsets[i]!;
      if (start > at) {
        missing.push({ start: at - offset, end: start - offset });
        at = start;
      }
      const stop = Math.min(end, start + this.lengths[i]!);
      const file = this.files[i]! + (at - start);
      bytes.set(source.read(file, file + (stop - at)), at - offset);
      at = stop;
      i++;
    }
    return { bytes, missing };
  }
}
