/**
 * An input's bytes as the views read them: all in memory, or (a large file) read from its File a
 * page at a time as the views come to them, so the page's memory does not grow with the file.
 * Views ask synchronously with peek(); a miss starts the read and subscribers hear when it lands.
 */

/** Bytes [start, start + bytes.length) of an input: offsets stay absolute, `bytes[i - start]` is byte i. */
export interface ByteWindow {
  readonly start: number;
  readonly bytes: Uint8Array;
}

/** The whole of `bytes` as a window from offset 0. */
export const wholeWindow = (bytes: Uint8Array): ByteWindow => ({ start: 0, bytes });

/** Byte `offset` of a window, or undefined outside it. */
export const byteAt = (w: ByteWindow, offset: number): number | undefined => w.bytes[offset - w.start];

/** Bytes [start, end) of a window as a subarray (clamped to the window). */
export function windowSlice(w: ByteWindow, start: number, end: number): Uint8Array {
  return w.bytes.subarray(Math.max(0, start - w.start), Math.max(0, end - w.start));
}

/** An input's bytes, in memory or read on demand. */
export interface InputBytes {
  readonly size: number;
  /** The whole input when it is in memory; null when it is read on demand. */
  readonly whole: Uint8Array | null;
  /** The unchanged File the bytes are read from, when on demand. */
  readonly file: Blob | null;
  /** Bytes [start, end) (clamped to the input) when they are at hand now, else null: then load() them. */
  peek(start: number, end: number): ByteWindow | null;
  /** Bytes [start, end) (clamped to the input), read from the File where they are not at hand. */
  load(start: number, end: number): Promise<ByteWindow>;
  /** Calls `listener` whenever read pages land (a peek that missed may now hit); returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

const clamp = (size: number, start: number, end: number): [number, number] => {
  const s = Math.max(0, Math.min(size, Math.trunc(start)));
  return [s, Math.max(s, Math.min(size, Math.trunc(end)))];
};

/** Bytes already in memory: every peek hits. */
export function memoryBytes(bytes: Uint8Array): InputBytes {
  const window = (start: number, end: number): ByteWindow => {
    const [s, e] = clamp(bytes.length, start, end);
    return { start: s, bytes: bytes.subarray(s, e) };
  };
  return {
    size: bytes.length,
    whole: bytes,
    file: null,
    peek: window,
    load: (start, end) => Promise.resolve(window(start, end)),
    subscribe: () => () => {},
  };
}

/** How a file read on demand is cached. */
export interface FileBytesOptions {
  /** Bytes per page read from the File (default 256 KiB). */
  readonly pageBytes?: number;
  /** Pages kept, least recently used dropped first (default 64: 16 MiB of 256 KiB pages). */
  readonly maxPages?: number;
}

/**
 * A File read on demand through Blob.slice, in pages kept in a small LRU: peek() hits only within
 * pages already read; a range larger than the cache is read whole by load() and not kept.
 */
export function fileBytes(file: Blob, options: FileBytesOptions = {}): InputBytes {
  const pageBytes = options.pageBytes ?? 256 << 10;
  const maxPages = Math.max(2, options.maxPages ?? 64);
  const size = file.size;
  const pages = new Map<number, Uint8Array>();
  const reading = new Map<number, Promise<Uint8Array>>();
  const listeners = new Set<() => void>();

  const touch = (page: number): Uint8Array | undefined => {
    const got = pages.get(page);
    if (got) {
      pages.delete(page);
      pages.set(page, got);
    }
    return got;
  };
  const readPage = (page: number): Promise<Uint8Array> => {
    const got = touch(page);
    if (got) return Promise.resolve(got);
    const pending = reading.get(page);
    if (pending) return pending;
    const start = page * pageBytes;
    const end = Math.min(size, start + pageBytes);
    const read = file
      .slice(start, end)
      .arrayBuffer()
      .then((buffer) => {
        if (buffer.byteLength !== end - start) throw new Error(`the file changed since it was opened (${buffer.byteLength} bytes at ${start})`);
        const bytes = new Uint8Array(buffer);
        pages.set(page, bytes);
        for (const key of pages.keys()) {
          if (pages.size <= maxPages) break;
          pages.delete(key);
        }
        return bytes;
      })
      .finally(() => reading.delete(page));
    reading.set(page, read);
    return read;
  };
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  // Within one page a peek is a subarray; across pages it is a copy, so callers ask for small ranges.
  const assemble = (s: number, e: number, pageOf: (page: number) => Uint8Array | undefined): ByteWindow | null => {
    const first = Math.floor(s / pageBytes);
    const last = Math.floor(Math.max(s, e - 1) / pageBytes);
    if (first === last || e === s) {
      const page = pageOf(first);
      return page ? { start: s, bytes: page.subarray(s - first * pageBytes, e - first * pageBytes) } : null;
    }
    const out = new Uint8Array(e - s);
    for (let p = first; p <= last; p++) {
      const page = pageOf(p);
      if (!page) return null;
      const pageStart = p * pageBytes;
      const from = Math.max(s, pageStart);
      const to = Math.min(e, pageStart + page.length);
      out.set(page.subarray(from - pageStart, to - pageStart), from - s);
    }
    return { start: s, bytes: out };
  };
  const pagesSpanned = (s: number, e: number) => Math.floor(Math.max(s, e - 1) / pageBytes) - Math.floor(s / pageBytes) + 1;

  return {
    size,
    whole: null,
    file,
    peek(start, end) {
      const [s, e] = clamp(size, start, end);
      if (pagesSpanned(s, e) > maxPages) return null;
      return assemble(s, e, touch);
    },
    async load(start, end) {
      const [s, e] = clamp(size, start, end);
      if (pagesSpanned(s, e) > maxPages) return { start: s, bytes: new Uint8Array(await file.slice(s, e).arrayBuffer()) };
      const first = Math.floor(s / pageBytes);
      const last = Math.floor(Math.max(s, e - 1) / pageBytes);
      const wanted = Array.from({ length: last - first + 1 }, (_, i) => first + i);
      const fresh = wanted.some((p) => !pages.has(p));
      const got = await Promise.all(wanted.map(readPage));
      if (fresh) notify();
      return assemble(s, e, (p) => got[p - first]) as ByteWindow;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
