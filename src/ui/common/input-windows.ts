/**
 * Reading an input's bytes for a view: the whole input when it is in memory, else the windows at hand
 * now (peek) and the ranges still to load, with a hook that re-renders when read pages land and the
 * message a failed read shows. Nothing here reads the whole of an input read on demand.
 */
import { useEffect, useState } from "react";
import type { InputWindows } from "../../core/view/byte-map.ts";
import type { ByteWindow, InputBytes } from "../../lib/input-bytes.ts";

/** A half-open byte range. */
export interface Range {
  readonly start: number;
  readonly end: number;
}

/** What could be read now: windows for the helpers, and the ranges that missed (empty when all hit). */
export interface Peeked {
  readonly windows: InputWindows;
  readonly missing: readonly Range[];
}

/** Peeks each range of `source`; an input in memory holds them all. */
export function peekRanges(source: InputBytes, ranges: readonly Range[]): Peeked {
  if (source.whole) return { windows: source.whole, missing: [] };
  const windows: ByteWindow[] = [];
  const missing: Range[] = [];
  for (const r of ranges) {
    const w = r.end > r.start ? source.peek(r.start, r.end) : { start: r.start, bytes: new Uint8Array(0) };
    if (w) windows.push(w);
    else missing.push(r);
  }
  return { windows, missing };
}

/** Loads the ranges (each on its own: they may lie far apart); `onError` hears a failed read. */
export function loadRanges(source: InputBytes, ranges: readonly Range[], onError: (message: string) => void): void {
  for (const r of ranges) {
    source.load(r.start, r.end).catch((e: unknown) => onError(readErrorText(r.start, r.end, e)));
  }
}

/** The message a failed read shows: which bytes, and why (the file changed or vanished on disk). */
export function readErrorText(start: number, end: number, error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return `Could not read bytes ${start.toLocaleString("en-US")}..${end.toLocaleString("en-US")} of the file: ${why}. Open the file again.`;
}

/** Re-renders the calling component whenever read pages of `source` land; returns a counter that changes then. */
export function useBytesLanded(source: InputBytes): number {
  const [landed, setLanded] = useState(0);
  useEffect(() => source.subscribe(() => setLanded((n) => n + 1)), [source]);
  return landed;
}
