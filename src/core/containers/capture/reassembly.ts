/**
 * One direction of a TCP connection put back in order by sequence number, as the receiving kernel
 * would (captures.md "Connections and reassembly"): out-of-order segments wait, the first copy of a
 * byte wins (a later copy that differs is reported), sequence numbers wrap at 2^32, and bytes never
 * seen are a gap, never zeros. Memory is bounded: past MAX_PENDING bytes waiting behind a hole, the
 * hole is declared a gap.
 */

/**
 * A packet's capture time: the value, or the packet's record, whose time is worked out when read (most
 * segments continue a message, whose time came from its first packet). Read it during the call only.
 */
export type PacketTime = bigint | { readonly timeNs: bigint };

/** The time a PacketTime stands for. */
export const timeOf = (t: PacketTime): bigint => (typeof t === "bigint" ? t : t.timeNs);

/** Where in-order bytes and gaps go. */
export interface StreamSink {
  /** In-order bytes at `offset` of the stream; `bytes` and `time` are valid only during the call. */
  data(offset: number, bytes: Uint8Array, packet: number, time: PacketTime, fileOffset: number): void;
  /** `length` bytes at `offset` that the capture never saw; `packet` is the one after them (or the cut one). */
  gap(offset: number, length: number, packet: number | null): void;
  /** A retransmitted copy of [offset, offset + length) that differs from the first copy. */
  differs(offset: number, length: number, packet: number): void;
}

/** A stretch of one direction's stream: its bytes (or null where the snap length cut them), where it came from and when. */
export interface Pending {
  offset: number;
  /** Null for bytes the snap length cut: known to exist, never seen. */
  bytes: Uint8Array | null;
  length: number;
  packet: number;
  timeNs: bigint;
  fileOffset: number;
}

/** Bytes allowed to wait behind a hole before the hole is declared a gap. */
export const MAX_PENDING = 16 << 20;

/** Reads back delivered bytes of this direction, or null when they are not at hand. */
export type ReadBack = (offset: number, length: number) => Uint8Array | null;

/** Reassembles one direction. */
export class StreamReassembler {
  /** Sequence number of stream offset 0 (ISN + 1), or null before the first segment. */
  private base: number | null = null;
  /** The next stream offset to deliver. */
  next = 0;
  private pending: Pending[] = [];
  private pendingBytes = 0;
  /** True once a SYN fixed the base. */
  sawSyn = false;
  /** The highest stream offset the receiver acknowledged: bytes before it reached the receiver, seen or not. */
  private acked = 0;
  /** Stream offset of the FIN (it takes a sequence number, not a byte), or null. */
  private finAt: number | null = null;

  constructor(
    private readonly sink: StreamSink,
    private readonly readBack: ReadBack = () => null,
  ) {}

  /** A SYN: the stream starts at seq + 1. */
  syn(seq: number): void {
    if (this.base !== null) return;
    this.base = (seq + 1) >>> 0;
    this.sawSyn = true;
  }

  /** The stream offset of a sequence number, taken nearest to `next` (wrap at 2^32). */
  offsetOf(seq: number): number {
    if (this.base === null) this.base = seq >>> 0;
    const rel = (seq - this.base) >>> 0;
    const nextMod = this.next % 4294967296;
    return this.next + ((rel - nextMod) | 0);
  }

  /** One segment: `bytes` captured at `seq`, then `missing` bytes the snap length cut. */
  segment(seq: number, bytes: Uint8Array, missing: number, packet: number, time: PacketTime, fileOffset: number): void {
    if (bytes.length + missing === 0) return;
    const offset = this.offsetOf(seq);
    // The common case: the next bytes, nothing waiting.
    if (offset === this.next && this.pending.length === 0) {
      if (bytes.length) this.sink.data(offset, bytes, packet, time, fileOffset);
      this.next += bytes.length;
      if (missing) {
        this.sink.gap(this.next, missing, packet);
        this.next += missing;
      }
      return;
    }
    // Bytes that wait keep their time as a value: the packet's record is reused.
    const timeNs = timeOf(time);
    this.add({ offset, bytes, length: bytes.length, packet, timeNs, fileOffset }, true);
    if (missing) this.add({ offset: offset + bytes.length, bytes: null, length: missing, packet, timeNs, fileOffset: -1 }, false);
    this.deliver();
    this.resolveAcked();
    while (this.pendingBytes > MAX_PENDING && this.pending.length) this.skipHole();
  }

  /**
   * The receiver acknowledged everything before `seq`: a hole below it will never be retransmitted,
   * so the capture missed it, and it is a gap now rather than when memory runs out.
   */
  ack(seq: number): void {
    if (this.base === null) return;
    const offset = this.offsetOf(seq);
    if (offset > this.acked) this.acked = offset;
    this.resolveAcked();
  }

  /** A FIN after `length` payload bytes at `seq`: the stream ends there. */
  fin(seq: number, length: number): void {
    if (this.finAt === null) this.finAt = this.offsetOf(seq) + length;
  }

  private resolveAcked(): void {
    while (this.pending.length && this.pending[0]!.offset < this.acked && this.pending[0]!.offset > this.next) this.skipHole();
  }

  /** The end of the capture: every hole before waiting bytes is a gap, and so are bytes acknowledged but never seen. */
  finish(): void {
    while (this.pending.length) this.skipHole();
    const end = this.finAt === null ? this.acked : Math.min(this.acked, this.finAt);
    if (end > this.next && end - this.next < 2 ** 31) {
      this.sink.gap(this.next, end - this.next, null);
      this.next = end;
    }
  }

  /** Bytes waiting behind a hole. */
  get waiting(): number {
    return this.pendingBytes;
  }

  private skipHole(): void {
    const first = this.pending[0]!;
    if (first.offset > this.next) {
      this.sink.gap(this.next, first.offset - this.next, first.packet);
      this.next = first.offset;
    }
    this.deliver();
  }

  /** Adds the parts of a segment no earlier copy holds; compares the parts an earlier copy holds. */
  private add(seg: Pending, copy: boolean): void {
    let { offset } = seg;
    const end = seg.offset + seg.length;
    if (end <= offset) return;
    // Bytes already delivered: compare with the first copy, keep nothing.
    if (offset < this.next) {
      const upto = Math.min(end, this.next);
      if (seg.bytes) this.compareDelivered(offset, seg.bytes.subarray(0, upto - offset), seg.packet);
      offset = upto;
    }
    // Walk the waiting segments in order and fill only the holes between them.
    let i = this.firstEndingAfter(offset);
    while (offset < end) {
      const p = this.pending[i];
      const holeEnd = p ? Math.min(end, p.offset) : end;
      if (holeEnd > offset) {
        const part: Pending = {
          ...seg,
          offset,
          length: holeEnd - offset,
          bytes: seg.bytes ? sliceOf(seg.bytes, offset - seg.offset, holeEnd - seg.offset, copy) : null,
          fileOffset: seg.fileOffset < 0 ? -1 : seg.fileOffset + (offset - seg.offset),
        };
        this.pending.splice(i, 0, part);
        this.pendingBytes += part.length;
        i++;
        offset = holeEnd;
        continue;
      }
      if (!p) break;
      // Overlap with a waiting copy: the first one wins.
      const overlapEnd = Math.min(end, p.offset + p.length);
      if (seg.bytes && p.bytes) {
        const a = seg.bytes.subarray(offset - seg.offset, overlapEnd - seg.offset);
        const b = p.bytes.subarray(offset - p.offset, overlapEnd - p.offset);
        if (!same(a, b)) this.sink.differs(offset, overlapEnd - offset, seg.packet);
      }
      offset = overlapEnd;
      i++;
    }
  }

  private firstEndingAfter(offset: number): number {
    let lo = 0;
    let hi = this.pending.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const p = this.pending[mid]!;
      if (p.offset + p.length <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private deliver(): void {
    while (this.pending.length && this.pending[0]!.offset <= this.next) {
      const p = this.pending.shift()!;
      this.pendingBytes -= p.length;
      const skip = this.next - p.offset;
      if (skip >= p.length) continue;
      if (p.bytes) this.sink.data(this.next, p.bytes.subarray(skip), p.packet, p.timeNs, p.fileOffset + skip);
      else this.sink.gap(this.next, p.length - skip, p.packet);
      this.next = p.offset + p.length;
    }
  }

  private compareDelivered(offset: number, bytes: Uint8Array, packet: number): void {
    const first = this.readBack(offset, bytes.length);
    if (first && first.length === bytes.length && !same(first, bytes)) this.sink.differs(offset, bytes.length, packet);
  }
}

function sliceOf(bytes: Uint8Array, from: number, to: number, copy: boolean): Uint8Array {
  return copy ? bytes.slice(from, to) : bytes.subarray(from, to);
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
