/**
 * One side's bytes in the Compare dialog: a small hex map of the compared batch (up to
 * MAX_PANE_BYTES), in the hex map's kind colours, its differing bytes marked and the first one
 * scrolled into view. Only the rows in view are rendered, so a 64 KiB batch stays light.
 */
import { useEffect, useMemo, useRef, useState, type JSX } from "react";
import type { DiffRun } from "../../core/view/byte-diff.ts";
import { fillKinds } from "../../core/view/byte-map.ts";
import type { Analysis } from "../../core/model/model.ts";
import { ALL_BYTE_KINDS } from "../../format/fields.ts";
import { formatCount, hexOffset, plural } from "../../format/values.ts";
import { KIND_STYLE } from "../common/kind-style.ts";
import { markedBytes } from "./diff-marks.ts";

/** Bytes a pane shows at most; past this it says how many were left out. */
export const MAX_PANE_BYTES = 64 * 1024;
const ROW_BYTES = 16;
/** Row height in px, as in diff.css's .diff-pane-row. */
const ROW_PX = 18;
const VIEW_ROWS = 8;
const OVERSCAN = 6;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
const KIND_CLASS = ALL_BYTE_KINDS.map((k) => KIND_STYLE[k].className);

/** Props: the side's input, the compared range in it, and its differing runs (offsets in that input). */
export interface DiffPaneProps {
  /** "Left" or "Right": names the pane's scroll region ("Left bytes"). */
  readonly name: string;
  /** What the side is, e.g. "Other file batch 0". */
  readonly title: string;
  readonly bytes: Uint8Array;
  readonly analysis: Analysis;
  readonly start: number;
  readonly end: number;
  readonly marks: readonly DiffRun[];
  /** Added to every offset shown: where `bytes` start in the input (a batch read alone from a file read on demand), else 0. */
  readonly base?: number;
}

/** The pane. */
export function DiffPane({ name, title, bytes, analysis, start, end, marks, base = 0 }: DiffPaneProps): JSX.Element {
  const shownEnd = Math.min(end, start + MAX_PANE_BYTES);
  const rows = Math.ceil((shownEnd - start) / ROW_BYTES);
  const kinds = useMemo(() => {
    const out = new Uint8Array(shownEnd - start);
    fillKinds(analysis, bytes, start, shownEnd, out, new Uint8Array(out.length));
    return out;
  }, [analysis, bytes, start, shownEnd]);
  const marked = useMemo(() => {
    const m = new Uint8Array(shownEnd - start);
    for (const r of marks) m.fill(1, Math.max(r.start, start) - start, Math.max(0, Math.min(r.end, shownEnd) - start));
    return m;
  }, [marks, start, shownEnd]);
  const first = marks.find((r) => r.end > start && r.start < shownEnd)?.start ?? -1;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const row = first < 0 ? 0 : Math.floor((Math.max(first, start) - start) / ROW_BYTES);
    el.scrollTop = Math.max(0, (row - 2) * ROW_PX);
    setTop(el.scrollTop);
  }, [first, start]);

  const firstRow = Math.max(0, Math.floor(top / ROW_PX) - OVERSCAN);
  const lastRow = Math.min(rows, Math.floor(top / ROW_PX) + VIEW_ROWS + OVERSCAN);
  const rowEls: JSX.Element[] = [];
  for (let row = firstRow; row < lastRow; row++) {
    const at = start + row * ROW_BYTES;
    const cells: JSX.Element[] = [];
    for (let i = at; i < Math.min(at + ROW_BYTES, shownEnd); i++) {
      const cls = `diff-pane-b ${KIND_CLASS[kinds[i - start] as number] as string}`;
      const text = HEX[bytes[i] as number];
      cells.push(
        marked[i - start] ? (
          <mark key={i} className={`${cls} diff-pane-differs`} data-at={i + base} data-diff="true" title={`differs at ${i + base}`}>
            {text}
          </mark>
        ) : (
          <span key={i} className={cls} data-at={i + base}>
            {text}
          </span>
        ),
      );
    }
    rowEls.push(
      <div key={row} className="diff-pane-row" style={{ top: row * ROW_PX }}>
        <span className="diff-pane-offset">{hexOffset(at + base).slice(2)}</span>
        {cells}
      </div>,
    );
  }
  const count = markedBytes(marks);
  return (
    <section className="diff-pane">
      <h3>
        {name}: {title}
      </h3>
      <p className="diff-pane-note" data-testid="diff-pane-note">
        {count === 0
          ? "No differing bytes."
          : `${plural(count, "differing byte", undefined, (n) => formatCount(Number(n)))} marked, the first at ${hexOffset(marks[0]!.start + base)} (${marks[0]!.start + base}).`}
        {shownEnd < end ? ` Showing the first ${formatCount(MAX_PANE_BYTES)} of ${formatCount(end - start)} bytes.` : ""}
      </p>
      <div
        ref={scrollRef}
        className="diff-pane-scroll"
        tabIndex={0}
        role="region"
        aria-label={`${name} bytes`}
        style={{ height: Math.min(rows, VIEW_ROWS) * ROW_PX + 2 }}
        onScroll={(e) => setTop(e.currentTarget.scrollTop)}
      >
        <div className="diff-pane-rows" style={{ height: rows * ROW_PX }}>
          {rowEls}
        </div>
      </div>
    </section>
  );
}
