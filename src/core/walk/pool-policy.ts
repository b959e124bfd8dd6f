/**
 * The one policy for walking a large input on several threads, for the page (Web Workers) and the CLI
 * (worker_threads) alike: from which size a file streams instead of being read whole, from which size
 * it is shared with range workers, how many threads and streams, and how large the pieces are.
 * Measured with `npm run bench` (the CLI rows) and `npm run bench:page`.
 */

/** Files from this size on are read as they stream (never whole): the page reads them on demand, the CLI through the kernel. */
export const STREAM_MIN_BYTES = 64 << 20;

/**
 * Files from this size on are walked by more than one thread. The calling thread starts on the first
 * range at once and workers (about 30-80 ms to boot) take ranges as they come up; below this size one
 * thread is done before a worker would help.
 */
export const POOL_MIN_BYTES = 128 << 20;

/** Threads at most, the calling one included (more gain nothing measurable: the walk is bound by reads and merging). */
export const MAX_THREADS = 4;

/** Streams a page reads a large File as at once (one stream is bound by its reads' latency). */
export const MAX_STREAMS = 4;

/** Bytes per range a page's stream hands on: large enough that a worker's reply costs little, small enough to keep few in memory. */
export const STREAM_CHUNK_BYTES = 4 << 20;

/** Bytes per range the CLI's pool hands out (a file read by path, so larger ranges cost no memory). */
export const POOL_RANGE_BYTES = 32 << 20;

/** Threads (the calling one included) for an input of `size` bytes on `cores` cores, where workers can start. */
export function threadsFor(size: number, cores: number): number {
  return size < POOL_MIN_BYTES ? 1 : Math.max(1, Math.min(MAX_THREADS, cores));
}

/**
 * How a page reads and walks a File of `size` bytes with `threads` threads: streams at once, range workers,
 * and whether the reading thread walks too. Several streams from the pool's size on, even on one core: a
 * stream is bound by its reads' latency, and the browser reads the File on a thread of its own.
 */
export function streamedWalkFor(size: number, threads: number): { streams: number; workers: number; walkHere: boolean } {
  const streams = size < POOL_MIN_BYTES ? 1 : MAX_STREAMS;
  // Measured on 2 cores at 1 GiB (100 B payloads, to the summary): 4 streams walked on 2 range workers took 0.96-0.98 s
  // and peaked at 0.41 × the file; walked in this thread alone 1.00-1.07 s and 0.39 ×; one stream walked here 1.37-1.41 s.
  if (threads <= 1) return { streams, workers: 0, walkHere: true };
  return { streams, workers: threads, walkHere: false };
}
