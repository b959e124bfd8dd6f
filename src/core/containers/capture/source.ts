/**
 * Where a capture's bytes come from: a synchronous random-access source (a file descriptor in the
 * CLI, FileReaderSync or a Blob's pages in a worker, or bytes in memory), read through windows so a
 * capture larger than memory is never held whole.
 */

/** A capture file read by ranges; `read` returns fewer bytes only at the end of the file. */
export interface CaptureSource {
  readonly size: number;
  /** The bytes [start, end), clipped to the file; the caller may keep the array. */
  read(start: number, end: number): Uint8Array;
  /** Optionally: reads the bytes from `start` into `target` (fewer only at the end of the file) and returns their count, so a window is reused. */
  readInto?(start: number, target: Uint8Array): number;
}

/** A source over bytes already in memory. */
export function memorySource(bytes: Uint8Array): CaptureSource {
  return { size: bytes.length, read: (start, end) => bytes.subarray(Math.max(0, start), Math.min(bytes.length, end)) };
}

/** The window size reads ahead; a record larger than it gets a read of its own. */
const WINDOW = 4 << 20;

/** Reads a source front to back through one window, so each packet record costs no call to the source. */
export class WindowReader {
  private buf: Uint8Array = new Uint8Array(0);
  private bufStart = 0;
  private window: Uint8Array | null = null;

  constructor(readonly source: CaptureSource) {}

  /**
   * The u32 at `start` (little- or big-endian), read in the window without a view of it; the caller
   * checks that the 4 bytes lie inside the file.
   */
  u32(start: number, little: boolean): number {
    if (start < this.bufStart || start + 4 > this.bufStart + this.buf.length) this.bytes(start, 4);
    const b = this.buf;
    const at = start - this.bufStart;
    return little
      ? (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0
      : ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
  }

  /** The bytes [start, start + length), or fewer at the end of the file; valid until the next call. */
  bytes(start: number, length: number): Uint8Array {
    const end = Math.min(this.source.size, start + length);
    if (start >= this.bufStart && end <= this.bufStart + this.buf.length) return this.buf.subarray(start - this.bufStart, end - this.bufStart);
    if (length > WINDOW) return this.source.read(start, end);
    const source = this.source;
    if (source.readInto) {
      // One window for the whole walk: nothing the walk hands out outlives the next call.
      if (!this.window) this.window = new Uint8Array(Math.min(WINDOW, source.size));
      this.buf = this.window.subarray(0, source.readInto(start, this.window.subarray(0, Math.max(0, Math.min(this.window.length, source.size - start)))));
    } else this.buf = source.read(start, Math.min(source.size, start + WINDOW));
    this.bufStart = start;
    return this.buf.subarray(0, end - start);
  }
}
