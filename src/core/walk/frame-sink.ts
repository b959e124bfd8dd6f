/**
 * The frame columns of an input walked as several streams of batch-aligned ranges at once, in one set of
 * columns for the whole input: each stream writes into its own share of them (FrameSink), laid out from the
 * frame density of the first range placed, and the shares are moved together in place at the end. Ranges
 * walked in this thread write straight into their stream's share (RangeTask.frames), ranges walked elsewhere
 * are appended as they come back. So the frames are neither made per range nor copied into new columns to be
 * joined (a 1 GiB File's frame columns are about 65 MiB); a stream that outgrows its share moves to columns
 * of its own and is copied in at the end.
 */
import { FRAME_HEADER_SIZE } from "../../format/fields.ts";
import { frameColumnBuffers, KeptColumnsBuilder } from "../model/frame-columns-build.ts";
import type { FrameColumns } from "../model/model.ts";

/** Room for frames over the density seen: a little more, so a stream rarely outgrows its share. */
const ROOM = 1.02;

/** One set of frame columns for an input of `size` bytes read as streams starting at `starts` (the first at 0). */
export class FileFrames {
  /** Each stream's share, in input order. */
  readonly sinks: readonly FrameSink[];
  private whole: KeptColumnsBuilder | null = null;

  constructor(
    starts: readonly number[],
    size: number,
    private readonly wide: boolean,
  ) {
    this.sinks = starts.map((start, k) => new FrameSink(this, (starts[k + 1] ?? size) - start, wide));
  }

  /** Lays the shares out at `frames` a byte (a share may not be used, or outgrow its room: both are allowed). */
  open(density: number): void {
    if (this.whole) return;
    const most = (bytes: number): number => Math.floor(bytes / FRAME_HEADER_SIZE) + 1;
    const room = (bytes: number): number => Math.ceil(Math.min(most(bytes), density * bytes * ROOM + 16));
    const rooms = this.sinks.map((s) => room(s.span));
    const whole = new KeptColumnsBuilder(
      rooms.reduce((n, r) => n + r, 0),
      this.wide,
    );
    let at = 0;
    for (const [k, sink] of this.sinks.entries()) {
      const r = rooms[k] as number;
      sink.share(
        KeptColumnsBuilder.over(
          { start: whole.start.subarray(at), payloadLength: whole.payloadLength.subarray(at), flags: whole.flags.subarray(at) },
          r,
          this.wide,
        ),
      );
      at += r;
    }
    this.whole = whole;
  }

  /** Every frame of the first `streams` streams, in input order; `release` gets the columns no longer needed. */
  finish(streams: number, release: (buffer: ArrayBuffer) => void): FrameColumns {
    const kept = this.sinks.slice(0, streams);
    const parts = kept.map((s) => s.frames());
    const whole = this.whole;
    if (!whole) return new KeptColumnsBuilder(0, this.wide).finish();
    // In place while every share moves down (or stays): each lands before the next share's frames.
    let at = 0;
    let inPlace = true;
    for (const part of parts) {
      if (part.start.buffer === whole.start.buffer && (part.start.byteOffset - whole.start.byteOffset) / whole.start.BYTES_PER_ELEMENT < at) inPlace = false;
      at += part.count;
    }
    const into = inPlace ? whole : new KeptColumnsBuilder(at, this.wide);
    into.reserve(at);
    for (const part of parts) into.append(part);
    // Only once every part is in: several parts are views of one buffer.
    const done = new Set(parts.flatMap((part) => frameColumnBuffers(part)));
    for (const b of frameColumnBuffers(into.finish(true))) done.delete(b);
    for (const b of done) release(b);
    return into.finish();
  }
}

/** One stream's share of the frame columns (FileFrames); see the module's doc. */
export class FrameSink {
  private builder: KeptColumnsBuilder | null = null;
  // Bytes of the ranges whose frames are here: with the frames, the density the share is grown by once outgrown.
  private bytes = 0;

  constructor(
    private readonly file: FileFrames,
    /** Bytes the stream is expected to cover. */
    public span: number,
    private readonly wide: boolean,
  ) {}

  /** The columns the next range may be walked into, or null until a range's frames show the density. */
  get columns(): KeptColumnsBuilder | null {
    return this.builder;
  }

  /** The stream goes on to cover `span` bytes (past the next stream's start, whose walk is not kept). */
  cover(span: number): void {
    this.span = Math.max(this.span, span);
  }

  /** A range of `bytes` was walked into `columns`. */
  walked(bytes: number): void {
    this.bytes += bytes;
    this.fit();
  }

  /** Appends the frames of the next range, of `bytes` bytes, walked into columns of its own. */
  place(frames: FrameColumns, bytes: number): void {
    if (!this.builder) this.file.open(bytes > 0 ? frames.count / bytes : 0);
    this.builder ??= new KeptColumnsBuilder(frames.count, this.wide);
    this.builder.append(frames);
    this.walked(bytes);
  }

  /** Gives the stream its share of the file's columns (FileFrames.open). */
  share(columns: KeptColumnsBuilder): void {
    this.builder ??= columns;
  }

  /** The frames here, as views. */
  frames(): FrameColumns {
    return (this.builder ?? new KeptColumnsBuilder(0, this.wide)).finish(true);
  }

  // Nearly full, and the density so far expects more: grown at once to what it expects, one copy, not repeated
  // doubling (a share so grown leaves the file's columns for its own, copied in at the end).
  private fit(): void {
    const b = this.builder;
    if (!b || this.bytes >= this.span || b.count === 0 || b.allocated - b.count > b.allocated * 0.05) return;
    const want = Math.ceil(Math.min(this.span / FRAME_HEADER_SIZE + 1, b.count + (b.count / this.bytes) * (this.span - this.bytes) * ROOM + 16));
    if (want > b.allocated) b.reserve(Math.max(want, b.allocated * 1.25));
  }
}
