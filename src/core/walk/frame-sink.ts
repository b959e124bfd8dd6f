/**
 * The frame columns of one stream of batch-aligned ranges, in input order: ranges walked in this thread
 * write into them (RangeTask.frames), ranges walked elsewhere are appended as they come back. Sized once
 * from the frame density of the first range for all the bytes the stream is expected to cover, so the
 * frames are neither made per range nor joined at the end (a 1 GiB File's frame columns are about 65 MiB).
 */
import { FRAME_HEADER_SIZE } from "../../format/fields.ts";
import { frameColumnBuffers, KeptColumnsBuilder } from "../model/frame-columns-build.ts";
import type { FrameColumns } from "../model/model.ts";

/** One stream's frame columns; see the module's doc. */
export class FrameSink {
  private builder: KeptColumnsBuilder | null = null;
  // Bytes of the ranges whose frames are here: with the frames, the density the columns are sized by.
  private bytes = 0;

  /** `target`: bytes the stream is expected to cover (the whole input for the first stream, which the others join); `wide`: widePositions. */
  constructor(
    private target: number,
    private readonly wide: boolean,
  ) {}

  /** The columns the next range may be walked into, or null until a range's frames show the density. */
  get columns(): KeptColumnsBuilder | null {
    return this.builder;
  }

  /** Frames here. */
  get count(): number {
    return this.builder?.count ?? 0;
  }

  /** The stream goes on past what it was expected to cover: `target` bytes now. */
  cover(target: number): void {
    this.target = Math.max(this.target, target);
  }

  /** A range of `bytes` was walked into `columns`. */
  walked(bytes: number): void {
    this.bytes += bytes;
    this.fit();
  }

  /** Appends the frames of the next range, of `bytes` bytes, walked into columns of its own. */
  place(frames: FrameColumns, bytes: number): void {
    this.builder ??= new KeptColumnsBuilder(this.expected(frames.count, bytes), this.wide);
    this.builder.append(frames);
    this.walked(bytes);
  }

  /** Appends the frames of `next`, the stream that follows this one; `release` gets its buffers. */
  join(next: FrameSink, release: (buffer: ArrayBuffer) => void): void {
    if (!next.builder) return;
    const frames = next.builder.finish(true);
    if (this.builder) {
      this.builder.reserve(this.builder.count + frames.count);
      this.builder.append(frames);
    } else this.builder = next.builder;
    this.bytes += next.bytes;
    if (this.builder !== next.builder) for (const b of frameColumnBuffers(frames)) release(b);
  }

  /** The columns of every frame placed. */
  finish(): FrameColumns {
    return (this.builder ?? new KeptColumnsBuilder(0, this.wide)).finish();
  }

  /** Hands every buffer to `release` (a stream whose walk is not kept). */
  release(release: (buffer: ArrayBuffer) => void): void {
    if (this.builder) for (const b of frameColumnBuffers(this.builder.finish(true))) release(b);
    this.builder = null;
  }

  // Frames expected over the target at the density of `frames` in `bytes`, with a little room; at most one a frame header.
  private expected(frames: number, bytes: number): number {
    const most = Math.floor(this.target / FRAME_HEADER_SIZE) + 1;
    return Math.ceil(Math.min(most, bytes > 0 ? (frames / bytes) * this.target * 1.02 + 16 : 16));
  }

  // Grown at once to what the density so far expects, past the columns' room: one copy, not repeated doubling.
  private fit(): void {
    const b = this.builder;
    if (!b || this.bytes >= this.target) return;
    const want = this.expected(b.count, this.bytes);
    if (want > b.allocated) b.reserve(Math.max(want, b.allocated * 1.25));
  }
}
