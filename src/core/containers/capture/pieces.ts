/**
 * Where each stretch of a reassembled stream lies in the capture file: one entry per delivered
 * segment, so a message's bytes are read back on demand and a byte of a stream names the packet that
 * carried it, without holding the stream.
 *
 * Entries are delta-coded in a byte array (issue #24: peak RSS bounded however large the capture):
 * each entry is a flag byte saying which of its stream gap, length, file step and packet step differ
 * from the entry before, followed by those that do as varints. A run of equal segments (an MSS after
 * an MSS, packet after packet) costs one byte per segment instead of 24. Every BLOCK entries an anchor
 * holds the absolute values, so a lookup decodes at most BLOCK entries.
 */
import type { CaptureSource } from "./source.ts";

/** Entries per anchor: the most a lookup decodes past a binary search. */
const BLOCK = 64;

const GAP = 1;
const LENGTH = 2;
const FILE_STEP = 4;
const PACKET_STEP = 8;

/** A signed whole number as an unsigned one (0, -1, 1, -2 … → 0, 1, 2, 3 …), in doubles: file offsets pass 2^32. */
const zigzag = (v: number): number => (v >= 0 ? 2 * v : -2 * v - 1);
const unzigzag = (u: number): number => (u % 2 === 0 ? u / 2 : -(u + 1) / 2);

/** One entry as decoded. */
interface Entry {
  offset: number;
  file: number;
  length: number;
  packet: number;
}

/** The file places of one direction's stream, in stream order. */
export class Pieces {
  private anchorOffsets = new Float64Array(4);
  private anchorFiles = new Float64Array(4);
  private anchorPackets = new Uint32Array(4);
  private anchorAt = new Uint32Array(4);
  private bytes = new Uint8Array(256);
  private used = 0;
  /** Entries coded in `bytes` (the last pushed one stays open until the next, so a continuation can join it). */
  private coded = 0;
  private readonly open: Entry = { offset: 0, file: 0, length: 0, packet: 0 };
  private hasOpen = false;
  // The coder's state: the previous coded entry's end, file end, packet and steps.
  private end = 0;
  private fileEnd = 0;
  private packet = 0;
  private length = 0;
  private fileStep = 0;
  private packetStep = 0;

  /** Entries kept. */
  get count(): number {
    return this.coded + (this.hasOpen ? 1 : 0);
  }

  /** Bytes held by the index (its arrays' capacity), for the memory bound's test. */
  get heldBytes(): number {
    return this.bytes.byteLength + this.anchorOffsets.byteLength + this.anchorFiles.byteLength + this.anchorPackets.byteLength + this.anchorAt.byteLength;
  }

  /** Appends `length` bytes at stream `offset`, read from `fileOffset`, carried by `packet`. */
  push(offset: number, fileOffset: number, length: number, packet: number): void {
    const o = this.open;
    // A stretch that continues the previous one in the stream and in the file joins it (same packet only).
    if (this.hasOpen && o.packet === packet && o.offset + o.length === offset && o.file + o.length === fileOffset) {
      o.length += length;
      return;
    }
    if (this.hasOpen) this.code(o);
    o.offset = offset;
    o.file = fileOffset;
    o.length = length;
    o.packet = packet;
    this.hasOpen = true;
  }

  private code(e: Entry): void {
    if (this.used + 64 > this.bytes.length) this.bytes = grown(this.bytes, this.bytes.length * 2);
    if (this.coded % BLOCK === 0) {
      const b = this.coded / BLOCK;
      if (b === this.anchorAt.length) {
        const size = b * 2;
        this.anchorOffsets = grown(this.anchorOffsets, size);
        this.anchorFiles = grown(this.anchorFiles, size);
        this.anchorPackets = grown(this.anchorPackets, size);
        this.anchorAt = grown(this.anchorAt, size);
      }
      this.anchorOffsets[b] = e.offset;
      this.anchorFiles[b] = e.file;
      this.anchorPackets[b] = e.packet;
      this.anchorAt[b] = this.used;
      this.varint(e.length);
      // A block's first entry sets the steps its second is compared with: no gap, the same length.
      this.fileStep = 0;
      this.packetStep = 0;
    } else {
      const gap = e.offset - this.end;
      const fileStep = e.file - this.fileEnd;
      const packetStep = e.packet - this.packet;
      const flags =
        (gap !== 0 ? GAP : 0) |
        (e.length !== this.length ? LENGTH : 0) |
        (fileStep !== this.fileStep ? FILE_STEP : 0) |
        (packetStep !== this.packetStep ? PACKET_STEP : 0);
      this.bytes[this.used++] = flags;
      if (flags & GAP) this.varint(zigzag(gap));
      if (flags & LENGTH) this.varint(e.length);
      if (flags & FILE_STEP) this.varint(zigzag(fileStep));
      if (flags & PACKET_STEP) this.varint(zigzag(packetStep));
      this.fileStep = fileStep;
      this.packetStep = packetStep;
    }
    this.end = e.offset + e.length;
    this.fileEnd = e.file + e.length;
    this.packet = e.packet;
    this.length = e.length;
    this.coded++;
  }

  private varint(v: number): void {
    while (v >= 128) {
      this.bytes[this.used++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.bytes[this.used++] = v;
  }

  /**
   * Calls `visit` with each entry in stream order from the block that may hold stream byte `offset`
   * (earlier entries are skipped by the caller), until it returns false.
   */
  private scan(offset: number, visit: (e: Readonly<Entry>) => boolean): void {
    const blocks = Math.ceil(this.coded / BLOCK);
    let lo = 0;
    let hi = blocks - 1;
    // The last block whose first entry starts at or before `offset` (the first block when none does).
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.anchorOffsets[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    const e: Entry = { offset: 0, file: 0, length: 0, packet: 0 };
    const bytes = this.bytes;
    let at = blocks ? this.anchorAt[lo]! : 0;
    let fileStep = 0;
    let packetStep = 0;
    const varint = (): number => {
      let v = 0;
      let scale = 1;
      for (;;) {
        const b = bytes[at++]!;
        v += (b & 127) * scale;
        if (b < 128) return v;
        scale *= 128;
      }
    };
    for (let i = lo * BLOCK; i < this.coded; i++) {
      if (i % BLOCK === 0) {
        const b = i / BLOCK;
        e.offset = this.anchorOffsets[b]!;
        e.file = this.anchorFiles[b]!;
        e.packet = this.anchorPackets[b]!;
        e.length = varint();
        fileStep = 0;
        packetStep = 0;
      } else {
        const flags = bytes[at++]!;
        const end = e.offset + e.length;
        const fileEnd = e.file + e.length;
        if (flags & GAP) e.offset = end + unzigzag(varint());
        else e.offset = end;
        if (flags & LENGTH) e.length = varint();
        if (flags & FILE_STEP) fileStep = unzigzag(varint());
        if (flags & PACKET_STEP) packetStep = unzigzag(varint());
        e.file = fileEnd + fileStep;
        e.packet += packetStep;
      }
      if (!visit(e)) return;
    }
    if (this.hasOpen) visit(this.open);
  }

  /** The packet that carried stream byte `offset`, or null (a gap, or past the end). */
  packetAt(offset: number): number | null {
    let packet: number | null = null;
    this.scan(offset, (e) => {
      if (offset < e.offset) return false;
      if (offset < e.offset + e.length) {
        packet = e.packet;
        return false;
      }
      return true;
    });
    return packet;
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
    this.scan(offset, (e) => {
      if (e.offset >= end) return false;
      const stop = Math.min(end, e.offset + e.length);
      if (stop <= at) return true; // an entry before the range
      if (e.offset > at) {
        missing.push({ start: at - offset, end: e.offset - offset });
        at = e.offset;
      }
      const file = e.file + (at - e.offset);
      bytes.set(source.read(file, file + (stop - at)), at - offset);
      at = stop;
      return at < end;
    });
    if (at < end) missing.push({ start: at - offset, end: length });
    return { bytes, missing };
  }
}

function grown<T extends Uint8Array | Uint32Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}
