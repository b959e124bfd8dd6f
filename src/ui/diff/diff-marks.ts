/** Which bytes each side's hex pane marks: every differing field of a batch diff, as byte runs in that side's input. */
import { byteDiff, type DiffRun } from "../../core/view/byte-diff.ts";
import type { DiffRow } from "../../core/view/diff.ts";

/** Runs of a payload or user-headers diff kept for the panes (the table's note keeps fewer). */
export const MAX_MARK_RUNS = 4096;

/**
 * The differing bytes of one side within [from, to), sorted and merged: a payload or user-headers
 * row marks its byte diff's runs (clipped to that side's length), any other differing field its
 * whole span; a field the side lacks marks nothing there.
 */
export function diffMarks(rows: readonly DiffRow[], side: "left" | "right", from: number, to: number): DiffRun[] {
  const runs: DiffRun[] = [];
  const add = (start: number, end: number) => {
    const s = Math.max(start, from),
      e = Math.min(end, to);
    if (s < e) runs.push({ start: s, end: e });
  };
  for (const row of rows) {
    const span = row.same ? null : row.spans?.[side];
    if (!span) continue;
    if (!row.bytes) {
      add(span.start, span.end);
      continue;
    }
    const diff = row.bytes.diff.truncated ? byteDiff(row.bytes.left, row.bytes.right, MAX_MARK_RUNS) : row.bytes.diff;
    for (const r of diff.runs) add(span.start + r.start, Math.min(span.end, span.start + r.end));
  }
  runs.sort((a, b) => a.start - b.start);
  const merged: DiffRun[] = [];
  for (const r of runs) {
    const last = merged.at(-1);
    if (last && r.start <= last.end) merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, r.end) };
    else merged.push(r);
  }
  return merged;
}

/** How many bytes a list of disjoint runs covers. */
export function markedBytes(runs: readonly DiffRun[]): number {
  let n = 0;
  for (const r of runs) n += r.end - r.start;
  return n;
}
