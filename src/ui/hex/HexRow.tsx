/** One memoized row of the hex map: offset, 16 hex cells and their ASCII in runs ("··" and aria-busy while its bytes are read). */
import { memo, useCallback, type JSX } from "react";
import { ALL_BYTE_KINDS, type ByteKind } from "../../format/fields.ts";
import { asciiOf, hexOffset } from "../../format/values.ts";
import { KIND_STYLE } from "../common/kind-style.ts";
import { cursorStore, hoverStore, selectionStore, type ByteSpan, type Selection } from "../state/app-state.ts";
import { useStore } from "../state/store.ts";
import { coverageStore, type Coverage } from "./coverage.ts";
import { BYTES_PER_ROW, ROW_HEIGHT } from "./layout.ts";
import { spanMask, spansMask } from "./masks.ts";
import { Edge, PROBLEM_NAME, type RowData } from "./row-data.ts";
import { asciiRuns } from "./ascii-runs.ts";

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
const ASCII = Array.from({ length: 256 }, (_, b) => asciiOf(b));
const KIND_CLASS = ALL_BYTE_KINDS.map((k) => KIND_STYLE[k].className);
const EDGE_NAME = ["", "frame", "batch"] as const;
/** What a cell shows while its byte is being read. */
export const PENDING_HEX = "··";
const PENDING_ASCII = " ";

/** Props of one row; all stable while the row stays on screen, so memo skips scroll re-renders. */
export interface HexRowProps {
  readonly data: RowData;
  readonly offsetDigits: number;
  /** Prefix of the cells' ids, for aria-activedescendant. */
  readonly idPrefix: string;
}

/** The DOM id of the hex cell of `offset`. */
export function cellId(idPrefix: string, offset: number): string {
  return `${idPrefix}b${offset}`;
}

/** One row. */
export const HexRow = memo(function HexRow({ data, offsetDigits, idPrefix }: HexRowProps): JSX.Element {
  const { start, length } = data;
  const read = data.bytes;
  // Hover, selection, coverage and cursor are hot state kept outside React (see store.ts). Each
  // row subscribes through a selector that reduces the state to one number for this row (a
  // 16-bit mask of its bytes, or a column), so a pointer move re-renders only the rows whose
  // number changed, not the whole grid (vscode-hexeditor dropped Recoil for the same reason).
  const hover = useStore(
    hoverStore,
    useCallback((h: ByteSpan | null) => (h ? spanMask(h.start, h.end, start, length) : 0), [start, length]),
  );
  const selected = useStore(
    selectionStore,
    useCallback((s: Selection | null) => (s ? spanMask(s.start, s.end, start, length) : 0), [start, length]),
  );
  const covered = useStore(
    coverageStore,
    useCallback((c: Coverage | null) => (c ? spansMask(c.spans, start, length) : 0), [start, length]),
  );
  const cursor = useStore(
    cursorStore,
    useCallback((c: number) => (c >= start && c < start + length ? c - start : -1), [start, length]),
  );

  const hexCells: JSX.Element[] = [];
  const asciiClasses: string[] = [];
  let asciiText = "";
  for (let i = 0; i < BYTES_PER_ROW; i++) {
    if (i >= length) {
      hexCells.push(<span key={i} className="hx-b hx-pad" aria-hidden="true" />);
      continue;
    }
    const offset = start + i;
    // Not read yet: a placeholder, never a zero.
    const byte = read ? read.bytes[offset - read.start] : undefined;
    const code = data.kinds[i] as number;
    const kind = ALL_BYTE_KINDS[code] as ByteKind;
    const bit = 1 << i;
    const edge = data.edges[i] as number;
    const problem = PROBLEM_NAME[data.problems[i] as number];
    const isHover = (hover & bit) !== 0;
    const isSelected = (selected & bit) !== 0;
    const isCovered = (covered & bit) !== 0;
    const isCursor = cursor === i;
    const kindClass = KIND_CLASS[code] as string;
    hexCells.push(
      <span
        key={i}
        // Only the cursor's cell needs an id (the grid's aria-activedescendant): one attribute less to rewrite
        // on every cell of every row a scroll frame refills.
        id={isCursor ? cellId(idPrefix, offset) : undefined}
        role="gridcell"
        aria-selected={isSelected}
        className={`hx-b ${kindClass}`}
        data-offset={offset}
        data-kind={kind}
        data-edge={edge === Edge.none ? undefined : EDGE_NAME[edge]}
        data-problem={problem}
        aria-invalid={problem === "error" || problem === "warning" ? true : undefined}
        data-hover={isHover ? "" : undefined}
        data-selected={isSelected ? "" : undefined}
        data-covered={isCovered ? "" : undefined}
        data-cursor={isCursor ? "" : undefined}
        data-pending={byte === undefined ? "" : undefined}
      >
        {byte === undefined ? PENDING_HEX : HEX[byte]}
      </span>,
    );
    // ASCII runs mirror the hex cells' marks with classes, not data-*, so that test selectors such
    // as [data-offset="40"] or [data-hover] match exactly one element per byte.
    let cls = `hx-a ${kindClass}`;
    if (edge !== Edge.none) cls += ` edge-${EDGE_NAME[edge]}`;
    if (problem) cls += ` problem-${problem}`;
    if (isHover) cls += " is-hover";
    if (isSelected) cls += " is-selected";
    if (isCovered) cls += " is-covered";
    if (isCursor) cls += " is-cursor";
    asciiClasses.push(cls);
    asciiText += byte === undefined ? PENDING_ASCII : ASCII[byte];
  }
  // The ASCII column in runs of bytes that share every mark (ascii-runs.ts), each naming its first byte.
  const asciiCells = asciiRuns(asciiClasses).map((r) => (
    <span key={r.from} className={r.cls} data-a={start + r.from}>
      {asciiText.slice(r.from, r.to)}
    </span>
  ));
  return (
    <div role="row" aria-rowindex={data.row + 2} className="hx-row" aria-busy={read ? undefined : true} style={{ height: ROW_HEIGHT }}>
      <span role="rowheader" className="hx-off" data-edge={data.rowEdge === Edge.none ? undefined : EDGE_NAME[data.rowEdge]}>
        {hexOffset(start, offsetDigits, "")}
      </span>
      <span className="hx-hex">{hexCells}</span>
      <span role="gridcell" className="hx-ascii">
        {asciiCells}
      </span>
    </div>
  );
});
