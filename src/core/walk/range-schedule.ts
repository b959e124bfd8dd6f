/**
 * All cores for one input, host-independent: ranges are cut as threads ask for them (a header walk,
 * range-cuts.ts), each worker keeps a couple in flight, the calling thread walks ranges too (it starts
 * at once while workers boot, and at the end walks what is still queued at a slow worker), and the
 * results come back in input order for mergeRanges. The CLI (worker_threads) and the page (Web
 * Workers) differ only in how a worker runs a range.
 */
import type { RangeSupply } from "./range-cuts.ts";
import type { RangeResult } from "./range-walk.ts";
import type { RangePlan } from "./stream-analyze.ts";

/** A worker as the scheduler sees it: when it can take work, and one range walked. */
export interface RangeRunner {
  readonly ready: Promise<void>;
  run(plan: RangePlan): Promise<RangeResult>;
}

/** What one scheduled walk needs. */
export interface ScheduleOptions {
  /** Cuts the next range of about the bytes asked for. */
  readonly supply: RangeSupply;
  readonly size: number;
  readonly startOffset: number;
  readonly workers: readonly RangeRunner[];
  /** Walks a range on the calling thread; absent, only workers walk. */
  readonly walkHere?: (plan: RangePlan) => RangeResult;
  /** Lets queued worker replies run between two ranges walked here. */
  readonly yieldToEvents: () => Promise<void>;
  /** Fixed bytes per range (tests); default a share of what is left. */
  readonly rangeBytes?: number;
  /** Called with the bytes of each range as it is done (in any order). */
  readonly onRangeDone?: (plan: RangePlan) => void;
}

/**
 * Bytes of the next range: a share of what is left (so a worker booting late or a slower core still
 * gets work, and the last ranges are small enough that no thread waits long for the others), within
 * 4-32 MiB (a few ms of walking; merging stays cheap).
 */
export function nextRangeBytes(left: number, threads: number): number {
  return Math.max(4 << 20, Math.min(32 << 20, Math.ceil(left / (threads * 3))));
}

/** Jobs a worker holds at once, so it never waits for the calling thread to hand it the next one. */
const JOBS_IN_FLIGHT = 2;

/** Walks every range of the input over the workers (and the calling thread); the results in input order. */
export async function scheduleRanges(options: ScheduleOptions): Promise<RangeResult[]> {
  const { supply, workers, walkHere } = options;
  if (workers.length === 0 && !walkHere) throw new Error("a pool of no workers needs the calling thread");
  const threads = workers.length + (walkHere ? 1 : 0);
  const plans: RangePlan[] = [];
  const results: Array<RangeResult | undefined> = [];
  let exhausted = false;
  let filled = 0;
  let settle: (failure?: unknown) => void = () => undefined;
  let failed = false;
  const done = new Promise<void>((resolve, reject) => {
    settle = (failure) => {
      if (failure !== undefined) failed = true;
      if (failure === undefined) resolve();
      else reject(failure instanceof Error ? failure : new Error("range pool: a worker failed"));
    };
  });
  // A worker may fail while this thread walks (or after it threw): awaited below, never an unhandled rejection meanwhile.
  done.catch(() => undefined);
  // A range may be walked twice (see below): the first result counts; both are the same.
  const fill = (i: number, r: RangeResult): void => {
    if (results[i]) return;
    results[i] = r;
    filled++;
    options.onRangeDone?.(plans[i] as RangePlan);
    if (exhausted && filled === plans.length) settle();
  };
  /** Cuts the next range for whichever thread asks; -1 when the input is all handed out. */
  const claim = (): number => {
    if (exhausted) return -1;
    const left = options.size - (plans.at(-1)?.end ?? options.startOffset);
    const p = supply.next(options.rangeBytes ?? nextRangeBytes(left, threads));
    if (!p) {
      exhausted = true;
      if (filled === plans.length) settle();
      return -1;
    }
    plans.push(p);
    return plans.length - 1;
  };
  /** Ranges posted to a worker and not answered yet. */
  const posted = new Set<number>();
  const lastOf = (s: Set<number>): number => {
    let m = -1;
    for (const i of s) m = Math.max(m, i);
    return m;
  };
  // Each worker keeps JOBS_IN_FLIGHT ranges; a reply hands it the next unclaimed one. A failed job fails the input.
  const feed = (w: RangeRunner): void => {
    const i = claim();
    if (i < 0) return;
    posted.add(i);
    w.run(plans[i] as RangePlan).then(
      (r) => {
        posted.delete(i);
        fill(i, r);
        feed(w);
      },
      (err: unknown) => settle(err),
    );
  };
  for (const w of workers)
    void w.ready.then(
      () => {
        for (let k = 0; k < JOBS_IN_FLIGHT; k++) feed(w);
      },
      () => undefined,
    );
  if (walkHere) {
    const here = (i: number): void => fill(i, walkHere(plans[i] as RangePlan));
    for (let i = claim(); i >= 0 && !failed; i = claim()) {
      here(i);
      await options.yieldToEvents();
    }
    // Nothing left to claim: rather than wait for a worker that is slow or descheduled (a busy machine),
    // walk what is still queued at workers too, the last first; whichever thread ends first counts.
    for (let i = lastOf(posted); i >= 0 && !failed; i = lastOf(posted)) {
      posted.delete(i);
      here(i);
      await options.yieldToEvents();
    }
  } else Promise.any(workers.map((w) => w.ready)).catch((err: unknown) => settle(err));
  await done;
  return results as RangeResult[];
}
