/** A byte diff of two byte strings (payloads, user headers): the first differing byte and the runs that differ. */
import { plural } from "../../format/values.ts";

/** A half-open run of differing positions, counted from the start of both strings. */
export interface DiffRun {
  readonly start: number;
  readonly end: number;
}

/** What differs between two byte strings. */
export interface ByteDiff {
  readonly leftLength: number;
  readonly rightLength: number;
  /** First position where they differ (a length difference counts at the shorter end), or -1 when equal. */
  readonly firstDifference: number;
  /** Differing runs over the common length, then the tail of the longer one; at most maxRuns. */
  readonly runs: readonly DiffRun[];
  /** Differing positions in all (the tail of the longer one included), even past maxRuns. */
  readonly differing: number;
  /** True when more runs exist than were kept. */
  readonly truncated: boolean;
}

/** Compares left and right position by position (no alignment: the layouts are fixed). */
export function byteDiff(left: Uint8Array, right: Uint8Array, maxRuns = 64): ByteDiff {
  const common = Math.min(left.length, right.length);
  const runs: DiffRun[] = [];
  let differing = 0;
  let truncated = false;
  let runStart = -1;
  const close = (end: number) => {
    if (runStart < 0) return;
    if (runs.length < maxRuns) runs.push({ start: runStart, end });
    else truncated = true;
    runStart = -1;
  };
  for (let i = 0; i < common; i++) {
    if (left[i] !== right[i]) {
      differing++;
      if (runStart < 0) runStart = i;
    } else {
      close(i);
    }
  }
  close(common);
  const longer = Math.max(left.length, right.length);
  if (longer > common) {
    differing += longer - common;
    if (runs.length < maxRuns) runs.push({ start: common, end: longer });
    else truncated = true;
  }
  return { leftLength: left.length, rightLength: right.length, firstDifference: runs[0]?.start ?? -1, runs, differing, truncated };
}

/** One sentence for a diff cell: "same 100 bytes", or where and how much they differ. */
export function byteDiffText(d: ByteDiff): string {
  if (d.firstDifference < 0) return `same ${d.leftLength} bytes`;
  const lengths = d.leftLength === d.rightLength ? `${d.leftLength} bytes each` : `${d.leftLength} vs ${d.rightLength} bytes`;
  const runs = `${d.runs.length}${d.truncated ? "+" : ""} run${d.runs.length === 1 && !d.truncated ? "" : "s"}`;
  return `differ from byte ${d.firstDifference}: ${plural(d.differing, "byte")} in ${runs} (${lengths})`;
}
