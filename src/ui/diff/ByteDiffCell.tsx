/** One side of a payload or user-headers diff: the bytes around the first difference, differing bytes marked. */
import type { JSX } from "react";
import type { ByteDiff } from "../../core/view/byte-diff.ts";

/** Bytes shown before the first difference, and in all. */
const BEFORE = 8;
const SHOWN = 32;

/** The window of `bytes` around diff's first difference (or its start when equal), with each differing byte in a <mark>. */
export function ByteDiffCell({ bytes, diff }: { bytes: Uint8Array; diff: ByteDiff }): JSX.Element {
  const from = Math.max(0, diff.firstDifference - BEFORE);
  const to = Math.min(bytes.length, from + SHOWN);
  const differs = (i: number) => diff.runs.some((r) => i >= r.start && i < r.end);
  const cells: JSX.Element[] = [];
  for (let i = from; i < to; i++) {
    const text = (bytes[i] as number).toString(16).padStart(2, "0");
    cells.push(
      differs(i) ? (
        <mark key={i} data-at={i}>
          {text}
        </mark>
      ) : (
        <span key={i}>{text}</span>
      ),
    );
  }
  return (
    <span className="byte-diff" title={`bytes ${from}..${to} of ${bytes.length}`}>
      {from > 0 ? "… " : ""}
      {cells}
      {to < bytes.length ? " …" : ""}
    </span>
  );
}
