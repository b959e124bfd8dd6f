/** A growable builder for FrameColumns: memory follows frames actually found, never a length field. */
import type { FrameColumns } from "./model.ts";

/** Appends complete frames and hands out trimmed columns at the end. */
export class FrameColumnsBuilder {
  count = 0;
  private capacity: number;
  start: Float64Array;
  end: Float64Array;
  batch: Uint32Array;
  indexInBatch: Uint32Array;
  offsetDelta: Uint32Array;
  timestampDelta: Uint32Array;
  payloadLength: Uint32Array;
  userHeadersLength: Uint32Array;
  storedChecksum: BigUint64Array;
  computedChecksum: BigUint64Array;
  flags: Uint8Array;

  constructor(initialCapacity = 1024) {
    this.capacity = Math.max(16, initialCapacity);
    const c = this.capacity;
    this.start = new Float64Array(c);
    this.end = new Float64Array(c);
    this.batch = new Uint32Array(c);
    this.indexInBatch = new Uint32Array(c);
    this.offsetDelta = new Uint32Array(c);
    this.timestampDelta = new Uint32Array(c);
    this.payloadLength = new Uint32Array(c);
    this.userHeadersLength = new Uint32Array(c);
    this.storedChecksum = new BigUint64Array(c);
    this.computedChecksum = new BigUint64Array(c);
    this.flags = new Uint8Array(c);
  }

  /** Makes room for one more frame and returns its index. */
  next(): number {
    if (this.count === this.capacity) this.grow(this.capacity * 2);
    return this.count++;
  }

  /** Grows to at least `capacity` frames at once (one copy instead of repeated doubling). */
  reserve(capacity: number): void {
    if (capacity > this.capacity) this.grow(Math.ceil(capacity));
  }

  /** The columns holding the frames found: views when little capacity is spare, else trimmed copies. */
  finish(): FrameColumns {
    const n = this.count;
    // Copying 10+ columns costs as much as building them; keep views unless over a quarter would be wasted.
    const cut = n >= this.capacity * 0.75
      ? <T extends Float64Array | Uint32Array | BigUint64Array | Uint8Array>(a: T): T => a.subarray(0, n) as T
      : <T extends Float64Array | Uint32Array | BigUint64Array | Uint8Array>(a: T): T => a.slice(0, n) as T;
    return {
      count: n,
      start: cut(this.start),
      end: cut(this.end),
      batch: cut(this.batch),
      indexInBatch: cut(this.indexInBatch),
      offsetDelta: cut(this.offsetDelta),
      timestampDelta: cut(this.timestampDelta),
      payloadLength: cut(this.payloadLength),
      userHeadersLength: cut(this.userHeadersLength),
      storedChecksum: cut(this.storedChecksum),
      computedChecksum: cut(this.computedChecksum),
      flags: cut(this.flags),
    };
  }

  private grow(capacity: number): void {
    const grown = <T extends Float64Array | Uint32Array | BigUint64Array | Uint8Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old as never);
      return next;
    };
    this.start = grown(this.start, (n) => new Float64Array(n));
    this.end = grown(this.end, (n) => new Float64Array(n));
    this.batch = grown(this.batch, (n) => new Uint32Array(n));
    this.indexInBatch = grown(this.indexInBatch, (n) => new Uint32Array(n));
    this.offsetDelta = grown(this.offsetDelta, (n) => new Uint32Array(n));
    this.timestampDelta = grown(this.timestampDelta, (n) => new Uint32Array(n));
    this.payloadLength = grown(this.payloadLength, (n) => new Uint32Array(n));
    this.userHeadersLength = grown(this.userHeadersLength, (n) => new Uint32Array(n));
    this.storedChecksum = grown(this.storedChecksum, (n) => new BigUint64Array(n));
    this.computedChecksum = grown(this.computedChecksum, (n) => new BigUint64Array(n));
    this.flags = grown(this.flags, (n) => new Uint8Array(n));
    this.capacity = capacity;
  }
}

/** Every typed array buffer of a FrameColumns, for transferring it to another realm. */
export function frameColumnBuffers(frames: FrameColumns): ArrayBuffer[] {
  return [frames.start, frames.end, frames.batch, frames.indexInBatch, frames.offsetDelta, frames.timestampDelta,
    frames.payloadLength, frames.userHeadersLength, frames.storedChecksum, frames.computedChecksum, frames.flags]
    .map((a) => a.buffer as ArrayBuffer);
}
