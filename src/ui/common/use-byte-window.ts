/**
 * Reading the window of an input a view shows: at once when it is in memory (or its pages are),
 * else from the File, with the view re-rendered when its own reads land (not when another view's
 * pages do, so scrolling the hex map does not re-render the tables), never per row; the view shows
 * a placeholder (never zeros) until its window is there.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import type { ByteWindow, InputBytes } from "../../lib/input-bytes.ts";
import { readErrorText } from "./input-windows.ts";

/** A window being read: the bytes once at hand, or why the file could not be read. */
export interface WindowRead {
  readonly window: ByteWindow | null;
  readonly error: string | null;
}

/**
 * Bytes [start, end) of `source` (clamped to the input): the window when at hand, else null while
 * load() reads it (the view re-renders when it lands); the window is kept once read, so a page dropped
 * from the cache does not blank the view.
 */
export function useByteWindow(source: InputBytes, start: number, end: number): WindowRead {
  const [read, setRead] = useState<{ source: InputBytes; key: string; window: ByteWindow | null; error: string | null } | null>(null);
  const key = `${start}:${end}`;
  const held = useRef<{ source: InputBytes; key: string; window: ByteWindow } | null>(null);
  const mine = read && read.source === source && read.key === key ? read : null;
  // Peeked once per range: a window across pages is a copy, not to be made again on every render.
  if (!(held.current && held.current.source === source && held.current.key === key)) {
    const hit = source.peek(start, end) ?? mine?.window ?? null;
    held.current = hit ? { source, key, window: hit } : null;
  }
  const kept = held.current?.window ?? null;
  const missing = !kept && !mine;
  useEffect(() => {
    if (!missing) return;
    let live = true;
    source.load(start, end).then(
      (window) => live && setRead({ source, key: `${start}:${end}`, window, error: null }),
      (err: unknown) => live && setRead({ source, key: `${start}:${end}`, window: null, error: readErrorText(start, end, err) }),
    );
    return () => {
      live = false;
    };
  }, [source, start, end, missing]);
  return { window: kept, error: mine?.error ?? null };
}

/** Rows' windows read on demand: `read` peeks, and on a miss queues one load for the range. */
export interface RowReader {
  /** Bytes [start, end) when at hand, else null (the load is queued and the view re-renders when it lands). */
  readonly read: (start: number, end: number) => ByteWindow | null;
  /** Changes whenever read windows landed: a dependency for memoised cells. */
  readonly version: number;
  /** The first read that failed, as a sentence, or null. */
  readonly error: string | null;
}

// Small copies of windows read: a row's window would otherwise keep its whole 256 KiB page alive.
const KEPT_WINDOWS = 2048;

/**
 * The windows of table rows read from `source`: read() peeks, and on a miss queues the range, loaded
 * once after the current render; `landed` hears each read that lands (a copy of it is kept), `failed`
 * the sentence for each that fails (a failed range is not read again).
 */
export class RowWindows {
  private readonly kept = new Map<string, ByteWindow>();
  private readonly asked = new Set<string>();
  private queued: [number, number][] = [];

  constructor(
    readonly source: InputBytes,
    private readonly landed: () => void,
    private readonly failed: (message: string) => void,
  ) {}

  /** Bytes [start, end) when at hand, else null (the read is queued). */
  read(start: number, end: number): ByteWindow | null {
    const key = `${start}:${end}`;
    const got = this.source.peek(start, end) ?? this.kept.get(key) ?? null;
    if (got || this.asked.has(key)) return got;
    this.asked.add(key);
    // After the render that asked: a render stays free of side effects it cannot undo.
    if (this.queued.push([start, end]) === 1) setTimeout(() => this.flush(), 0);
    return null;
  }

  private flush(): void {
    const queued = this.queued;
    this.queued = [];
    for (const [start, end] of queued) {
      this.source.load(start, end).then(
        (w) => {
          if (this.kept.size >= KEPT_WINDOWS) this.kept.clear();
          this.kept.set(`${start}:${end}`, { start: w.start, bytes: w.bytes.slice() });
          this.asked.delete(`${start}:${end}`);
          this.landed();
        },
        (err: unknown) => this.failed(readErrorText(start, end, err)),
      );
    }
  }
}

/**
 * A reader for the visible rows of a table over `source` (RowWindows): every row's window is read
 * once, copies of small windows are kept for re-renders, and the table re-renders once per landed
 * read, not per row.
 */
export function useRowReader(source: InputBytes): RowReader {
  const [loaded, bump] = useReducer((n: number) => n + 1, 0);
  // Kept with the source it is about: a reset in an effect could land after a fast failure and hide it for good.
  const [error, setError] = useState<{ readonly source: InputBytes; readonly message: string } | null>(null);
  // Per source: a newly opened input starts with nothing kept or asked.
  const ref = useRef<RowWindows | null>(null);
  if (ref.current?.source !== source)
    ref.current = new RowWindows(source, bump, (message) => setError((e) => (e?.source === source ? e : { source, message })));
  const rows = ref.current;
  const read = useCallback((start: number, end: number) => rows.read(start, end), [rows]);
  return { read, version: loaded, error: error?.source === source ? error.message : null };
}
