/** The diagnostic cap: which findings an analysis keeps once it has found more than it may list. */
import type { Diagnostic } from "../../format/diagnostics.ts";

const byPosition = (a: Diagnostic, b: Diagnostic): number => a.start - b.start || a.end - b.end;

/**
 * Keeps every batch-level finding (no frame) and the first frame-level findings by position, so that
 * batch-level and frame-level findings together fill `max` (batch-level ones are kept even past it).
 * Batches arrive in input order and never overlap, so once a batch ends with `max` frame-level
 * findings kept, every later frame-level finding lies further on and can be counted without keeping it.
 */
export class DiagnosticKeeper {
  private readonly batchLevel: Diagnostic[] = [];
  private frameLevel: Diagnostic[] = [];
  private closed = false;
  private dropped = 0;

  constructor(private readonly max: number) {}

  /** Offers one finding, in whatever order the checks emit them. */
  add(d: Diagnostic): void {
    if (d.batch === null || d.frame === null) {
      this.batchLevel.push(d);
      return;
    }
    if (this.closed) {
      this.dropped++;
      return;
    }
    this.frameLevel.push(d);
    // Inside one batch findings come out of order; compact now and then so memory stays bounded.
    if (this.frameLevel.length >= 2 * this.max + 1024) this.trim();
  }

  /** Marks the end of a batch: later frame-level findings all lie past this batch's. */
  endBatch(): void {
    if (this.frameLevel.length >= this.max) {
      this.trim();
      this.closed = true;
    }
  }

  /** The kept findings in input order (start, then end) and how many were dropped. */
  finish(): { diagnostics: Diagnostic[]; omitted: number } {
    this.frameLevel.sort(byPosition);
    const room = Math.max(0, this.max - this.batchLevel.length);
    const frames = this.frameLevel.length > room ? this.frameLevel.slice(0, room) : this.frameLevel;
    const omitted = this.dropped + this.frameLevel.length - frames.length;
    const diagnostics = this.batchLevel.length === 0 ? frames : [...this.batchLevel, ...frames].sort(byPosition);
    return { diagnostics, omitted };
  }

  private trim(): void {
    this.frameLevel.sort(byPosition);
    if (this.frameLevel.length > this.max) {
      this.dropped += this.frameLevel.length - this.max;
      this.frameLevel.length = this.max;
    }
  }
}
