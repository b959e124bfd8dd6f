/**
 * Progress at the pace a person reads it: a 1 GiB file reports a chunk every few milliseconds, and each
 * report re-renders and repaints the page on the main thread, which shares this machine's cores with
 * the workers doing the decode (72 whole-page paints in one opening, measured with a trace).
 */

/** Calls `report` for the first progress, then at most once every `everyMs`, and always for the last (done ≥ total); `rest` goes along. */
export function throttleProgress<Rest extends unknown[] = []>(
  report: (done: number, total: number, ...rest: Rest) => void,
  everyMs: number,
  now: () => number = () => performance.now(),
): (done: number, total: number, ...rest: Rest) => void {
  let last = -Infinity;
  return (done, total, ...rest) => {
    const t = now();
    if (done < total && t - last < everyMs) return;
    last = t;
    // eslint-disable-next-line no-restricted-syntax -- forwards its caller's few arguments
    report(done, total, ...rest);
  };
}
