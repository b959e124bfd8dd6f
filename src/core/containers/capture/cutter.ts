/**
 * One direction's stream cut into protocol messages (captures.md "Messages on a connection"):
 * `[256-byte consensus header][body]` by the header's size (u32 @48, 256..64 MiB). A size out of
 * range stops the cutting; only after a gap does it look for the next plausible header again. A gap
 * inside a message of known size skips to its end, so one lost segment costs one message.
 */
import { CONSENSUS_HEADER_SIZE, COMMAND } from "../../../format/containers/consensus.ts";
import { timeOf, type PacketTime } from "./reassembly.ts";

/** Largest message size the server accepts (core/message_bus/src/framing.rs). */
export const MAX_MESSAGE_SIZE = 64 << 20;

/** A message up to this size gets its whole buffer once its size is known; a larger one grows by doubling from it. */
const WHOLE_BUFFER = 1 << 20;

/**
 * Message buffers handed back after their message was decoded, for the next message of any
 * direction: a capture of many messages costs a few buffers, not one zeroed allocation each.
 */
export class MessageBuffers {
  private free: Uint8Array[] = [];
  private freeBytes = 0;

  /** A buffer of at least `min` bytes; a new one has `size` bytes. */
  take(min: number, size: number): Uint8Array {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) if (this.free[i]!.length >= min && (best < 0 || this.free[i]!.length < this.free[best]!.length)) best = i;
    if (best < 0) return new Uint8Array(size);
    const b = this.free.splice(best, 1)[0]!;
    this.freeBytes -= b.length;
    return b;
  }

  /** Hands a buffer back (kept while the free ones stay under 16 MiB, the smallest dropped first). */
  give(b: Uint8Array): void {
    this.free.push(b);
    this.freeBytes += b.length;
    while (this.freeBytes > FREE_BYTES) {
      let small = 0;
      for (let i = 1; i < this.free.length; i++) if (this.free[i]!.length < this.free[small]!.length) small = i;
      this.freeBytes -= this.free.splice(small, 1)[0]!.length;
    }
  }
}

/** Bytes of free buffers kept. */
const FREE_BYTES = 16 << 20;

/** A message as cut from the stream. */
export interface CutMessage {
  /** Index in its connection, given when its first byte arrived. */
  readonly index: number;
  readonly streamOffset: number;
  /** The header's size, or null when its bytes were never seen. */
  readonly size: number | null;
  /** The message's bytes when every one of them was seen (else null); valid only during the sink's call (the buffer is reused). */
  readonly bytes: Uint8Array | null;
  /** The first header bytes seen contiguously from the message's start (up to 256). */
  readonly head: Uint8Array;
  /** Bytes of the message the capture never saw. */
  readonly missing: number;
  /** False when the stream or the capture ended inside it. */
  readonly ended: boolean;
  /** False when its size was out of range (the stream cannot be cut past it). */
  readonly sizeValid: boolean;
  readonly packet: number;
  readonly timeNs: bigint;
}

/** What the cutter reports. */
export interface CutterSink {
  /** A message's first byte arrived: its index in the connection. */
  start(streamOffset: number, packet: number, timeNs: bigint): number;
  message(m: CutMessage): void;
}

/** True when the 256 bytes at `at` look like a consensus header a side may send (size in range, command, zero reserved_frame). */
export function plausibleHeader(b: Uint8Array, at: number, commands: readonly number[], partial = false): boolean {
  // A partial head (a snap length cut the rest) still shows its size and command from 62 bytes on.
  if (at + (partial ? 62 : CONSENSUS_HEADER_SIZE) > b.length) return false;
  const size = (b[at + 48]! | (b[at + 49]! << 8) | (b[at + 50]! << 16) | (b[at + 51]! << 24)) >>> 0;
  if (size < CONSENSUS_HEADER_SIZE || size > MAX_MESSAGE_SIZE) return false;
  if (!commands.includes(b[at + 60]!)) return false;
  for (let i = at + 62; i < Math.min(at + 128, b.length); i++) if (b[i] !== 0) return false;
  return true;
}

/** Commands each side sends. */
export const CLIENT_COMMANDS: readonly number[] = [COMMAND.request];
export const SERVER_COMMANDS: readonly number[] = [COMMAND.reply, COMMAND.eviction];

interface Current {
  index: number;
  start: number;
  size: number | null;
  head: Uint8Array;
  headFill: number;
  /** The message's bytes so far while none is missing (null once one is), in a buffer from MessageBuffers. */
  buf: Uint8Array | null;
  /** Bytes of the message passed so far (seen or not). */
  passed: number;
  missing: number;
  packet: number;
  timeNs: bigint;
}

/** Cuts one direction; feed it in stream order. */
export class MessageCutter {
  private cur: Current | null = null;
  /** "cut": at a message boundary or inside one; "lost": cannot cut until a gap; "resync": after a gap, looking for a header. */
  private mode: "cut" | "lost" | "resync" = "cut";
  private tail = new Uint8Array(0);

  constructor(
    private readonly sink: CutterSink,
    private readonly commands: readonly number[],
    private readonly buffers: MessageBuffers = new MessageBuffers(),
  ) {}

  /** In-order bytes at `offset`; `time` is read only when a message starts in them. */
  data(offset: number, bytes: Uint8Array, packet: number, time: PacketTime): void {
    let at = 0;
    while (at < bytes.length) {
      if (this.mode === "lost") return;
      if (this.mode === "resync") {
        at += this.resync(offset + at, bytes.subarray(at), packet, time);
        continue;
      }
      if (!this.cur) this.cur = this.open(offset + at, packet, timeOf(time));
      at += this.feed(this.cur, bytes, at);
      this.afterFeed();
    }
  }

  /** `length` bytes never seen, at the current position. */
  gap(length: number): void {
    const c = this.cur;
    if (this.mode === "cut" && c) {
      if (c.size !== null) {
        // Inside a message of known size: skip to its end, and go on cutting if the gap ends inside it.
        const take = Math.min(length, c.size - c.passed);
        c.passed += take;
        c.missing += take;
        if (c.passed >= c.size) this.emit(c, true);
        if (take === length) return;
      } else {
        // The size was never seen: the message is lost, and with it where the next one starts.
        c.passed += length;
        c.missing += length;
        this.emit(c, false);
      }
    }
    this.cur = null;
    this.mode = "resync";
    this.tail = new Uint8Array(0);
  }

  /** The end of the stream: a message begun is incomplete. */
  finish(): void {
    if (this.cur && this.mode === "cut") this.emit(this.cur, false);
    this.cur = null;
  }

  /** Index of the message being cut, or null between messages. */
  get currentIndex(): number | null {
    return this.cur?.index ?? null;
  }

  private open(start: number, packet: number, timeNs: bigint): Current {
    const index = this.sink.start(start, packet, timeNs);
    return { index, start, size: null, head: new Uint8Array(CONSENSUS_HEADER_SIZE), headFill: 0, buf: null, passed: 0, missing: 0, packet, timeNs };
  }

  /** Takes what belongs to the current message from `bytes` at `from`; returns the bytes used. */
  private feed(c: Current, bytes: Uint8Array, from: number): number {
    const want = (c.size ?? CONSENSUS_HEADER_SIZE) - c.passed;
    const n = Math.min(want, bytes.length - from);
    // Most segments go whole into one message: no view of a part made.
    const part = from === 0 && n === bytes.length ? bytes : bytes.subarray(from, from + n);
    if (c.headFill === c.passed && c.headFill < CONSENSUS_HEADER_SIZE) {
      const h = Math.min(n, CONSENSUS_HEADER_SIZE - c.headFill);
      c.head.set(part.subarray(0, h), c.headFill);
      c.headFill += h;
    }
    // Body bytes are kept only while the message is whole so far (a message with a hole is not decoded),
    // copied once into one buffer: its size when that is at most 1 MiB, else grown by doubling, so a
    // size that lies costs at most twice the bytes that arrived (or 1 MiB).
    if (c.missing === 0) {
      const need = c.passed + n;
      if (!c.buf || need > c.buf.length) {
        const size = c.size ?? CONSENSUS_HEADER_SIZE;
        const whole = size <= WHOLE_BUFFER;
        const grown = this.buffers.take(whole ? size : need, whole ? size : Math.min(size, Math.max(need, WHOLE_BUFFER, 2 * (c.buf?.length ?? 0))));
        if (c.buf) {
          grown.set(c.buf.subarray(0, c.passed));
          this.buffers.give(c.buf);
        }
        c.buf = grown;
      }
      c.buf.set(part, c.passed);
    } else if (c.buf) {
      this.buffers.give(c.buf);
      c.buf = null;
    }
    c.passed += n;
    return n;
  }

  private afterFeed(): void {
    const c = this.cur;
    if (!c) return;
    if (c.size === null && c.headFill >= 52) {
      const size = (c.head[48]! | (c.head[49]! << 8) | (c.head[50]! << 16) | (c.head[51]! << 24)) >>> 0;
      if (size < CONSENSUS_HEADER_SIZE || size > MAX_MESSAGE_SIZE) {
        this.emit(c, true, size, false);
        this.mode = "lost";
        return;
      }
      c.size = size;
    }
    if (c.size !== null && c.passed >= c.size) this.emit(c, true);
  }

  private emit(c: Current, ended: boolean, size: number | null = c.size, sizeValid = true): void {
    let bytes: Uint8Array | null = null;
    if (c.missing === 0 && ended && sizeValid && c.buf) bytes = c.buf.subarray(0, c.passed);
    this.sink.message({
      index: c.index,
      streamOffset: c.start,
      size,
      bytes,
      head: c.head.subarray(0, c.headFill),
      missing: c.missing,
      ended,
      sizeValid,
      packet: c.packet,
      timeNs: c.timeNs,
    });
    if (c.buf) this.buffers.give(c.buf);
    c.buf = null;
    this.cur = null;
  }

  /** Looks for a plausible header in the bytes after a gap; returns the bytes of `bytes` consumed. */
  private resync(offset: number, bytes: Uint8Array, packet: number, time: PacketTime): number {
    // The tail holds the bytes just before `offset` (at most 255), for a header that straddles two chunks.
    const joined = new Uint8Array(this.tail.length + bytes.length);
    joined.set(this.tail);
    joined.set(bytes, this.tail.length);
    const joinedStart = offset - this.tail.length;
    for (let p = 0; p + CONSENSUS_HEADER_SIZE <= joined.length; p++) {
      if (!plausibleHeader(joined, p, this.commands)) continue;
      this.mode = "cut";
      this.tail = new Uint8Array(0);
      this.cur = this.open(joinedStart + p, packet, timeOf(time));
      const used = this.feed(this.cur, joined, p);
      this.afterFeed();
      return Math.min(bytes.length, joinedStart + p + used - offset);
    }
    this.tail = joined.slice(Math.max(0, joined.length - (CONSENSUS_HEADER_SIZE - 1)));
    return bytes.length;
  }
}
